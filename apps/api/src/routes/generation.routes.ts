import {
  IDEMPOTENCY_KEY_HEADER,
  MESSAGES,
  ZDeleteGeneratedImageResponseSchema,
  ZFavoriteRequestSchema,
  ZFluxGenerateRequestSchema,
  ZGenerateImageFormSchema,
  ZGenerateTrainedRequestSchema,
  ZGeneratedImageSchema,
  ZGeneratedImagesQuerySchema,
  ZGeneratedImagesResponseSchema,
  ZGenerationResultSchema,
  ZIdempotencyKeySchema,
  ZInferenceGenerateRequestSchema,
  ZStylesResponseSchema,
  ZGenerateImageRequestSchema,
} from '@studioshot/contracts';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { reply, type DeclaringRouter, type RouteSpec } from '../http/declare.js';
import { IMAGE_LINK_SECONDS, type ImageSender } from '../http/send-image.js';
import { multipartBody } from '../middleware/multipart.js';
import { parse } from '../validation.js';
import type { GenerationRequest, GenerationService } from '../services/generation.service.js';

function squareSide(width: number, height: number): number {
  if (width !== height) throw new AppError('validation_error', MESSAGES.squareImagesOnly);
  return width;
}

/** What every Generate call shares, from its parsed body; each route adds what differs. */
function generationRequest(
  headerKey: string | undefined,
  body: {
    model_id?: string | undefined;
    prompt?: string | undefined;
    variant?: number | undefined;
    num_images: number;
    seed?: number | undefined;
    idempotency_key?: string | undefined;
  },
  differs: Pick<GenerationRequest, 'templateIds' | 'size'> & Partial<GenerationRequest>,
): GenerationRequest {
  return {
    modelId: body.model_id,
    prompt: body.prompt,
    variant: body.variant,
    numImages: body.num_images,
    seed: body.seed,
    // The Idempotency-Key header, else the body's `idempotency_key` (contracts: generation.ts).
    idempotencyKey: headerKey ?? body.idempotency_key,
    ...differs,
  };
}

/** A malformed id names no image: answered like a missing one. */
const imageParams = z.object({ id: z.uuid() });
const notFoundImage = { params: MESSAGES.imageNotFound };

/** What the Generate calls declare alike. */
const GENERATE = {
  method: 'post',
  tag: 'generation',
  auth: 'required',
  description:
    "Reserves the credits and waits for the images (200), or answers 202 with the generation id and status when the wait runs out, always within the spec client's 10 s timeout (follow it on /ws or GET /api/v1/queue/status/{id}); 502 when it failed (the credits come back). Idempotency as Stripe does it: with an Idempotency-Key header (or the idempotency_key field) a repeat of the same request answers the first generation and reserves nothing more, and the same key with a different request answers 422 `idempotency_key_reused`; keys are per user and kept with their generation (at least 24 hours unless its model or the account is deleted). Without a key each call is a new generation. Differs from the contract, which sends no key: the key is optional, so its requests work as written. One prompt rule for every Generate call, never a refusal: a prompt beside a style (or no template) is offered to every user and shapes the images on every engine (the studio engine renders its words for backdrop, light, framing and finish over the template's look; flux renders the prompt); beside a chosen template, a prompt other than the template's own is the custom prompt of the Premium annual plan (and debug accounts). Not in the contract: `prompt_applied` (the words that shaped the images, or false) and `prompt_note` (what happened, or why not) on the answer and on each item.",
  headers: z.object({
    [IDEMPOTENCY_KEY_HEADER]: ZIdempotencyKeySchema.optional().describe(
      'A fresh key per generation (or the idempotency_key field)',
    ),
  }),
  responses: {
    200: { schema: ZGenerationResultSchema, description: 'Completed, with the images' },
    202: {
      schema: ZGenerationResultSchema,
      description: 'Still queued or running when the wait ran out (`images` empty)',
    },
  },
  errors: [402, 403, 404, 409, 502, 503],
} as const satisfies Omit<RouteSpec, 'path' | 'summary'>;

/**
 * docs/spec/calls.md#75-generation, with the unprefixed /models/*, /inference/*, /generation/* and
 * /images/* paths.
 */
export function generationRoutes(
  api: DeclaringRouter,
  deps: {
    generation: GenerationService;
    /** Sends an image whose token was checked: its bytes, or a link to them (S3). */
    sendImage: ImageSender;
  },
): void {
  const { generation } = deps;
  // Form fields only (no file): the spec's /models/generate-image posts a multipart form.
  const formFields = multipartBody(
    multer({ limits: { files: 0, fields: 10, fieldSize: 4096 } }).none(),
  );
  // The form schema reads numbers from text (multipart); a JSON body keeps JSON's types, so
  // `"4"` or `null` for a number is refused there as in every other JSON body.
  const strictJson: RequestHandler = (req, _res, next) => {
    if (req.is('application/json')) parse(ZGenerateImageRequestSchema, req.body ?? {});
    next();
  };
  const generate = async (userId: string, request: GenerationRequest) => {
    const { status, body } = await generation.generate(userId, request);
    return reply(status, body);
  };

  api.route(
    {
      method: 'get',
      path: '/api/v1/generation/styles',
      summary: 'The style cards',
      tag: 'generation',
      auth: 'none',
      responses: { 200: ZStylesResponseSchema },
    },
    () => generation.styles(),
  );

  api.route(
    {
      ...GENERATE,
      path: '/api/v1/generation/generate-trained',
      summary: 'Generate with a trained model',
      body: ZGenerateTrainedRequestSchema,
    },
    ({ userId, body, headers }) =>
      generate(
        userId,
        generationRequest(headers[IDEMPOTENCY_KEY_HEADER], body, {
          templateIds: body.template_id ? [body.template_id] : [],
          style: body.style,
          size: 1024,
        }),
      ),
  );

  for (const [path, summary, paidByOrder] of [
    ['/api/v1/inference/generate', 'Generate (legacy and premium pages)', false],
    [
      '/inference/generate',
      "Generate (post-payment page): the $29 order pays for it, the one `payment_intent` names or else the user's paid order that no generation uses yet; with neither, credits pay as on the other calls. Differs from the contract: the optional `payment_intent` field",
      true,
    ],
  ] as const) {
    api.route(
      { ...GENERATE, path, summary, body: ZInferenceGenerateRequestSchema },
      ({ userId, body, headers }) =>
        generate(
          userId,
          generationRequest(headers[IDEMPOTENCY_KEY_HEADER], body, {
            templateIds: body.template_id ? [body.template_id] : [],
            style: body.style,
            size: squareSide(body.width, body.height),
            paymentIntentId: body.payment_intent,
            paidByOrder,
          }),
        ),
    );
  }

  api.route(
    {
      ...GENERATE,
      path: '/models/generate-image',
      summary: 'Generate from a form (template_used)',
      before: [formFields, strictJson],
      body: {
        schema: ZGenerateImageFormSchema,
        type: ['multipart/form-data', 'application/json'],
        whenAbsent: {},
      },
    },
    ({ userId, body, headers }) =>
      generate(
        userId,
        generationRequest(headers[IDEMPOTENCY_KEY_HEADER], body, {
          templateIds: body.template_used ? [body.template_used] : [],
          size: 1024,
        }),
      ),
  );

  api.route(
    {
      ...GENERATE,
      path: '/generation/flux-generate',
      summary: 'Generate with engine settings',
      body: ZFluxGenerateRequestSchema,
    },
    ({ userId, body, headers }) =>
      generate(
        userId,
        generationRequest(headers[IDEMPOTENCY_KEY_HEADER], body, {
          templateIds: body.template_id ? [body.template_id] : [],
          style: body.style,
          size: squareSide(body.width, body.height),
          params: { steps: body.steps, guidance_scale: body.guidance_scale },
        }),
      ),
  );

  api.route(
    {
      method: 'get',
      path: '/models/generated-images',
      summary: "The user's generated images, newest first",
      tag: 'generation',
      auth: 'required',
      query: ZGeneratedImagesQuerySchema,
      responses: { 200: ZGeneratedImagesResponseSchema },
    },
    ({ userId, query }) => generation.listImages(userId, query),
  );

  api.route(
    {
      method: 'post',
      path: '/models/generated-images/:id/favorite',
      summary: 'Set ({favorite}) or toggle (empty body) the favourite flag',
      tag: 'generation',
      auth: 'required',
      params: imageParams,
      notFound: notFoundImage,
      body: { schema: ZFavoriteRequestSchema, whenAbsent: {} },
      responses: { 200: ZGeneratedImageSchema },
    },
    ({ userId, params, body }) => generation.favorite(userId, params.id, body.favorite),
  );

  api.route(
    {
      method: 'delete',
      path: '/models/generated-images/:id',
      summary: 'Delete an image (its row and both files)',
      tag: 'generation',
      auth: 'required',
      params: imageParams,
      notFound: notFoundImage,
      responses: { 200: ZDeleteGeneratedImageResponseSchema },
    },
    ({ userId, params }) => generation.deleteImage(userId, params.id),
  );

  // No bearer token: <img src> carries a short-lived token signed for this one image.
  for (const [path, which] of [
    ['/images/generated/:id', 'image'],
    ['/images/generated/:id/thumbnail', 'thumbnail'],
  ] as const) {
    api.route(
      {
        method: 'get',
        path,
        summary: `A generated ${which === 'image' ? 'image' : "image's thumbnail"} (JPEG), with the short-lived token signed for it`,
        tag: 'generation',
        auth: 'none',
        params: imageParams,
        notFound: notFoundImage,
        query: z.object({
          // Anything but one string is no token (and is refused as one).
          token: z.string().optional().catch(undefined).describe("The token in the image's `url`"),
        }),
        responses: {
          200: {
            description: 'Local storage: the JPEG (`Cache-Control: private, max-age=3600`)',
            contentType: 'image/jpeg',
          },
          302: {
            description: `S3 storage: a presigned link to the JPEG in the bucket, working for ${IMAGE_LINK_SECONDS} s at most and never past the token's expiry, which downloads as the image's \`filename\``,
            headers: {
              Location: { description: 'The presigned bucket address', schema: { type: 'string' } },
              'Cache-Control': {
                description: '`private, no-store`: the link is not kept',
                schema: { type: 'string' },
              },
            },
          },
        },
        errors: [403],
      },
      async ({ res, params, query }) => {
        await deps.sendImage(await generation.servedImage(params.id, query.token, which), res);
      },
    );
  }
}
