import {
  GENERATION_IMAGES_DEFAULT,
  ZDeleteGeneratedImageResponseSchema,
  GENERATION_SIZE_DEFAULT,
  ZGeneratedImageSchema,
  ZGeneratedImagesResponseSchema,
  ZGenerationResultSchema,
  ZStylesResponseSchema,
  type GeneratedImage,
  type GeneratedImagesResponse,
  type GenerationResult,
  type Style,
} from '@studioshot/contracts';
import { api } from '../../lib/api';
import { ApiError } from '../../lib/api-client';

/**
 * The generation calls of docs/spec/calls.md#75-generation, each answer checked against its
 * contract.
 */

export type { GeneratedImage, GeneratedImagesResponse, GenerationResult, Style };

/**
 * A Generate call waits on the server up to GENERATION_WAIT_MS (8 s, inside the contract's 10 s
 * client timeout) before it answers 202. The page allows more than that, for a loaded server
 * or a development one told to wait longer; its key makes any retry safe.
 */
export const GENERATE_TIMEOUT_MS = 90_000;
/** The gallery's page size (GET /models/generated-images?limit&offset). */
export const GALLERY_PAGE_SIZE = 24;

/** The spec's 'Bad result' message when a Generate answer does not match its contract. */
export const INVALID_GENERATION_RESPONSE = 'Generation failed - invalid response format';

/** A fresh key per click (contracts: generation.ts): a repeated request is never charged twice. */
export function newIdempotencyKey(): string {
  return `gen-${crypto.randomUUID()}`;
}

/**
 * The post-payment page's key: one per payment, so a reload asks for the same generation. The
 * server binds at most one generation to a payment anyway; the key keeps the request well formed
 * (8-128 of letters, digits and -_.:) whatever the address carried.
 */
export function paymentIdempotencyKey(paymentIntent: string): string {
  return `payment:${paymentIntent.replace(/[^A-Za-z0-9_.:-]/g, '_')}`.slice(0, 128);
}

/**
 * Image addresses are relative (`/images/generated/{id}?token=`): served by the API's origin. The
 * token in them is signed for that one image, so they work in <img src> without a session.
 */
export function imageSrc(url: string): string {
  if (/^(https?:|blob:|data:)/.test(url)) return url;
  return `${(import.meta.env.VITE_API_BASE ?? '').replace(/\/+$/, '')}${url}`;
}

export async function fetchStyles(signal?: AbortSignal): Promise<Style[]> {
  const body = await api.get('/api/v1/generation/styles', {
    anonymous: true,
    signal,
    schema: ZStylesResponseSchema,
    invalid: 'Failed to load styles',
  });
  return body.styles;
}

/** Where this tab keeps the request a Generate key was first sent with. */
const sentSlot = (key: string) => `generation-request:${key}`;

function sentWith(key: string): Record<string, unknown> | null {
  try {
    const stored = window.sessionStorage.getItem(sentSlot(key));
    return stored ? (JSON.parse(stored) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function rememberSent(key: string, request: Record<string, unknown>): void {
  try {
    window.sessionStorage.setItem(sentSlot(key), JSON.stringify(request));
  } catch {
    // No session storage (a private mode): a reload then starts from the empty page.
  }
}

/**
 * Every Generate answer: 200 with the images when done, 202 with `status` (queued or running)
 * and the task's id when the server's wait ran out. Both bodies have the same shape.
 */
async function generate(path: string, body: Record<string, unknown>, idempotencyKey: string) {
  // A key stands for one request: the server refuses it with another body. A repeat (a page
  // resuming after a reload, before its form has loaded again) sends the first request as it was.
  const request = sentWith(idempotencyKey) ?? body;
  rememberSent(idempotencyKey, request);
  // The key travels in the body's `idempotency_key`, which the server treats exactly like the
  // Idempotency-Key header (contracts: generation.ts): the shared API client sends no per-call
  // headers.
  return api.post(
    path,
    { ...request, idempotency_key: idempotencyKey },
    {
      timeoutMs: GENERATE_TIMEOUT_MS,
      schema: ZGenerationResultSchema,
      invalid: INVALID_GENERATION_RESPONSE,
    },
  );
}

export interface GenerateTrainedInput {
  modelId: string;
  style: string;
  /** The custom prompt; blank means the style's own studio prompt. */
  prompt: string;
  triggerWord: string;
  /** A template (the /generate studio): it decides the look instead of the style. */
  templateId?: string;
  /** The template's variant, 0-based. */
  variant?: number;
}

/** POST /api/v1/generation/generate-trained (the premium page and the /generate studio). */
export function generateTrained(
  input: GenerateTrainedInput,
  idempotencyKey: string,
): Promise<GenerationResult> {
  const prompt = input.prompt.trim();
  return generate(
    '/api/v1/generation/generate-trained',
    {
      model_id: input.modelId,
      style: input.style,
      num_images: GENERATION_IMAGES_DEFAULT,
      trigger_word: input.triggerWord,
      ...(input.templateId ? { template_id: input.templateId } : {}),
      ...(input.variant !== undefined ? { variant: input.variant } : {}),
      ...(prompt ? { prompt } : {}),
    },
    idempotencyKey,
  );
}

export interface StyleGenerationInput {
  style: string;
  /** What the user described; blank means the style's own studio prompt. */
  prompt: string;
}

/**
 * POST /api/v1/inference/generate as the legacy style page sends it (prompt, style, num_images):
 * no model id, so the server uses the user's latest completed model, or without one their best
 * checked photo restyled (409 when they have uploaded none).
 */
export function generateWithStyle(
  input: StyleGenerationInput,
  idempotencyKey: string,
): Promise<GenerationResult> {
  const prompt = input.prompt.trim();
  return generate(
    '/api/v1/inference/generate',
    {
      style: input.style,
      num_images: GENERATION_IMAGES_DEFAULT,
      ...(prompt ? { prompt } : {}),
    },
    idempotencyKey,
  );
}

export interface PaidGenerationInput {
  paymentIntent: string;
  style: string;
  prompt: string;
}

/**
 * POST /inference/generate (no /api/v1 prefix): the post-payment page. The payment pays for
 * exactly one generation; repeating the call with it answers that same generation.
 */
export function generateForPayment(input: PaidGenerationInput): Promise<GenerationResult> {
  return generate(
    '/inference/generate',
    {
      prompt: input.prompt,
      num_images: GENERATION_IMAGES_DEFAULT,
      width: GENERATION_SIZE_DEFAULT,
      height: GENERATION_SIZE_DEFAULT,
      style: input.style,
      payment_intent: input.paymentIntent,
    },
    paymentIdempotencyKey(input.paymentIntent),
  );
}

/** GET /models/generated-images?limit&offset, newest first. */
export async function fetchGeneratedImages(
  page: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<GeneratedImagesResponse> {
  return api.get(`/models/generated-images?limit=${page.limit}&offset=${page.offset}`, {
    signal,
    schema: ZGeneratedImagesResponseSchema,
    invalid: 'Failed to load your headshots',
  });
}

/** POST /models/generated-images/{id}/favorite with the wanted state (never a blind toggle). */
export async function setFavorite(id: string, favorite: boolean): Promise<GeneratedImage> {
  return api.post(
    `/models/generated-images/${encodeURIComponent(id)}/favorite`,
    { favorite },
    { schema: ZGeneratedImageSchema, invalid: 'Failed to update the favourite' },
  );
}

/** DELETE /models/generated-images/{id}: the image and its files are gone. */
export async function deleteGeneratedImage(id: string): Promise<void> {
  await api.delete(`/models/generated-images/${encodeURIComponent(id)}`, {
    schema: ZDeleteGeneratedImageResponseSchema,
    invalid: 'Failed to delete the image',
  });
}

/** Whether an error is the server saying the balance cannot pay for a generation (402). */
export function isInsufficientCredits(error: unknown): boolean {
  return (
    error instanceof ApiError && (error.status === 402 || error.code === 'insufficient_credits')
  );
}
