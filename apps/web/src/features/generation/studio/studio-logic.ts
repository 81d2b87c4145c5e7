import {
  buildPrompt,
  templatePrompt,
  templatesFor,
  type Template,
  type TemplateCategory,
  type TemplateGender,
  type TemplateVariant,
} from '@studioshot/templates';

/**
 * The template studio of /generate (product spec: Template generation page) as pure functions:
 * the filters, the wrap-around carousel, the 300 ms lock between moves, the random variant of a
 * newly selected template, who sees the debug panel, and the prompt the server will build (who
 * may write a custom prompt is the contracts' customPromptApplies, shared with the server). The
 * hook in use-template-studio.ts and the components drive them.
 */

/** The spec's carousel lock: a move within this long of the last one is ignored. */
export const CAROUSEL_LOCK_MS = 300;
/** How many cards either side of the centre the 3D carousel draws. */
export const CAROUSEL_SIDE_CARDS = 2;

export type CategoryFilter = TemplateCategory | 'all';

/** The category chips, in the spec's order and words. */
export const CATEGORY_CHIPS: readonly { id: CategoryFilter; label: string }[] = [
  { id: 'all', label: 'All Styles' },
  { id: 'professional', label: 'Professional / Corporate' },
  { id: 'executive', label: 'Executive / Leadership' },
  { id: 'creative', label: 'Creative / Modern' },
];

/** The Male/Female toggle: the profile's word and the templates' word for each. */
export const GENDER_OPTIONS: readonly { id: TemplateGender; label: string }[] = [
  { id: 'man', label: 'Male' },
  { id: 'woman', label: 'Female' },
];

/** The toggle's default: the profile's gender; male when the profile has none. */
export function genderOfProfile(gender: string | null | undefined): TemplateGender {
  return gender === 'female' ? 'woman' : 'man';
}

/** The templates the carousel shows for a gender and a category chip, prof_N order. */
export function studioTemplates(gender: TemplateGender, category: CategoryFilter): Template[] {
  return templatesFor({ gender, category });
}

/** An index moved by any amount, wrapped into 0..count-1 (0 for an empty list). */
export function wrapIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((index % count) + count) % count;
}

/**
 * Where card `index` sits relative to the centre card `active`, going the short way round the
 * wrap: 0 is the centre, -1 the card to its left, 1 to its right. A tie (half way round an even
 * list) goes right.
 */
export function carouselOffset(index: number, active: number, count: number): number {
  if (count <= 0) return 0;
  let offset = wrapIndex(index - active, count);
  if (offset > count / 2) offset -= count;
  return offset;
}

/**
 * The cards the carousel draws: the centre and up to `side` either side, each once (a short list
 * does not repeat a card on both sides), ordered left to right.
 */
export function visibleSlides(
  active: number,
  count: number,
  side = CAROUSEL_SIDE_CARDS,
): { index: number; offset: number }[] {
  const slides: { index: number; offset: number }[] = [];
  const seen = new Set<number>();
  for (let offset = -side; offset <= side; offset += 1) {
    const index = wrapIndex(active + offset, count);
    if (count === 0 || seen.has(index)) continue;
    const own = carouselOffset(index, active, count);
    if (own !== offset) continue;
    seen.add(index);
    slides.push({ index, offset });
  }
  return slides;
}

/** A variant index drawn from `roll` (0 <= roll < 1, as Math.random gives). */
export function randomVariant(template: Template, roll: number): number {
  const count = template.variants.length;
  const clamped = Number.isFinite(roll) ? Math.min(Math.max(roll, 0), 0.999_999) : 0;
  return Math.min(count - 1, Math.floor(clamped * count));
}

/** The picture of a template in one of its variants (variant 0 is the template's own preview). */
export function templateImage(template: Template, variantIndex: number): string {
  const variant = template.variants[variantIndex];
  if (!variant || variantIndex === 0) return template.imageUrl;
  return variant.imageUrl;
}

/** A variant's thumbnail: the same file as the card shows, so the browser fetches it once. */
export function variantImage(template: Template, variant: TemplateVariant): string {
  return templateImage(template, variant.index);
}

/**
 * The 300 ms lock between moves: `tryMove(now)` says whether a move may happen now, and if so
 * starts the lock.
 */
export function createMoveLock(ms = CAROUSEL_LOCK_MS) {
  let lockedUntil = Number.NEGATIVE_INFINITY;
  return {
    tryMove(now: number): boolean {
      if (now < lockedUntil) return false;
      lockedUntil = now + ms;
      return true;
    },
    isLocked(now: number): boolean {
      return now < lockedUntil;
    },
    reset(): void {
      lockedUntil = Number.NEGATIVE_INFINITY;
    },
  };
}
export type MoveLock = ReturnType<typeof createMoveLock>;

// The studio's selection, as a reducer: every way of selecting a template (a move, a dot, a
// filter) picks a random variant of it and empties the custom prompt (spec: Generation page).

export interface StudioSelection {
  gender: TemplateGender;
  category: CategoryFilter;
  /** Position in studioTemplates(gender, category). */
  index: number;
  variant: number;
  customPrompt: string;
}

export type StudioEvent =
  /** `roll` is a Math.random() draw for the newly selected template's variant. */
  | { type: 'move'; delta: number; roll: number }
  | { type: 'go-to'; index: number; roll: number }
  | { type: 'gender'; gender: TemplateGender; roll: number }
  | { type: 'category'; category: CategoryFilter; roll: number }
  | { type: 'variant'; variant: number }
  | { type: 'prompt'; prompt: string };

/** The first template of a gender and category, with a random variant. */
export function initialSelection(
  gender: TemplateGender,
  category: CategoryFilter,
  roll: number,
): StudioSelection {
  return select({ gender, category, index: 0, variant: 0, customPrompt: '' }, 0, roll);
}

function select(state: StudioSelection, index: number, roll: number): StudioSelection {
  const templates = studioTemplates(state.gender, state.category);
  const next = wrapIndex(index, templates.length);
  const template = templates[next];
  return {
    ...state,
    index: next,
    variant: template ? randomVariant(template, roll) : 0,
    customPrompt: '',
  };
}

export function studioReducer(state: StudioSelection, event: StudioEvent): StudioSelection {
  switch (event.type) {
    case 'move':
      if (event.delta === 0) return state;
      return select(state, state.index + event.delta, event.roll);
    case 'go-to': {
      const count = studioTemplates(state.gender, state.category).length;
      if (wrapIndex(event.index, count) === state.index) return state;
      return select(state, event.index, event.roll);
    }
    case 'gender':
      if (event.gender === state.gender) return state;
      return select({ ...state, gender: event.gender }, 0, event.roll);
    case 'category':
      if (event.category === state.category) return state;
      return select({ ...state, category: event.category }, 0, event.roll);
    case 'variant': {
      const template = studioTemplates(state.gender, state.category)[state.index];
      if (!template?.variants[event.variant]) return state;
      return { ...state, variant: event.variant };
    }
    case 'prompt':
      return { ...state, customPrompt: event.prompt };
  }
}

/**
 * The debug prompt panel: an account with the debug flag, or the server's debug setting on
 * (README, Configuration: DEBUG_PROMPTS). No account is special-cased by its e-mail.
 */
export function showsDebugPanel(
  account: { is_debug?: boolean | null } | null | undefined,
  serverDebug: boolean,
): boolean {
  return serverDebug || account?.is_debug === true;
}

/**
 * The prompt the server builds for this template and variant (packages/templates buildPrompt):
 * the custom prompt if the account may use one and it is not blank, else the template's prompt
 * with the variant's suffix; 'a man', 'a woman' and 'person' become the model's trigger word.
 */
export function studioPrompt({
  template,
  variant,
  customPrompt,
  customAllowed,
  triggerWord,
}: {
  template: Template;
  variant: number;
  customPrompt: string;
  customAllowed: boolean;
  triggerWord: string | null | undefined;
}): string {
  return buildPrompt({
    customPrompt: customAllowed ? customPrompt : null,
    templatePrompt: templatePrompt(template, template.variants[variant] ? variant : 0),
    triggerWord,
  });
}

/** What the Generate call sends as `prompt`: only a custom prompt the server will use. */
export function customPromptToSend(customPrompt: string, customAllowed: boolean): string {
  return customAllowed ? customPrompt.trim() : '';
}

/** Why Generate cannot run (spec: template page validation), or null when it can. */
export function generateBlocker(
  template: Template | null | undefined,
  modelId: string | null | undefined,
): string | null {
  if (!template) return 'Please select a template';
  if (!modelId) return 'Please select a trained model';
  return null;
}
