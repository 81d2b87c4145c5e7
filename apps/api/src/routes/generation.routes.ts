import {
  IDEMPOTENCY_KEY_HEADER,
  MESSAGES,
  ZFavoriteRequestSchema,
  ZFluxGenerateRequestSchema,
  ZGenerateImageFormSchema,
  ZGenerateTrainedRequestSchema,
  ZGeneratedImagesQuerySchema,
  ZIdempotencyKeySchema,
  ZInferenceGenerateRequestSchema,
} from '@studioshot/contracts';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { authOf } from '../middleware/auth.js';
import { parse } from '../middleware/validate.js';
import type { GenerationRequest, GenerationService } from '../services/generation.service.js';

/** A malformed id names no image: answered like a missing one. */
function imageId(req: Request): string {
  const id = z.uuid().safeParse(req.params.id);
  if (!id.success) throw new AppError('not_found', MESSAGES.imageNotFound);
  return id.data;
}

/** The Idempotency-Key header, else the body's `idempotency_key` (contracts: generation.ts). */
export function idempotencyKey(req: Request, fromBody: string | undefined): string | undefined {
  const header = req.get(IDEMPOTENCY_KEY_HEADER);
  if (header === undefined) return fromBody;
  return parse(ZIdempotencyKeySchema, header);
}

function squareSide(width: number, height: number): number {
  if (width !== height) throw new AppError('validation_error', MESSAGES.squareImagesOnly);
  return width;
}

/** What every Generate call shares, from its parsed body; each route adds what differs. */
function generationRequest(
  req: Request,
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
    priority: 'normal',
    idempotencyKey: idempotencyKey(req, body.idempotency_key),
    ...differs,
  };
}

/** Spec 7.5, with the unprefixed /models/*, /inference/*, /generation/* and /images/* paths. */
export function generationRoutes(deps: {
  generation: GenerationService;
  requireAuth: RequestHandler;
  sendStored: (key: string, res: Response) => Promise<void>;
}): Router {
  const { generation, requireAuth } = deps;
  const router = Router();
  // Form fields only (no file): the spec's /models/generate-image posts a multipart form.
  const formFields = multer({ limits: { files: 0, fields: 10, fieldSize: 4096 } }).none();

  const answer = async (req: Request, res: Response, request: GenerationRequest) => {
    const { status, body } = await generation.generate(authOf(req).userId, request);
    res.status(status).json(body);
  };

  router.get('/api/v1/generation/styles', (_req, res) => {
    res.json(generation.styles());
  });

  router.post('/api/v1/generation/generate-trained', requireAuth, async (req, res) => {
    const body = parse(ZGenerateTrainedRequestSchema, req.body);
    await answer(
      req,
      res,
      generationRequest(req, body, {
        templateIds: body.template_id ? [body.template_id] : [],
        style: body.style,
        size: 1024,
      }),
    );
  });

  const inference = async (req: Request, res: Response) => {
    const body = parse(ZInferenceGenerateRequestSchema, req.body);
    await answer(
      req,
      res,
      generationRequest(req, body, {
        templateIds: body.template_id ? [body.template_id] : [],
        style: body.style,
        size: squareSide(body.width, body.height),
        paymentIntentId: body.payment_intent,
      }),
    );
  };
  router.post('/api/v1/inference/generate', requireAuth, inference);
  router.post('/inference/generate', requireAuth, inference);

  router.post('/models/generate-image', requireAuth, formFields, async (req, res) => {
    const body = parse(ZGenerateImageFormSchema, req.body ?? {});
    await answer(
      req,
      res,
      generationRequest(req, body, {
        templateIds: body.template_used ? [body.template_used] : [],
        size: 1024,
      }),
    );
  });

  router.post('/generation/flux-generate', requireAuth, async (req, res) => {
    const body = parse(ZFluxGenerateRequestSchema, req.body);
    await answer(
      req,
      res,
      generationRequest(req, body, {
        templateIds: body.template_id ? [body.template_id] : [],
        style: body.style,
        size: squareSide(body.width, body.height),
        params: { steps: body.steps, guidance_scale: body.guidance_scale },
      }),
    );
  });

  router.get('/models/generated-images', requireAuth, async (req, res) => {
    const page = parse(ZGeneratedImagesQuerySchema, req.query);
    res.json(await generation.listImages(authOf(req).userId, page));
  });

  router.post('/models/generated-images/:id/favorite', requireAuth, async (req, res) => {
    const id = imageId(req);
    const body = parse(ZFavoriteRequestSchema, req.body ?? {});
    res.json(await generation.favorite(authOf(req).userId, id, body.favorite));
  });

  router.delete('/models/generated-images/:id', requireAuth, async (req, res) => {
    res.json(await generation.deleteImage(authOf(req).userId, imageId(req)));
  });

  // No bearer token: <img src> carries a short-lived token signed for this one image.
  const serve = (which: 'image' | 'thumbnail') => async (req: Request, res: Response) => {
    const token = typeof req.query.token === 'string' ? req.query.token : undefined;
    const key = await generation.imageKey(imageId(req), token, which);
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', 'private, max-age=3600');
    await deps.sendStored(key, res);
  };
  router.get('/images/generated/:id', serve('image'));
  router.get('/images/generated/:id/thumbnail', serve('thumbnail'));

  return router;
}
