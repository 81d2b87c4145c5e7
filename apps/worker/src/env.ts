import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const here = path.dirname(fileURLToPath(import.meta.url));

export const ZWorkerEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }),
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
