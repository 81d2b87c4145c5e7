import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_KINDS, productionRefusal } from '@studioshot/contracts';
import { STORAGE_SETTINGS } from '@studioshot/contracts/storage-settings';
import { z } from 'zod';
import { availableCpus } from './cpu-quota.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// The engines' virtualenvs (scripts/lib.sh makes them): the flux engine's holds torch and diffusers.
const STUDIO_ENGINE_VENV = '../engine/.venv';
const FLUX_ENGINE_VENV = '../engine/.venv-flux';

export const WORKER_POOLS = ['photo-checks', 'studio', 'flux', 'all'] as const;
export type WorkerPool = (typeof WORKER_POOLS)[number];

const ZWorkerEnvFields = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }),
  REDIS_PREFIX: z.string().default('studioshot:'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  ...STORAGE_SETTINGS,
  /**
   * The queues this worker takes (the fleet's pools, each scaled on its own queues):
   * `photo-checks` (CPU), `studio` (the studio engine's task queues, CPU), `flux` (the flux
   * engine's task queues, GPU), or `all` (its engine kind's task queues and the photo checks: one
   * machine, `npm start`). Production refuses it missing: a GPU worker must never default into
   * taking CPU work.
   */
  WORKER_POOL: z.enum(WORKER_POOLS).optional(),
  /**
   * Photo checks at once, each on its own thread (one core each). Default: the CPUs the process
   * may use, the cgroup's CPU quota in a container.
   */
  PHOTO_CHECK_THREADS: z.coerce.number().int().positive().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The private metrics listener (GET /metrics), which the deployment never publishes. Default
   * 9465 in production; elsewhere 0, a free port (logged), so workers started side by side by
   * tests never collide.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * The engine's virtualenv interpreter; `npm start` creates it. Default: the studio engine's
   * (engine/.venv), or the flux engine's own (engine/.venv-flux) for ENGINE_KIND=flux.
   */
  ENGINE_PYTHON: z.string().optional(),
  /** The engine this worker runs; it takes only that kind's task queues. */
  ENGINE_KIND: z.enum(ENGINE_KINDS).default('studio'),
  /** How long a freshly started engine may take to say `ready`. */
  ENGINE_READY_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** After `cancel`, how long the engine may take to stop before it gets SIGTERM... */
  ENGINE_CANCEL_GRACE_MS: z.coerce.number().int().nonnegative().default(5000),
  /** ...and after SIGTERM, before SIGKILL. */
  ENGINE_TERM_GRACE_MS: z.coerce.number().int().nonnegative().default(5000),
  /** A generation engine session with no task for this long is stopped (its memory freed). */
  ENGINE_SESSION_IDLE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
  /** A generation engine session is replaced after this many tasks. */
  ENGINE_SESSION_MAX_TASKS: z.coerce.number().int().positive().default(200),
  /** Generations at once (each on the one warm session, so more only queue there). */
  GENERATION_CONCURRENCY: z.coerce.number().int().positive().default(1),
  /** A generation still running after this is stopped and retried. */
  GENERATION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60_000),
  /** Trainings at once: one per GPU. */
  TRAINING_CONCURRENCY: z.coerce.number().int().positive().default(1),
  /** A training still running after this is stopped (a hung engine) and retried. */
  TRAINING_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 60_000),
  /** BullMQ job lock: a job whose worker died is picked up again after about this long... */
  WORKER_LOCK_MS: z.coerce.number().int().positive().default(30_000),
  /** ...by the next stalled-job check, run this often. */
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
  /** Worker deaths a job survives; one more and it fails for good (a job that kills workers). */
  WORKER_MAX_STALLED_COUNT: z.coerce.number().int().nonnegative().default(1),
  /** On SIGTERM/SIGINT, how long a running job may go on before it is stopped and requeued. */
  WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().nonnegative().default(25_000),
  /** Where a training's photos and engine output live while it runs. */
  WORKER_TMP_DIR: z.string().default(tmpdir()),
  /**
   * On Kubernetes: the worker marks its own pod's deletion cost from its state (busy high, idle
   * low), so that scaling in removes idle workers first (fleet/pod-deletion-cost.ts). Needs
   * POD_NAME and POD_NAMESPACE (the downward API) and a service account allowed to patch pods.
   * Off anywhere else.
   */
  POD_DELETION_COST: z.enum(['on', 'off']).default('off'),
  POD_NAME: z.string().optional(),
  POD_NAMESPACE: z.string().optional(),
});

/** The metrics port a production worker listens on unless told otherwise. */
export const PRODUCTION_WORKER_METRICS_PORT = 9465;

export const ZWorkerEnvSchema = ZWorkerEnvFields.superRefine((env, ctx) => {
  if (env.POD_DELETION_COST === 'on' && (!env.POD_NAME || !env.POD_NAMESPACE))
    ctx.addIssue({
      code: 'custom',
      path: ['POD_DELETION_COST'],
      message: 'POD_DELETION_COST=on needs POD_NAME and POD_NAMESPACE (the pod it marks)',
    });
}).transform((env) => ({
  ...env,
  METRICS_PORT:
    env.METRICS_PORT ?? (env.NODE_ENV === 'production' ? PRODUCTION_WORKER_METRICS_PORT : 0),
  // Outside production a missing pool is a one-machine install's.
  WORKER_POOL: env.WORKER_POOL ?? ('all' as const),
  PHOTO_CHECK_THREADS: env.PHOTO_CHECK_THREADS ?? availableCpus(),
  ENGINE_PYTHON:
    env.ENGINE_PYTHON ??
    path.resolve(
      here,
      env.ENGINE_KIND === 'flux' ? FLUX_ENGINE_VENV : STUDIO_ENGINE_VENV,
      'bin/python',
    ),
}));
export type WorkerEnv = z.infer<typeof ZWorkerEnvSchema>;

export function loadWorkerEnv(source: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = ZWorkerEnvSchema.safeParse(cleaned);
  if (result.success) {
    // The same rule as the API: no development convenience for the worker in production
    // (packages/contracts/src/dev-conveniences.ts lists them, with the app each applies to).
    const refusal =
      result.data.NODE_ENV === 'production' ? productionRefusal('worker', cleaned) : undefined;
    if (refusal) throw new Error(refusal);
    if (result.data.NODE_ENV === 'production' && cleaned.WORKER_POOL === undefined) {
      throw new Error(
        `WORKER_POOL is required in production: ${WORKER_POOLS.join(', ')} (the queues this worker takes)`,
      );
    }
    const pool = result.data.WORKER_POOL;
    if ((pool === 'studio' || pool === 'flux') && pool !== result.data.ENGINE_KIND) {
      throw new Error(
        `WORKER_POOL=${pool} runs the ${pool} engine: set ENGINE_KIND=${pool} (it is ${result.data.ENGINE_KIND})`,
      );
    }
    return result.data;
  }
  const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new Error(`Invalid worker configuration:\n${lines.join('\n')}`);
}
