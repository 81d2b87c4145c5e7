import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { STYLE_IDS } from './templates.js';
import { requiredText, text, trimmedText } from './text.js';
import {
  TASK_PRIORITIES,
  TASK_STATUSES,
  TASK_TYPES,
  ZStartTrainingRequestSchema,
} from './training.js';

/**
 * Generation (docs/spec/calls.md#75-generation): every Generate call queues one generation task (a
 * `generation`, or a
 * `batch_generation` of several templates), reserves its credits in the ledger in the same
 * transaction, and answers once the images are there or the wait runs out.
 *
 * Idempotency, as Stripe does it: a Generate may carry a key, in the `Idempotency-Key` header or
 * the body field `idempotency_key` (for form posts): 8-128 characters of letters, digits and
 * `-_.:`. A repeat with a key this user already used, with the same request, answers that
 * generation again and reserves nothing more; the same key with a different request is refused
 * (422 `idempotency_key_reused`). Keys are per user and kept with their generation, which stays
 * until the user deletes its model or the account (so at least 24 hours otherwise). Without a key each call is a new generation; the web app sends a fresh key per
 * click (a UUID) so that a retry is never charged twice.
 *
 * Waiting: the calls whose answer the spec reads `images` from (generate-trained,
 * inference/generate, and the others alike) wait up to the server's GENERATION_WAIT_MS for the
 * generation to finish. Completed: 200 with the images. Still queued or running when the wait
 * runs out: 202 with the same body, `images` empty and `status` telling where it is; follow it
 * over /ws (`task` messages) or GET /api/v1/queue/status/{id}, then list the images. Failed or
 * cancelled: 502 `generation_failed` with the reason (its credits are back).
 */
export const GENERATION_IMAGES_DEFAULT = 4;
export const GENERATION_IMAGES_MAX = 4;
/** Headshots are square; the spec's output is 1024 x 1024. */
export const GENERATION_SIZE_DEFAULT = 1024;
export const GENERATION_SIZE_MIN = 256;
export const GENERATION_SIZE_MAX = 2048;
/** Sides are multiples of this (the flux engine needs multiples of 16). */
export const GENERATION_SIZE_STEP = 64;
/** The spec's diffusion defaults (the studio engine records but does not need them). */
export const GENERATION_STEPS_DEFAULT = 20;
export const GENERATION_GUIDANCE_DEFAULT = 2.5;
/** Templates in one batch_generation (one credit each). */
export const BATCH_TEMPLATES_MAX = 10;
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const ZIdempotencyKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{8,128}$/, 'Idempotency key: 8-128 letters, digits or -_.:');

const templateId = z.string().regex(/^prof_[1-9][0-9]*$/, 'Unknown template');
const modelId = z.string().uuid('Selected model not found');
/** The custom prompt: used only for premium annual plans and debug users (spec: prompt building). */
const prompt = trimmedText(1000).optional();

/**
 * Numbers of JSON bodies are JSON numbers; a multipart form's fields (GenerateImageForm) are
 * text, so its numbers are read from their digits.
 */
function integer(min: number, max: number, form = false) {
  return form ? z.coerce.number().int().min(min).max(max) : z.number().int().min(min).max(max);
}
const numImages = (form = false) =>
  integer(1, GENERATION_IMAGES_MAX, form).default(GENERATION_IMAGES_DEFAULT);
const side = z
  .number()
  .int()
  .min(GENERATION_SIZE_MIN)
  .max(GENERATION_SIZE_MAX)
  .multipleOf(GENERATION_SIZE_STEP)
  .default(GENERATION_SIZE_DEFAULT);
const seed = (form = false) => integer(0, 2 ** 31 - 1, form).optional();
const variant = (form = false) => integer(0, 9, form).optional();

/** Every side the API renders: GENERATION_SIZE_MIN to _MAX in steps of GENERATION_SIZE_STEP. */
export const GENERATION_SIZES: readonly number[] = Array.from(
  { length: (GENERATION_SIZE_MAX - GENERATION_SIZE_MIN) / GENERATION_SIZE_STEP + 1 },
  (_, i) => GENERATION_SIZE_MIN + i * GENERATION_SIZE_STEP,
);

/**
 * Headshots are square: width and height, when both are sent, are equal (one left out is the
 * default, 1024). zod checks it in the route (MESSAGES.squareImagesOnly); JSON Schema has no
 * "equals another property", so the document spells the square sizes out.
 */
const SQUARE_SIZES_JSON_SCHEMA = {
  anyOf: [
    { not: { anyOf: [{ required: ['width'] }, { required: ['height'] }] } },
    ...GENERATION_SIZES.map((size) => ({
      properties: { width: { const: size }, height: { const: size } },
      required: ['width', 'height'],
    })),
    ...(['width', 'height'] as const).map((sent) => ({
      properties: { [sent]: { const: GENERATION_SIZE_DEFAULT } },
      required: [sent],
      not: { required: [sent === 'width' ? 'height' : 'width'] },
    })),
  ],
};
/** A style card id (GET /api/v1/generation/styles); picks the style's template for the user. */
const style = z.enum(STYLE_IDS, { error: MESSAGES.styleNotFound }).optional();

/**
 * POST /api/v1/generation/generate-trained. `trigger_word` is accepted as the spec's client sends
 * it, but the model's own trigger word is what prompt building uses. Without `template_id` the
 * style's first template for the user's gender is used (professional by default).
 */
export const ZGenerateTrainedRequestSchema = z.strictObject({
  model_id: modelId,
  prompt,
  num_images: numImages(),
  trigger_word: text(40).optional(),
  style,
  template_id: templateId.optional(),
  variant: variant(),
  seed: seed(),
  idempotency_key: ZIdempotencyKeySchema.optional(),
});
export type GenerateTrainedRequest = z.infer<typeof ZGenerateTrainedRequestSchema>;

/**
 * POST /api/v1/inference/generate (legacy page: prompt, style, num_images; premium page: with
 * model_id) and POST /inference/generate (post-payment page: prompt, num_images, width, height,
 * and the `payment_intent` of its $29 order). Without model_id the user's latest completed model
 * is used; a user without one gets their best checked photo restyled; with neither, they are
 * told to upload photos first.
 *
 * With `payment_intent`: the order pays for the generation (no credits reserved) and is bound to
 * it, one generation per payment: a repeat (a reload of the results page) answers that same
 * generation whatever else it sends. The payment must be the caller's succeeded generation order
 * (404 otherwise, 402 while unpaid). Should the generation fail for good, the order is refunded.
 */
export const ZInferenceGenerateRequestSchema = z
  .strictObject({
    prompt,
    style,
    num_images: numImages(),
    model_id: modelId.optional(),
    template_id: templateId.optional(),
    variant: variant(),
    width: side,
    height: side,
    seed: seed(),
    idempotency_key: ZIdempotencyKeySchema.optional(),
    payment_intent: requiredText(255).optional(),
  })
  .meta(SQUARE_SIZES_JSON_SCHEMA);
export type InferenceGenerateRequest = z.infer<typeof ZInferenceGenerateRequestSchema>;

/**
 * POST /generation/flux-generate. Defaults: 1024 x 1024, steps 20, guidance_scale 2.5 (the
 * spec's), a random seed. width must equal height.
 */
export const ZFluxGenerateRequestSchema = z
  .strictObject({
    prompt,
    model_id: modelId.optional(),
    width: side,
    height: side,
    steps: z.number().int().min(1).max(150).default(GENERATION_STEPS_DEFAULT),
    guidance_scale: z.number().min(0).max(30).default(GENERATION_GUIDANCE_DEFAULT),
    seed: seed(),
    num_images: numImages(),
    style,
    template_id: templateId.optional(),
    variant: variant(),
    idempotency_key: ZIdempotencyKeySchema.optional(),
  })
  .meta(SQUARE_SIZES_JSON_SCHEMA);
export type FluxGenerateRequest = z.infer<typeof ZFluxGenerateRequestSchema>;

/**
 * POST /models/generate-image, a multipart form (no file): prompt, template_used (a template
 * id), optional model_id and variant. Without model_id the latest completed model is used.
 */
export const ZGenerateImageFormSchema = z.strictObject({
  prompt,
  template_used: templateId.optional(),
  model_id: modelId.optional(),
  variant: variant(true),
  num_images: numImages(true),
  seed: seed(true),
  idempotency_key: ZIdempotencyKeySchema.optional(),
});
export type GenerateImageForm = z.infer<typeof ZGenerateImageFormSchema>;
/**
 * The same fields sent as JSON to /models/generate-image: JSON numbers, not text, so `"4"` or
 * `null` for a number is refused as in every other JSON body.
 */
export const ZGenerateImageRequestSchema = z.strictObject({
  prompt,
  template_used: templateId.optional(),
  model_id: modelId.optional(),
  variant: variant(),
  num_images: numImages(),
  seed: seed(),
  idempotency_key: ZIdempotencyKeySchema.optional(),
});

/**
 * The `params` of POST /api/v1/queue/submit for task_type generation or batch_generation, and
 * the body of POST /api/v1/queue/generation/start-queued. A batch_generation renders each of
 * `template_ids` (one credit each); a generation at most one template.
 */
export const ZQueueGenerationParamsSchema = z.strictObject({
  model_id: modelId.optional(),
  template_id: templateId.optional(),
  template_ids: z.array(templateId).min(1).max(BATCH_TEMPLATES_MAX).optional(),
  variant: variant(),
  style,
  prompt,
  num_images: numImages(),
  seed: seed(),
  idempotency_key: ZIdempotencyKeySchema.optional(),
});
export type QueueGenerationParams = z.infer<typeof ZQueueGenerationParamsSchema>;

/**
 * POST /api/v1/queue/submit: a training (the fields of POST /api/v1/training/start in `params`)
 * or a generation or batch_generation (`params` as above).
 */
export const ZQueueSubmitRequestSchema = z.discriminatedUnion('task_type', [
  z.strictObject({
    task_type: z.literal('training'),
    /** A request at most, as in ZStartTrainingRequestSchema. */
    priority: z.enum(TASK_PRIORITIES).optional(),
    /** The same fields as POST /api/v1/training/start; the priority is the one above. */
    params: ZStartTrainingRequestSchema.omit({ priority: true }),
  }),
  z.strictObject({
    task_type: z.enum(['generation', 'batch_generation']),
    priority: z.enum(TASK_PRIORITIES).optional(),
    params: ZQueueGenerationParamsSchema.default({ num_images: GENERATION_IMAGES_DEFAULT }),
  }),
]);
export type QueueSubmitRequest = z.infer<typeof ZQueueSubmitRequestSchema>;

/** POST /api/v1/queue/generation/start-queued: the params above plus type and priority. */
export const ZStartQueuedGenerationRequestSchema = ZQueueGenerationParamsSchema.extend({
  task_type: z.enum(['generation', 'batch_generation']).default('generation'),
  /** A request at most: the server queues at the plan's priority, or this one when it is lower. */
  priority: z.enum(TASK_PRIORITIES).optional(),
});

/** One generated headshot. `url` and `thumbnail_url` carry a short-lived token for this image. */
export const ZGeneratedImageSchema = z.object({
  id: z.string().uuid(),
  generation_id: z.string().uuid(),
  model_id: z.string().uuid().nullable(),
  /** `/images/generated/{id}?token=...` */
  url: z.string(),
  /** `/images/generated/{id}/thumbnail?token=...` */
  thumbnail_url: z.string(),
  filename: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  size_bytes: z.number().int(),
  /** Rank in its generation, 0 = the best likeness. */
  position: z.number().int(),
  template_id: z.string().nullable(),
  variant: z.number().int().nullable(),
  /** 0..1 likeness to the person's photos; null when no face was found. */
  identity_score: z.number().nullable(),
  favorite: z.boolean(),
  created_at: z.string(),
});
export type GeneratedImage = z.infer<typeof ZGeneratedImageSchema>;

/**
 * What became of the user's prompt: the words that shaped the images (on the studio engine the
 * words it renders; on flux the whole prompt), or false when it shaped nothing.
 */
export const ZPromptAppliedSchema = z.union([z.literal(false), z.array(z.string()).min(1)]);
export type PromptApplied = z.infer<typeof ZPromptAppliedSchema>;

/** What one generation renders: a template variant and the prompt built for it. */
export const ZGenerationItemSchema = z.object({
  template_id: z.string().nullable(),
  variant: z.number().int(),
  prompt: z.string(),
  /** Absent on generations made before prompts were reported. */
  prompt_applied: ZPromptAppliedSchema.optional(),
  /** One sentence: what the prompt did, or why it did nothing. */
  prompt_note: z.string().optional(),
});

/** The answer of every Generate call (spec: Generation result). */
export const ZGenerationResultSchema = z.object({
  id: z.string().uuid(),
  generation_id: z.string().uuid(),
  task_id: z.string().uuid(),
  task_type: z.enum(TASK_TYPES),
  status: z.enum(TASK_STATUSES),
  progress: z.number().int(),
  message: z.string().nullable(),
  error_message: z.string().nullable(),
  model_id: z.string().uuid().nullable(),
  /** The first item's prompt, as built. */
  prompt: z.string(),
  /**
   * Not in the contract. The words of the user's prompt that shaped the images, or false when it
   * shaped nothing (`prompt_note` says why: none sent, the template's own, a plan without custom
   * prompts, no word the engine renders).
   */
  prompt_applied: ZPromptAppliedSchema,
  /** Not in the contract. One sentence on the prompt, for the page to show under the results. */
  prompt_note: z.string(),
  items: z.array(ZGenerationItemSchema),
  images: z.array(ZGeneratedImageSchema),
  /** Completed with images. */
  success: z.boolean(),
  /** Seconds from the request to the images; null until completed. */
  generation_time: z.number().nullable(),
  /**
   * Credits this generation spent: kept when its set is delivered whole, given back when it fails
   * or comes back short.
   */
  credits_used: z.number().int(),
  /** Credits it got back: it failed, was cancelled, or came back short. */
  credits_refunded: z.number().int(),
  /**
   * Images it delivered fewer than asked: the quality check found streaks or a visible cut in
   * every render of them, so they were dropped, and the set is not charged.
   */
  images_dropped: z.number().int(),
  /** What it cost in dollars: its order's price when a payment paid for it, else its credits at list price. */
  cost: z.number(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type GenerationResult = z.infer<typeof ZGenerationResultSchema>;

/** GET /models/generated-images?limit&offset: newest first. */
export const ZGeneratedImagesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(24),
  offset: z.coerce.number().int().min(0).default(0),
});
export const ZGeneratedImagesResponseSchema = z.object({
  images: z.array(ZGeneratedImageSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type GeneratedImagesResponse = z.infer<typeof ZGeneratedImagesResponseSchema>;

/**
 * POST /models/generated-images/{id}/favorite: `{favorite: true|false}` sets it; an empty body
 * toggles it. Answers the image.
 */
export const ZFavoriteRequestSchema = z.strictObject({ favorite: z.boolean().optional() });

/** DELETE /models/generated-images/{id}: the row and both files are gone. */
export const ZDeleteGeneratedImageResponseSchema = z.object({
  message: z.string(),
  id: z.string().uuid(),
});
