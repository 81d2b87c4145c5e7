import { readFileSync } from 'node:fs';
import {
  ZStudioParamsSchema,
  ZStylesResponseSchema,
  ZTemplatesResponseSchema,
  type StudioParams,
} from '@studioshot/contracts';
import { describe, expect, it } from 'vitest';
import {
  DEMO_STYLES,
  QUICK_PROMPTS,
  STYLES,
  TEMPLATE_CATEGORIES,
  TEMPLATE_COUNT,
  TEMPLATES,
  buildPrompt,
  quickPromptsFor,
  templateById,
  templateCategory,
  templateDescription,
  templatePrompt,
  templatesFor,
  validateLibrary,
  variantOf,
  type Template,
} from './index.js';

const rawJson = (): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL('../data/templates.json', import.meta.url), 'utf8'));

const num = (t: Template) => Number(t.id.slice('prof_'.length));
const allVariants = TEMPLATES.flatMap((t) => t.variants.map((v) => ({ t, v })));

describe('templates: the spec rules', () => {
  it('has 60 templates prof_1..prof_60 in order', () => {
    expect(TEMPLATE_COUNT).toBe(60);
    expect(TEMPLATES.map((t) => t.id)).toEqual(
      Array.from({ length: 60 }, (_, i) => `prof_${i + 1}`),
    );
  });

  it('categories by range: professional 1-20, executive 21-40, creative 41-60', () => {
    for (const t of TEMPLATES) {
      const n = num(t);
      expect(t.category, t.id).toBe(n <= 20 ? 'professional' : n <= 40 ? 'executive' : 'creative');
      expect(templateCategory(n)).toBe(t.category);
    }
    expect(TEMPLATE_CATEGORIES).toEqual(['professional', 'executive', 'creative']);
    expect([1, 20, 21, 40, 41, 60].map(templateCategory)).toEqual([
      'professional',
      'professional',
      'executive',
      'executive',
      'creative',
      'creative',
    ]);
    expect(() => templateCategory(0)).toThrow(RangeError);
    expect(() => templateCategory(1.5)).toThrow(RangeError);
    expect(() => templateCategory(61)).toThrow(RangeError);
  });

  it('genders by range: man for 1-10, 21-30, 41-50, woman otherwise', () => {
    for (const t of TEMPLATES) {
      const n = num(t);
      const man = (n >= 1 && n <= 10) || (n >= 21 && n <= 30) || (n >= 41 && n <= 50);
      expect(t.gender, t.id).toBe(man ? 'man' : 'woman');
    }
  });

  it('variants: 3 each for 1-46, 1 each for 47-60, indexed 0.. in order', () => {
    for (const t of TEMPLATES) {
      expect(t.variants.length, t.id).toBe(num(t) <= 46 ? 3 : 1);
      t.variants.forEach((v, i) => expect(v.index, `${t.id} variant ${i}`).toBe(i));
    }
  });

  it('prompts name the subject so the trigger word substitution works, matching the gender', () => {
    for (const t of TEMPLATES) {
      const phrase = t.gender === 'man' ? /\ba man\b/i : /\ba woman\b/i;
      const other = t.gender === 'man' ? /\ba woman\b/i : /\ba man\b/i;
      expect(phrase.test(t.prompt) || /\bperson\b/i.test(t.prompt), t.id).toBe(true);
      expect(other.test(t.prompt), t.id).toBe(false);
      // The built prompt keeps no trace of the gendered phrase.
      const built = buildPrompt({ templatePrompt: t.prompt, triggerWord: 'sks' });
      expect(built, t.id).toContain('sks');
      expect(built, t.id).not.toMatch(/\ba (wo)?man\b|\bperson\b/i);
    }
  });

  it('names are unique and text fields are filled in', () => {
    const names = TEMPLATES.map((t) => t.name.toLowerCase());
    expect(new Set(names).size).toBe(60);
    const prompts = TEMPLATES.map((t) => t.prompt);
    expect(new Set(prompts).size).toBe(60);
    for (const t of TEMPLATES) {
      expect(t.description.trim().length, t.id).toBeGreaterThan(20);
      expect(t.useCase.trim(), t.id).not.toBe('');
      expect(t.tags.length, t.id).toBeGreaterThanOrEqual(3);
      expect(t.tags.length, t.id).toBeLessThanOrEqual(6);
      expect(new Set(t.tags).size, t.id).toBe(t.tags.length);
      for (const tag of t.tags) expect(tag.trim(), t.id).not.toBe('');
      const variantNames = t.variants.map((v) => v.name);
      expect(new Set(variantNames).size, t.id).toBe(variantNames.length);
      for (const v of t.variants.slice(1)) {
        expect(v.prompt_suffix, `${t.id} ${v.name}`).toMatch(/^, \S/);
      }
    }
  });

  it("each card carries two texts, and the model's engine picks which one shows", () => {
    for (const t of TEMPLATES) {
      expect(t.flux_description.trim().length, t.id).toBeGreaterThan(20);
      expect(t.flux_description, t.id).not.toBe(t.description);
      expect(templateDescription(t, 'flux'), t.id).toBe(t.flux_description);
      // The studio engine, and any engine not known to render the prompt's attire, get the text
      // that promises only the backdrop, light, framing and finish.
      expect(templateDescription(t, 'studio'), t.id).toBe(t.description);
      expect(templateDescription(t, ''), t.id).toBe(t.description);
    }
    const suits = TEMPLATES.filter((t) => /\bsuit\b/i.test(t.prompt));
    expect(suits.length).toBeGreaterThanOrEqual(18);
    for (const t of suits) {
      expect(t.flux_description, t.id).toMatch(/\bsuit\b/i);
      expect(t.description, t.id).not.toMatch(/\bsuit\b/i);
    }
  });

  it('each style card carries two texts too; attire is promised only to the flux engine', () => {
    for (const style of [...STYLES, ...DEMO_STYLES]) {
      expect(style.flux_description, style.id).not.toBe(style.description);
      expect(templateDescription(style, 'flux'), style.id).toBe(style.flux_description);
      expect(templateDescription(style, 'studio'), style.id).toBe(style.description);
      expect(style.description, style.id).not.toMatch(/\b(suit|blazer|attire|wardrobe|clothes)\b/i);
    }
  });

  it('a template without its flux text is refused', () => {
    const raw = rawJson() as { templates: Record<string, unknown>[] };
    const { flux_description: _dropped, ...first } = raw.templates[0]!;
    expect(
      ZTemplatesResponseSchema.safeParse({ templates: [first, ...raw.templates.slice(1)] }).success,
    ).toBe(false);
  });

  it('image paths: /templates/prof_N.jpg (= its first variant) and /templates/prof_N-v{index}.jpg', () => {
    for (const t of TEMPLATES) {
      expect(t.imageUrl).toBe(`/templates/${t.id}.jpg`);
      for (const v of t.variants) expect(v.imageUrl).toBe(`/templates/${t.id}-v${v.index}.jpg`);
    }
  });

  it('the JSON file matches the templates list response schema', () => {
    const raw = rawJson();
    expect(ZTemplatesResponseSchema.safeParse({ templates: raw.templates }).success).toBe(true);
  });
});

// ---- StudioParams: valid, faithful and distinct ----

const RANGES: Record<string, Record<string, [number, number]>> = {
  framing: { head_height: [0.2, 0.55], eye_line: [0.28, 0.48], offset_x: [-0.2, 0.2] },
  backdrop: { vignette: [0, 1], blur: [0, 1] },
  lighting: { key_side: [-1, 1], key_strength: [0, 1], fill_ratio: [0, 1], rim_strength: [0, 1] },
  grade: {
    temperature: [-1, 1],
    tint: [-1, 1],
    contrast: [0.6, 1.5],
    saturation: [0, 1.5],
    fade: [0, 0.3],
    monochrome: [0, 1],
  },
  retouch: { skin_smoothing: [0, 1], eye_clarity: [0, 1] },
};
const KINDS = ['seamless', 'office', 'bokeh', 'textured', 'gradient'] as const;
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/**
 * Every numeric field scaled by its schema range to 0..1, the backdrop kind one-hot, and the three
 * colours as sRGB 0..1. Two looks whose vectors lie 0.12 apart differ at least as much as a 0.24
 * temperature shift (a plainly visible warm or cool cast), a 4% of frame change in head size
 * (about 19 px on the 450 px preview) or a 12% change in fill, vignette or rim: enough that two
 * thumbnails side by side read as different looks. A different backdrop kind alone is 1.41.
 */
function lookVector(s: StudioParams): number[] {
  const out: number[] = [];
  for (const [group, fields] of Object.entries(RANGES)) {
    for (const [field, [lo, hi]] of Object.entries(fields)) {
      const value = (s as unknown as Record<string, Record<string, number>>)[group]![field]!;
      out.push((value - lo) / (hi - lo));
    }
  }
  for (const kind of KINDS) out.push(s.backdrop.kind === kind ? 1 : 0);
  for (const c of [...s.backdrop.colors, s.lighting.rim_color]) out.push(...rgb(c));
  return out;
}
const distance = (a: number[], b: number[]) =>
  Math.sqrt(a.reduce((sum, x, i) => sum + (x - b[i]!) ** 2, 0));
const MIN_LOOK_DISTANCE = 0.12;

describe('templates: studio params', () => {
  it('every variant has valid StudioParams', () => {
    for (const { t, v } of allVariants) {
      const r = ZStudioParamsSchema.safeParse(v.studio);
      expect(r.success, `${t.id} variant ${v.index}: ${r.error?.message}`).toBe(true);
    }
    expect(allVariants.length).toBe(46 * 3 + 14);
  });

  it(`every template x variant look is distinct (normalised distance >= ${MIN_LOOK_DISTANCE})`, () => {
    const vectors = allVariants.map(({ t, v }) => ({
      key: `${t.id}/${v.name}`,
      vec: lookVector(v.studio),
    }));
    let closest = { d: Infinity, pair: '' };
    for (let i = 0; i < vectors.length; i++) {
      for (let j = i + 1; j < vectors.length; j++) {
        const d = distance(vectors[i]!.vec, vectors[j]!.vec);
        if (d < closest.d) closest = { d, pair: `${vectors[i]!.key} ~ ${vectors[j]!.key}` };
      }
    }
    expect(closest.d, closest.pair).toBeGreaterThanOrEqual(MIN_LOOK_DISTANCE);
  });

  it('uses all five backdrop kinds, each for several templates', () => {
    const counts = new Map<string, number>();
    for (const t of TEMPLATES) {
      const kind = t.variants[0]!.studio.backdrop.kind;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    for (const kind of KINDS) expect(counts.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(5);
  });

  it('the backdrop kind matches what the template says it is', () => {
    const kindOf = (t: Template) => t.variants[0]!.studio.backdrop.kind;
    for (const t of TEMPLATES) {
      const tags = t.tags.join(' ');
      if (/\bbokeh\b/.test(tags)) expect(kindOf(t), t.id).toBe('bokeh');
      if (/\bgradient\b/.test(tags) || /gradient/i.test(t.name))
        expect(kindOf(t), t.id).toBe('gradient');
      if (/\boffice\b/.test(tags)) expect(kindOf(t), t.id).toBe('office');
      if (/\b(brick|concrete|canvas|library|books)\b/.test(tags)) {
        expect(kindOf(t), t.id).toBe('textured');
      }
    }
  });

  it('dark, moody and low-key templates have a dark backdrop and little fill in every variant', () => {
    const moody = TEMPLATES.filter((t) =>
      t.tags.some((tag) => /^(dark|moody|low-key|chiaroscuro|film noir|split light)$/.test(tag)),
    );
    expect(moody.length).toBeGreaterThanOrEqual(6);
    for (const t of moody) {
      for (const v of t.variants) {
        const s = v.studio;
        expect(s.lighting.fill_ratio, `${t.id}/${v.name}`).toBeLessThanOrEqual(0.4);
        expect(Math.min(...s.backdrop.colors.map(luminance)), `${t.id}/${v.name}`).toBeLessThan(
          0.25,
        );
      }
    }
  });

  it('high-key, white and bright templates have a light backdrop and generous fill', () => {
    const bright = TEMPLATES.filter((t) =>
      t.tags.some((tag) => /^(high-key|white|bright)$/.test(tag)),
    );
    expect(bright.length).toBeGreaterThanOrEqual(4);
    for (const t of bright) {
      const s = t.variants[0]!.studio;
      expect(s.lighting.fill_ratio, t.id).toBeGreaterThanOrEqual(0.6);
      expect(luminance(s.backdrop.colors[0]), t.id).toBeGreaterThan(0.55);
    }
  });

  it('outdoor greenery templates use green bokeh', () => {
    const green = TEMPLATES.filter((t) => t.tags.includes('greenery'));
    expect(green.length).toBeGreaterThanOrEqual(4);
    for (const t of green) {
      for (const v of t.variants) {
        expect(v.studio.backdrop.kind).toBe('bokeh');
        const greenish = v.studio.backdrop.colors.some((c) => {
          const [r, g, b] = rgb(c) as [number, number, number];
          return g > r && g > b;
        });
        expect(greenish, `${t.id}/${v.name}`).toBe(true);
      }
    }
  });

  it('black and white templates are monochrome in every variant; colourful ones are saturated', () => {
    for (const t of TEMPLATES) {
      if (t.tags.some((tag) => /^(black and white|monochrome|film noir)$/.test(tag))) {
        for (const v of t.variants) expect(v.studio.grade.monochrome, `${t.id}/${v.name}`).toBe(1);
      }
      if (t.tags.some((tag) => /^(neon|colourful|duotone|colour block)$/.test(tag))) {
        expect(t.variants[0]!.studio.grade.saturation, t.id).toBeGreaterThanOrEqual(1.2);
      }
    }
  });

  it('executive looks are lower-key than professional ones on average', () => {
    const mean = (cat: string, f: (s: StudioParams) => number) => {
      const list = TEMPLATES.filter((t) => t.category === cat).map((t) => f(t.variants[0]!.studio));
      return list.reduce((a, b) => a + b, 0) / list.length;
    };
    const fill = (s: StudioParams) => s.lighting.fill_ratio;
    const contrast = (s: StudioParams) => s.grade.contrast;
    expect(mean('executive', fill)).toBeLessThan(mean('professional', fill) - 0.1);
    expect(mean('executive', contrast)).toBeGreaterThan(mean('professional', contrast));
  });

  it('variant names describe how they differ from the template look', () => {
    let checked = 0;
    for (const t of TEMPLATES) {
      const base = t.variants[0]!.studio;
      for (const v of t.variants.slice(1)) {
        const s = v.studio;
        const at = `${t.id}/${v.name}`;
        const n = v.name;
        if (/^(Warm|Morning Warm|Warm Afternoon|Golden|Golden Hour|Sunset)$/.test(n)) {
          expect(s.grade.temperature, at).toBeGreaterThan(base.grade.temperature);
          checked++;
        }
        if (/^(Cool Daylight|Blue Hour|Overcast|Daylight|Soft Shade|Night)$/.test(n)) {
          expect(s.grade.temperature, at).toBeLessThan(base.grade.temperature);
          checked++;
        }
        if (n === 'Neutral') {
          expect(Math.abs(s.grade.temperature), at).toBeLessThan(Math.abs(base.grade.temperature));
          checked++;
        }
        if (n === 'Close-up') {
          expect(s.framing.head_height, at).toBeGreaterThan(base.framing.head_height);
          checked++;
        }
        if (n === 'Wide' || n === 'Standard') {
          expect(s.framing.head_height, at).toBeLessThan(base.framing.head_height);
          checked++;
        }
        if (n === 'Mirror') {
          expect(Math.sign(s.lighting.key_side), at).toBe(-Math.sign(base.lighting.key_side));
          checked++;
        }
        if (n === 'Dramatic' || n === 'High Contrast') {
          expect(s.lighting.fill_ratio, at).toBeLessThan(base.lighting.fill_ratio);
          expect(s.grade.contrast, at).toBeGreaterThan(base.grade.contrast);
          checked++;
        }
        if (/^(Soft|Softer|Soft Focus|Soft Silver|Soft Shade|Soft Grain)$/.test(n)) {
          expect(s.lighting.fill_ratio, at).toBeGreaterThan(base.lighting.fill_ratio);
          checked++;
        }
        if (n === 'Monochrome') {
          expect(s.grade.monochrome, at).toBe(1);
          checked++;
        }
        if (/^(Matte|Faded|Soft Matte|Soft Grain)$/.test(n)) {
          expect(s.grade.fade, at).toBeGreaterThan(base.grade.fade);
          checked++;
        }
        if (n === 'Rim Light') {
          expect(s.lighting.rim_strength, at).toBeGreaterThan(base.lighting.rim_strength);
          checked++;
        }
        if (n === 'Centred') {
          expect(s.framing.offset_x, at).toBe(0);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(60);
  });
});

describe('styles, demo styles and quick prompts', () => {
  it('three style cards, one per category, each with at least 2 use cases', () => {
    expect(STYLES.map((s) => s.id)).toEqual(['professional', 'executive', 'creative']);
    expect(STYLES.map((s) => s.name)).toEqual([
      'Professional / Corporate',
      'Executive / Leadership',
      'Creative / Modern',
    ]);
    for (const s of STYLES) {
      expect(s.description.length, s.id).toBeGreaterThan(20);
      expect(s.use_cases.length, s.id).toBeGreaterThanOrEqual(2);
    }
    expect(ZStylesResponseSchema.safeParse({ styles: STYLES }).success).toBe(true);
  });

  it("the demo page's three styles", () => {
    expect(DEMO_STYLES.map((s) => [s.id, s.name])).toEqual([
      ['professional', 'Professional Executive'],
      ['creative', 'Creative Professional'],
      ['casual', 'Smart Casual'],
    ]);
  });

  it('quick prompt categories per style as the spec names them, 4 prompts each with person', () => {
    const byStyle = Object.fromEntries(
      STYLES.map((s) => [s.id, quickPromptsFor(s.id).map((q) => q.name)]),
    );
    expect(byStyle).toEqual({
      professional: ['Corporate Office', 'Business Casual', 'Industry Specific'],
      executive: ['Executive Suite', 'Leadership Style', 'Industry Authority'],
      creative: ['Creative Professional', 'Artistic Expression', 'Modern Creative'],
    });
    expect(QUICK_PROMPTS).toHaveLength(9);
    const all = QUICK_PROMPTS.flatMap((q) => q.prompts);
    expect(new Set(all).size).toBe(36);
    for (const q of QUICK_PROMPTS) {
      expect(q.prompts, q.id).toHaveLength(4);
      for (const p of q.prompts) expect(p, q.id).toMatch(/\bperson\b/);
    }
  });
});

describe('lookups', () => {
  it('templateById', () => {
    expect(templateById('prof_7')?.name).toBe(TEMPLATES[6]!.name);
    expect(templateById('prof_61')).toBeUndefined();
    expect(templateById('nope')).toBeUndefined();
  });

  it('templatesFor filters by category and gender', () => {
    expect(templatesFor()).toHaveLength(60);
    expect(templatesFor({ category: 'all' })).toHaveLength(60);
    expect(templatesFor({ gender: 'woman' })).toHaveLength(30);
    const execMen = templatesFor({ category: 'executive', gender: 'man' });
    expect(execMen.map((t) => t.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `prof_${21 + i}`),
    );
    expect(templatesFor({ category: 'creative', gender: 'woman' })[0]!.id).toBe('prof_51');
  });

  it('variantOf and templatePrompt', () => {
    const t = templateById('prof_1')!;
    expect(variantOf(t, 2).index).toBe(2);
    expect(() => variantOf(t, 3)).toThrow(RangeError);
    expect(() => variantOf(t, -1)).toThrow(RangeError);
    expect(() => variantOf(t, 0.5)).toThrow(RangeError);
    expect(() => variantOf(templateById('prof_47')!, 1)).toThrow(/prof_47 has no variant 1/);
    expect(templatePrompt(t)).toBe(t.prompt);
    expect(templatePrompt(t, 1)).toBe(t.prompt + t.variants[1]!.prompt_suffix);
  });

  it('the data is frozen', () => {
    expect(Object.isFrozen(TEMPLATES)).toBe(true);
    expect(Object.isFrozen(TEMPLATES[0]!.variants[0]!.studio.lighting)).toBe(true);
  });
});

describe('validateLibrary', () => {
  it('accepts the file', () => {
    expect(validateLibrary(rawJson()).templates).toHaveLength(60);
  });

  it('throws naming the bad entry', () => {
    const bad = rawJson() as { templates: Record<string, unknown>[] };
    const t = bad.templates[3] as { variants: { studio: { lighting: { fill_ratio: number } } }[] };
    t.variants[1]!.studio.lighting.fill_ratio = 2;
    expect(() => validateLibrary(bad)).toThrow(
      /templates\[3\] \(prof_4\)\.variants\[1\]\.studio\.lighting\.fill_ratio/,
    );
  });

  it('throws on a spec rule broken', () => {
    const wrongGender = rawJson() as { templates: Record<string, unknown>[] };
    wrongGender.templates[12]!.gender = 'man';
    expect(() => validateLibrary(wrongGender)).toThrow(
      /templates\[12\] \(prof_13\): gender must be woman/,
    );

    const noSubject = rawJson() as { templates: Record<string, unknown>[] };
    noSubject.templates[0]!.prompt = 'a headshot on navy';
    expect(() => validateLibrary(noSubject)).toThrow(/prof_1.*'a man' or 'person'/);

    const missing = rawJson() as { templates: unknown[] };
    missing.templates.pop();
    expect(() => validateLibrary(missing)).toThrow(/expected 60 templates/);

    const dup = rawJson() as { templates: Record<string, unknown>[] };
    dup.templates[5]!.name = dup.templates[4]!.name;
    expect(() => validateLibrary(dup)).toThrow(/prof_6.*duplicate name/);
  });
});

describe('buildPrompt', () => {
  const templatePrompt = 'professional headshot of a man in a navy suit';

  it('uses the custom prompt when it is not blank', () => {
    expect(
      buildPrompt({ customPrompt: 'a woman on a beach', templatePrompt, triggerWord: 'sks' }),
    ).toBe('sks on a beach');
  });

  it('falls back to the template prompt when the custom one is blank or absent', () => {
    for (const customPrompt of ['', '   \n\t', null, undefined]) {
      expect(buildPrompt({ customPrompt, templatePrompt, triggerWord: 'sks' })).toBe(
        'professional headshot of sks in a navy suit',
      );
    }
  });

  it("replaces 'a man', 'a woman' and 'person', case-insensitively", () => {
    const p = (prompt: string) => buildPrompt({ templatePrompt: prompt, triggerWord: 'ohwx' });
    expect(p('portrait of a woman, smiling')).toBe('portrait of ohwx, smiling');
    expect(p('A Man in a suit')).toBe('ohwx in a suit');
    expect(p('A WOMAN at work')).toBe('ohwx at work');
    expect(p('headshot of person, then Person and PERSON')).toBe(
      'headshot of ohwx, then ohwx and ohwx',
    );
    expect(p("person's desk")).toBe("ohwx's desk");
  });

  it("leaves words that merely contain them alone: 'personal', 'a manager', 'salesperson'", () => {
    const p = (prompt: string) => buildPrompt({ templatePrompt: prompt, triggerWord: 'ohwx' });
    expect(p('personal brand photo of person')).toBe('personal brand photo of ohwx');
    expect(p('a manager beside a mannequin')).toBe('a manager beside a mannequin');
    expect(p('a salesperson and personnel')).toBe('a salesperson and personnel');
    expect(p('a human and a womanly pose')).toBe('a human and a womanly pose');
  });

  it("defaults the trigger word to 'person' and takes it literally", () => {
    expect(buildPrompt({ templatePrompt, triggerWord: null })).toBe(
      'professional headshot of person in a navy suit',
    );
    expect(buildPrompt({ templatePrompt, triggerWord: '  ' })).toBe(
      'professional headshot of person in a navy suit',
    );
    expect(buildPrompt({ templatePrompt, triggerWord: '$&x' })).toBe(
      'professional headshot of $&x in a navy suit',
    );
    // One pass: a trigger word that itself contains 'person' is not replaced again.
    expect(buildPrompt({ templatePrompt: 'a man and person', triggerWord: 'person_x' })).toBe(
      'person_x and person_x',
    );
  });
});
