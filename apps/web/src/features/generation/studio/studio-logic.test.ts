import { templateById, TEMPLATES } from '@studioshot/templates';
import { describe, expect, it } from 'vitest';
import {
  CATEGORY_CHIPS,
  carouselOffset,
  createMoveLock,
  customPromptToSend,
  generateBlocker,
  genderOfProfile,
  initialSelection,
  randomVariant,
  showsDebugPanel,
  studioPrompt,
  studioReducer,
  studioTemplates,
  templateImage,
  visibleSlides,
  wrapIndex,
  type StudioSelection,
} from './studio-logic';
import { studioKeyFor } from './use-studio-keys';

const ids = (list: { id: string }[]) => list.map((t) => t.id);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `prof_${from + i}`);

describe('filters', () => {
  it('the chips are the spec’s four, All Styles first', () => {
    expect(CATEGORY_CHIPS.map((c) => c.label)).toEqual([
      'All Styles',
      'Professional / Corporate',
      'Executive / Leadership',
      'Creative / Modern',
    ]);
  });

  it('gender and category pick the spec’s numbering', () => {
    expect(ids(studioTemplates('man', 'all'))).toEqual([
      ...range(1, 10),
      ...range(21, 30),
      ...range(41, 50),
    ]);
    expect(ids(studioTemplates('woman', 'all'))).toEqual([
      ...range(11, 20),
      ...range(31, 40),
      ...range(51, 60),
    ]);
    expect(ids(studioTemplates('man', 'professional'))).toEqual(range(1, 10));
    expect(ids(studioTemplates('woman', 'executive'))).toEqual(range(31, 40));
    expect(ids(studioTemplates('woman', 'creative'))).toEqual(range(51, 60));
  });

  it('the toggle defaults to the profile’s gender, male without one', () => {
    expect(genderOfProfile('female')).toBe('woman');
    expect(genderOfProfile('male')).toBe('man');
    expect(genderOfProfile(null)).toBe('man');
    expect(genderOfProfile(undefined)).toBe('man');
  });
});

describe('the carousel', () => {
  it('wraps both ways', () => {
    expect(wrapIndex(-1, 30)).toBe(29);
    expect(wrapIndex(30, 30)).toBe(0);
    expect(wrapIndex(61, 30)).toBe(1);
    expect(wrapIndex(5, 0)).toBe(0);
  });

  it('places cards the short way round', () => {
    expect(carouselOffset(29, 0, 30)).toBe(-1);
    expect(carouselOffset(1, 0, 30)).toBe(1);
    expect(carouselOffset(0, 29, 30)).toBe(1);
    expect(carouselOffset(15, 0, 30)).toBe(15);
  });

  it('draws the centre and two either side, across the wrap', () => {
    expect(visibleSlides(0, 10)).toEqual([
      { index: 8, offset: -2 },
      { index: 9, offset: -1 },
      { index: 0, offset: 0 },
      { index: 1, offset: 1 },
      { index: 2, offset: 2 },
    ]);
    expect(visibleSlides(9, 10).map((s) => s.index)).toEqual([7, 8, 9, 0, 1]);
  });

  it('never draws a card twice in a short list', () => {
    expect(visibleSlides(0, 3)).toEqual([
      { index: 2, offset: -1 },
      { index: 0, offset: 0 },
      { index: 1, offset: 1 },
    ]);
    expect(visibleSlides(0, 2)).toEqual([
      { index: 0, offset: 0 },
      { index: 1, offset: 1 },
    ]);
    expect(visibleSlides(0, 1)).toEqual([{ index: 0, offset: 0 }]);
    expect(visibleSlides(0, 0)).toEqual([]);
  });
});

describe('the 300 ms lock', () => {
  it('refuses a move until 300 ms after the last one', () => {
    const lock = createMoveLock();
    expect(lock.tryMove(1000)).toBe(true);
    expect(lock.tryMove(1100)).toBe(false);
    expect(lock.tryMove(1299)).toBe(false);
    // A refused move does not extend the lock.
    expect(lock.tryMove(1300)).toBe(true);
    expect(lock.isLocked(1400)).toBe(true);
    lock.reset();
    expect(lock.tryMove(1400)).toBe(true);
  });
});

describe('variants', () => {
  const three = templateById('prof_1')!;
  const one = templateById('prof_50')!;

  it('draws any of the variants from the roll', () => {
    expect(three.variants).toHaveLength(3);
    expect(randomVariant(three, 0)).toBe(0);
    expect(randomVariant(three, 0.34)).toBe(1);
    expect(randomVariant(three, 0.99)).toBe(2);
    expect(randomVariant(three, 1)).toBe(2);
    expect(randomVariant(three, Number.NaN)).toBe(0);
    expect(randomVariant(one, 0.99)).toBe(0);
  });

  it('shows the template’s own preview for variant 0 and the variant’s picture otherwise', () => {
    expect(templateImage(three, 0)).toBe('/templates/prof_1.jpg');
    expect(templateImage(three, 2)).toBe('/templates/prof_1-v2.jpg');
    expect(templateImage(three, 7)).toBe('/templates/prof_1.jpg');
  });
});

describe('the selection', () => {
  const start = (): StudioSelection => ({
    ...initialSelection('man', 'all', 0),
    customPrompt: 'my own prompt',
  });

  it('starts on the first template with a random variant', () => {
    expect(initialSelection('woman', 'all', 0.99)).toEqual({
      gender: 'woman',
      category: 'all',
      index: 0,
      variant: 2,
      customPrompt: '',
    });
  });

  it('a move wraps, picks a random variant and clears the custom prompt', () => {
    const back = studioReducer(start(), { type: 'move', delta: -1, roll: 0.5 });
    expect(back.index).toBe(29);
    // prof_50: one variant.
    expect(back.variant).toBe(0);
    expect(back.customPrompt).toBe('');
    const forward = studioReducer(back, { type: 'move', delta: 1, roll: 0.7 });
    expect(forward).toMatchObject({ index: 0, variant: 2 });
  });

  it('a dot goes straight there; the dot of the current template changes nothing', () => {
    const state = start();
    expect(studioReducer(state, { type: 'go-to', index: 4, roll: 0.4 })).toMatchObject({
      index: 4,
      variant: 1,
      customPrompt: '',
    });
    expect(studioReducer(state, { type: 'go-to', index: 0, roll: 0.9 })).toBe(state);
  });

  it('a filter starts its list from the first template', () => {
    const moved = studioReducer(start(), { type: 'go-to', index: 7, roll: 0 });
    const women = studioReducer(moved, { type: 'gender', gender: 'woman', roll: 0.5 });
    expect(women).toMatchObject({ gender: 'woman', index: 0, variant: 1 });
    const creative = studioReducer(women, { type: 'category', category: 'creative', roll: 0 });
    expect(creative).toMatchObject({ category: 'creative', index: 0 });
    expect(studioTemplates(creative.gender, creative.category)[creative.index]!.id).toBe('prof_51');
    expect(studioReducer(creative, { type: 'category', category: 'creative', roll: 0 })).toBe(
      creative,
    );
  });

  it('a variant choice keeps the template and the custom prompt; an unknown one is ignored', () => {
    const state = start();
    expect(studioReducer(state, { type: 'variant', variant: 2 })).toMatchObject({
      index: 0,
      variant: 2,
      customPrompt: 'my own prompt',
    });
    expect(studioReducer(state, { type: 'variant', variant: 3 })).toBe(state);
  });
});

describe('debug panel and prompt building', () => {
  it('the debug panel: the account flag or the server setting, never an e-mail', () => {
    expect(showsDebugPanel({ is_debug: true }, false)).toBe(true);
    expect(showsDebugPanel({ is_debug: false }, true)).toBe(true);
    expect(showsDebugPanel({ is_debug: false }, false)).toBe(false);
    expect(
      showsDebugPanel(
        { is_debug: false, email: 'test@example.com' } as { is_debug: boolean },
        false,
      ),
    ).toBe(false);
  });

  it('builds the template prompt with the variant and the trigger word', () => {
    const template = templateById('prof_1')!;
    const built = studioPrompt({
      template,
      variant: 1,
      customPrompt: 'ignored without premium',
      customAllowed: false,
      triggerWord: 'sks person',
    });
    expect(built).toContain('headshot of sks person in a tailored navy suit');
    expect(
      built.endsWith(template.variants[1]!.prompt_suffix!.replace(/person/g, 'sks person')),
    ).toBe(true);
    expect(built).not.toMatch(/\ba man\b/);
  });

  it('a custom prompt replaces the template’s when the account may use it, and only then is sent', () => {
    const template = TEMPLATES[0]!;
    const args = {
      template,
      variant: 0,
      customPrompt: '  person on a beach  ',
      triggerWord: 'ohwx',
    };
    expect(studioPrompt({ ...args, customAllowed: true })).toBe('ohwx on a beach');
    expect(studioPrompt({ ...args, customPrompt: '   ', customAllowed: true })).toContain(
      'corporate headshot of ohwx',
    );
    expect(customPromptToSend('  person on a beach ', true)).toBe('person on a beach');
    expect(customPromptToSend('person on a beach', false)).toBe('');
  });

  it('Generate needs a template and a model, in the spec’s words', () => {
    expect(generateBlocker(null, 'm')).toBe('Please select a template');
    expect(generateBlocker(TEMPLATES[0], '')).toBe('Please select a trained model');
    expect(generateBlocker(TEMPLATES[0], 'm')).toBeNull();
  });
});

describe('keys', () => {
  const el = (html: string) => {
    const host = document.createElement('div');
    host.innerHTML = html;
    return host.firstElementChild!;
  };

  it('arrows move and Enter generates from anywhere but fields and controls', () => {
    expect(studioKeyFor('ArrowLeft', document.body)).toBe('previous');
    expect(studioKeyFor('ArrowRight', document.body)).toBe('next');
    expect(studioKeyFor('Enter', document.body)).toBe('generate');
    expect(studioKeyFor('ArrowRight', el('<button>Next</button>'))).toBe('next');
    // Enter on a button presses that button.
    expect(studioKeyFor('Enter', el('<button>Warm</button>'))).toBeNull();
    expect(studioKeyFor('Enter', el('<a href="/x">x</a>'))).toBeNull();
    expect(studioKeyFor('ArrowLeft', el('<textarea></textarea>'))).toBeNull();
    expect(studioKeyFor('Enter', el('<textarea></textarea>'))).toBeNull();
    expect(studioKeyFor('ArrowLeft', el('<select><option>a</option></select>'))).toBeNull();
    expect(studioKeyFor('ArrowLeft', el('<input />'))).toBeNull();
    expect(studioKeyFor('ArrowLeft', el('<div role="dialog"><p>x</p></div>'))).toBeNull();
    expect(studioKeyFor('a', document.body)).toBeNull();
  });
});
