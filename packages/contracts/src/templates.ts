import { z } from 'zod';
import { ZStudioParamsSchema } from './engine.js';

/**
 * The built-in style templates, styles and quick prompts (spec: Template and Style entities, the
 * /generate, /generate-trained, legacy style and /demo pages). The data lives in
 * packages/templates/data/templates.json, validated against these schemas; field names are the
 * spec's (imageUrl, useCase, use_cases).
 */
export const TEMPLATE_CATEGORIES = ['professional', 'executive', 'creative'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export const ZTemplateCategorySchema = z.enum(TEMPLATE_CATEGORIES);

export const TEMPLATE_GENDERS = ['man', 'woman'] as const;
export type TemplateGender = (typeof TEMPLATE_GENDERS)[number];
export const ZTemplateGenderSchema = z.enum(TEMPLATE_GENDERS);

export const TEMPLATE_ID_PATTERN = /^prof_[1-9][0-9]*$/;
/** A template preview (400x450), `/templates/prof_N.jpg`. */
export const TEMPLATE_IMAGE_PATTERN = /^\/templates\/prof_[1-9][0-9]*\.jpg$/;
/** A variant preview (400x450), `/templates/prof_N-v{index}.jpg`. */
export const VARIANT_IMAGE_PATTERN = /^\/templates\/prof_[1-9][0-9]*-v[0-9]+\.jpg$/;

const text = z.string().trim().min(1);

export const ZTemplateVariantSchema = z.strictObject({
  /** 0-based position in the template's variants; the engine protocol's `template.variant`. */
  index: z.number().int().min(0),
  /** A short label for the thumbnail ('Classic', 'Warm', 'Dramatic'...). */
  name: text.max(32),
  /** Appended to the template prompt when this variant is chosen (starts with ', '). */
  prompt_suffix: z.string().max(300).optional(),
  imageUrl: z.string().regex(VARIANT_IMAGE_PATTERN),
  /** How the studio engine renders this variant. */
  studio: ZStudioParamsSchema,
});
export type TemplateVariant = z.infer<typeof ZTemplateVariantSchema>;

export const ZTemplateSchema = z.strictObject({
  id: z.string().regex(TEMPLATE_ID_PATTERN),
  name: text.max(60),
  category: ZTemplateCategorySchema,
  gender: ZTemplateGenderSchema,
  /** Contains 'a man', 'a woman' or 'person', which prompt building replaces by the trigger word. */
  prompt: text.max(1000),
  /** The template's preview: its first variant's image. */
  imageUrl: z.string().regex(TEMPLATE_IMAGE_PATTERN),
  variants: z.array(ZTemplateVariantSchema).min(1),
  /**
   * The card's text for the studio engine, which re-photographs the person's own photo (their own
   * clothes): it promises only the backdrop, light, framing and finish, so it holds for any engine.
   */
  description: text.max(240),
  /** The card's text for the flux engine, whose images follow the prompt: attire included. */
  flux_description: text.max(240),
  tags: z.array(text.max(32)).min(1).max(8),
  useCase: text.max(60),
});
export type Template = z.infer<typeof ZTemplateSchema>;

/** The style cards' ids (the template data's `styles`, which its schema holds to this list). */
export const STYLE_IDS = ['professional', 'executive', 'creative'] as const;
export const ZStyleIdSchema = z.enum(STYLE_IDS);

/**
 * A style card (legacy style page, /generate-trained): GET /api/v1/generation/styles. Two texts, as
 * a template has: `description` for the studio engine (backdrop, light, framing and finish around
 * the person's own photo) and `flux_description` for the flux engine, which renders the attire.
 */
export const ZStyleSchema = z.strictObject({
  id: ZStyleIdSchema,
  name: text.max(60),
  description: text.max(240),
  flux_description: text.max(240),
  use_cases: z.array(text.max(60)).min(1),
});
export type Style = z.infer<typeof ZStyleSchema>;

/** A quick prompt category of /generate-trained: 4 sample prompts under one style. */
export const ZQuickPromptCategorySchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/),
  name: text.max(40),
  style_id: ZStyleIdSchema,
  prompts: z.tuple([text.max(500), text.max(500), text.max(500), text.max(500)]),
});
export type QuickPromptCategory = z.infer<typeof ZQuickPromptCategorySchema>;

/** GET /api/v1/generation/styles (no authentication). */
export const ZStylesResponseSchema = z.object({ styles: z.array(ZStyleSchema) });
export type StylesResponse = z.infer<typeof ZStylesResponseSchema>;

/** A templates list. */
export const ZTemplatesResponseSchema = z.object({ templates: z.array(ZTemplateSchema) });
export type TemplatesResponse = z.infer<typeof ZTemplatesResponseSchema>;

/**
 * packages/templates/data/templates.json: one file the TypeScript packages and the Python engine's
 * tests both read. `demo_styles` are the free /demo page's three styles.
 */
/**
 * A /demo style: its samples are the previews of these templates (the studio engine's renders of
 * the public-domain portrait the previews are made from), so the demo shows what we really make.
 */
export const ZDemoStyleSchema = ZStyleSchema.extend({
  id: text.max(40),
  sample_templates: z.array(z.string().regex(/^prof_[1-9][0-9]*$/)).length(3),
}).strict();
export type DemoStyle = z.infer<typeof ZDemoStyleSchema>;

export const ZTemplateLibrarySchema = z.strictObject({
  templates: z.array(ZTemplateSchema),
  styles: z.array(ZStyleSchema),
  quick_prompts: z.array(ZQuickPromptCategorySchema),
  demo_styles: z.array(ZDemoStyleSchema),
});
export type TemplateLibrary = z.infer<typeof ZTemplateLibrarySchema>;
