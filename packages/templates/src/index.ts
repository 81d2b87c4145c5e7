import {
  DEFAULT_TRIGGER_WORD,
  TEMPLATE_CATEGORIES,
  ZTemplateLibrarySchema,
  type DemoStyle,
  type QuickPromptCategory,
  type Style,
  type Template,
  type TemplateCategory,
  type TemplateGender,
  type TemplateLibrary,
  type TemplateVariant,
} from '@studioshot/contracts';
// One JSON file, so the Python engine's tests read the same data. Every consumer bundles it:
// Vite (web), tsup/esbuild (api, worker), vitest and tsx.
import raw from '../data/templates.json' with { type: 'json' };

export { TEMPLATE_CATEGORIES };
export type {
  DemoStyle,
  QuickPromptCategory,
  Style,
  Template,
  TemplateCategory,
  TemplateGender,
  TemplateVariant,
};

/** The 60 built-in style templates arrive with the generation capability. */
export const TEMPLATE_COUNT = 60;

function checkIndex(index: number): void {
  if (!Number.isInteger(index) || index < 1 || index > TEMPLATE_COUNT) {
    throw new RangeError(`template index out of range: ${index}`);
  }
}

/** Category of template prof_N by the spec's numbering (1-20, 21-40, 41-60). */
export function templateCategory(index: number): TemplateCategory {
  checkIndex(index);
  return index <= 20 ? 'professional' : index <= 40 ? 'executive' : 'creative';
}

/** Gender of template prof_N by the spec's numbering: man for 1-10, 21-30, 41-50. */
export function templateGender(index: number): TemplateGender {
  checkIndex(index);
  return (index - 1) % 20 < 10 ? 'man' : 'woman';
}

/** How many variants template prof_N has: 3 each for 1-46, 1 each after. */
export function templateVariantCount(index: number): number {
  checkIndex(index);
  return index <= 46 ? 3 : 1;
}

/**
 * A template's or a style's card text for a model's engine (its model_type): the flux engine
 * renders the prompt's attire and setting, the studio engine (and any other) only the backdrop,
 * light, framing and finish around the person's own photo.
 */
export function templateDescription(
  template: Pick<Template, 'description' | 'flux_description'>,
  engine: string,
): string {
  return engine === 'flux' ? template.flux_description : template.description;
}

/** The phrases prompt building replaces by the trigger word (spec: generation, validation). */
const SUBJECT_PATTERN = /\ba\s+(?:wo)?man\b|\bperson\b/gi;

/** Whether a prompt names its subject in a way the trigger-word substitution replaces. */
export function hasSubjectPhrase(prompt: string): boolean {
  return new RegExp(SUBJECT_PATTERN.source, 'i').test(prompt);
}

function locate(data: unknown, path: readonly PropertyKey[]): string {
  // `templates[3] (prof_4).variants[1].studio.lighting.fill_ratio`
  let where = '';
  let node: unknown = data;
  for (const key of path) {
    where += typeof key === 'number' ? `[${key}]` : `${where ? '.' : ''}${String(key)}`;
    node =
      node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    if (typeof key === 'number' && node && typeof node === 'object' && 'id' in node) {
      where += ` (${String((node as { id: unknown }).id)})`;
    }
  }
  return where || '(root)';
}

/**
 * Validates the template library: the contracts' schemas, then the spec's rules (ids prof_1..60 in
 * order, category and gender by number, variant counts, preview paths, prompts the trigger word
 * can replace in, unique names, quick prompts under known styles). Throws naming the bad entry.
 */
export function validateLibrary(data: unknown): TemplateLibrary {
  const parsed = ZTemplateLibrarySchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`templates.json: ${locate(data, issue.path)}: ${issue.message}`);
  }
  const lib = parsed.data;
  const fail = (where: string, what: string): never => {
    throw new Error(`templates.json: ${where}: ${what}`);
  };
  if (lib.templates.length !== TEMPLATE_COUNT) {
    fail('templates', `expected ${TEMPLATE_COUNT} templates, found ${lib.templates.length}`);
  }
  const names = new Set<string>();
  lib.templates.forEach((t, i) => {
    const n = i + 1;
    const where = `templates[${i}] (${t.id})`;
    if (t.id !== `prof_${n}`) fail(where, `expected id prof_${n}`);
    if (t.category !== templateCategory(n)) fail(where, `category must be ${templateCategory(n)}`);
    if (t.gender !== templateGender(n)) fail(where, `gender must be ${templateGender(n)}`);
    if (t.variants.length !== templateVariantCount(n)) {
      fail(where, `expected ${templateVariantCount(n)} variants, found ${t.variants.length}`);
    }
    if (t.imageUrl !== `/templates/${t.id}.jpg`)
      fail(where, `imageUrl must be /templates/${t.id}.jpg`);
    const phrase = t.gender === 'man' ? /\ba\s+man\b/i : /\ba\s+woman\b/i;
    if (!phrase.test(t.prompt) && !/\bperson\b/i.test(t.prompt)) {
      fail(where, `prompt must contain 'a ${t.gender}' or 'person'`);
    }
    const key = t.name.toLowerCase();
    if (names.has(key)) fail(where, `duplicate name '${t.name}'`);
    names.add(key);
    const variantNames = new Set<string>();
    t.variants.forEach((v, j) => {
      const at = `${where}.variants[${j}]`;
      if (v.index !== j) fail(at, `index must be ${j}`);
      if (v.imageUrl !== `/templates/${t.id}-v${j}.jpg`) {
        fail(at, `imageUrl must be /templates/${t.id}-v${j}.jpg`);
      }
      if (variantNames.has(v.name.toLowerCase())) fail(at, `duplicate variant name '${v.name}'`);
      variantNames.add(v.name.toLowerCase());
    });
  });
  const styleIds = new Set<string>();
  lib.styles.forEach((s, i) => {
    if (styleIds.has(s.id)) fail(`styles[${i}] (${s.id})`, 'duplicate id');
    styleIds.add(s.id);
  });
  lib.demo_styles.forEach((s, i) => {
    for (const id of s.sample_templates)
      if (!lib.templates.some((t) => t.id === id))
        fail(`demo_styles[${i}] (${s.id})`, `unknown sample template '${id}'`);
  });
  const qpIds = new Set<string>();
  lib.quick_prompts.forEach((q, i) => {
    const where = `quick_prompts[${i}] (${q.id})`;
    if (qpIds.has(q.id)) fail(where, 'duplicate id');
    qpIds.add(q.id);
    if (!styleIds.has(q.style_id)) fail(where, `unknown style_id '${q.style_id}'`);
    q.prompts.forEach((p, j) => {
      if (!/\bperson\b/i.test(p)) fail(`${where}.prompts[${j}]`, "prompt must contain 'person'");
    });
  });
  return lib;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const LIBRARY = deepFreeze(validateLibrary(raw));

/** The 60 templates, prof_1..prof_60 in order. */
export const TEMPLATES: readonly Template[] = LIBRARY.templates;
/** The style cards of /generate-trained and the legacy page (GET /api/v1/generation/styles). */
export const STYLES: readonly Style[] = LIBRARY.styles;
/** The quick prompt categories of /generate-trained, three per style, 4 prompts each. */
export const QUICK_PROMPTS: readonly QuickPromptCategory[] = LIBRARY.quick_prompts;
/** The free /demo page's three styles (professional, creative, casual), with their samples. */
export const DEMO_STYLES: readonly DemoStyle[] = LIBRARY.demo_styles;

const BY_ID = new Map(TEMPLATES.map((t) => [t.id, t]));

export function templateById(id: string): Template | undefined {
  return BY_ID.get(id);
}

/** Templates of a category and/or gender, in order; 'all' or absent means no filter. */
export function templatesFor(
  filter: { category?: TemplateCategory | 'all'; gender?: TemplateGender } = {},
): Template[] {
  const { category, gender } = filter;
  return TEMPLATES.filter(
    (t) =>
      (category === undefined || category === 'all' || t.category === category) &&
      (gender === undefined || t.gender === gender),
  );
}

/** A template's variant by its 0-based index; throws RangeError when it has no such variant. */
export function variantOf(template: Template, index: number): TemplateVariant {
  const variant = Number.isInteger(index) ? template.variants[index] : undefined;
  if (!variant) {
    throw new RangeError(
      `${template.id} has no variant ${index} (it has ${template.variants.length})`,
    );
  }
  return variant;
}

/** Quick prompt categories under a style. */
export function quickPromptsFor(styleId: string): QuickPromptCategory[] {
  return QUICK_PROMPTS.filter((q) => q.style_id === styleId);
}

/** A template's prompt for one of its variants: the template prompt plus the variant's suffix. */
export function templatePrompt(template: Template, variantIndex = 0): string {
  return template.prompt + (variantOf(template, variantIndex).prompt_suffix ?? '');
}

/**
 * The spec's prompt building: the custom prompt if non-blank, else the template prompt; the
 * phrases 'a man', 'a woman' and the word 'person' (whole words, any case) are replaced by the
 * model's trigger word ('person' when absent). One pass, so a trigger word is never re-replaced.
 */
export function buildPrompt({
  customPrompt,
  templatePrompt,
  triggerWord,
}: {
  customPrompt?: string | null;
  templatePrompt: string;
  triggerWord?: string | null;
}): string {
  const custom = customPrompt?.trim() ?? '';
  const prompt = custom !== '' ? custom : templatePrompt;
  const trigger = triggerWord?.trim() || DEFAULT_TRIGGER_WORD;
  // A function replacement, so '$' in a trigger word is taken literally.
  return prompt.replace(SUBJECT_PATTERN, () => trigger);
}
