import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const here = path.dirname(fileURLToPath(import.meta.url));

export const ZWorkerEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }),
  REDIS_PREFIX: z.string().default('studioshot:'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_DIR: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .default(false),
  /** Face analysis uses one core; two at once only halves each one's speed. */
  PHOTO_CHECK_CONCURRENCY: z.coerce.number().int().positive().default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The engine's virtualenv interpreter; `npm start` creates it. */
  ENGINE_PYTHON: z.string().default(path.resolve(here, '../engine/.venv/bin/python')),
  ENGINE_KIND: z.enum(['studio', 'flux']).default('studio'),
});
export type WorkerEnv = z.infer<typeof ZWorkerEnvSchema>;

export function loadWorkerEnv(source: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = ZWorkerEnvSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new Error(`Invalid worker configuration:\n${lines.join('\n')}`);
}
