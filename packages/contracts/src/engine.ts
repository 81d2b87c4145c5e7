import { z } from 'zod';

/**
 * The worker <-> engine protocol (DESIGN.md section 4): newline-delimited JSON on fd 3, each
 * message `{v, type, ...}`. Defined once here; the Python side mirrors it in
 * apps/worker/engine/studioshot_engine/protocol.py, and both replay the golden transcripts in
 * packages/contracts/engine-transcripts.
 */
export const ENGINE_PROTOCOL_VERSION = 1;

const base = { v: z.literal(ENGINE_PROTOCOL_VERSION) };

export const ZTrainParamsSchema = z.strictObject({
  /** The user's usable photos, already on local disk (the worker downloads them). */
  photos: z.array(z.strictObject({ id: z.string(), path: z.string() })).min(1),
  /** Where the engine writes its artifact(s); the worker uploads them to storage. */
  output_dir: z.string(),
  trigger_word: z.string(),
  model_name: z.string(),
});
export type TrainParams = z.infer<typeof ZTrainParamsSchema>;

// Parent -> child.
export const ZEngineStartSchema = z.strictObject({
  ...base,
  type: z.literal('start'),
  job_id: z.string(),
  task: z.literal('train'),
  params: ZTrainParamsSchema,
});
export const ZEngineCancelSchema = z.strictObject({
  ...base,
  type: z.literal('cancel'),
  job_id: z.string(),
});
export const ZEngineCommandSchema = z.discriminatedUnion('type', [
  ZEngineStartSchema,
  ZEngineCancelSchema,
]);
export type EngineCommand = z.infer<typeof ZEngineCommandSchema>;

// Child -> parent.
export const ZEngineReadySchema = z.object({
  ...base,
  type: z.literal('ready'),
  engine: z.string(),
  version: z.string(),
});
export const ZEngineProgressSchema = z.object({
  ...base,
  type: z.literal('progress'),
  job_id: z.string(),
  step: z.number().int().nonnegative(),
  total: z.number().int().positive(),
  message: z.string(),
});
export const ZEngineLogSchema = z.object({
  ...base,
  type: z.literal('log'),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  message: z.string(),
});
export const ZEngineArtifactSchema = z.object({
  ...base,
  type: z.literal('artifact'),
  job_id: z.string(),
  path: z.string(),
  kind: z.enum(['model', 'preview']),
});
export const ZEngineResultSchema = z.object({
  ...base,
  type: z.literal('result'),
  job_id: z.string(),
  /** Small facts about the run (photos used, quality); never large data. */
  summary: z.record(z.string(), z.unknown()),
});
export const ENGINE_ERROR_CODES = ['bad_input', 'cancelled', 'protocol', 'internal'] as const;
export const ZEngineErrorSchema = z.object({
  ...base,
  type: z.literal('error'),
  job_id: z.string().nullable(),
  code: z.enum(ENGINE_ERROR_CODES),
  message: z.string(),
  retryable: z.boolean(),
});
export const ZEngineEventSchema = z.discriminatedUnion('type', [
  ZEngineReadySchema,
  ZEngineProgressSchema,
  ZEngineLogSchema,
  ZEngineArtifactSchema,
  ZEngineResultSchema,
  ZEngineErrorSchema,
]);
export type EngineEvent = z.infer<typeof ZEngineEventSchema>;
