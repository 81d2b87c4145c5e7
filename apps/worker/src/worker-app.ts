import { JOB_NAMES, QUEUES, TASK_CANCEL_CHANNEL } from '@studioshot/contracts';
import type { Db } from '@studioshot/db';
import type { Storage } from '@studioshot/storage';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { engineCommandLine, type EngineReady } from './engine/engine-process.js';
import { WarmEngines } from './engine/warm-engines.js';
import type { WorkerEnv } from './env.js';
import { photoCheckHandlers } from './jobs/photo-check-handlers.js';
import { startQueueWorkers } from './jobs/queue-workers.js';
import { assertHandlers } from './jobs/registry.js';
import { TaskCancellations, TaskStopped } from './jobs/task-cancellations.js';
import { createPhotoAnalyzer } from './photo-checks/index.js';
import { trainModelHandler } from './training/train-model.js';
import { sweepOrphanedWorkspaces } from './training/training-workspaces.js';

export interface WorkerDeps {
  db: Db;
  storage: Storage;
  logger: Logger;
}

export interface RunningWorker {
  engine: EngineReady;
  /**
   * Stops taking jobs and lets running ones finish for WORKER_SHUTDOWN_GRACE_MS; then their
   * engines are cancelled and their jobs go back to the queue without using an attempt. Closes
   * every connection and engine it opened (not `db` or `storage`, which the caller owns).
   */
  close(): Promise<void>;
}

/**
 * The worker: every job type's handler (checked before anything starts), one BullMQ consumer per
 * queue that has job types, a warm spare engine, and the task cancel channel.
 */
export async function startWorker(env: WorkerEnv, deps: WorkerDeps): Promise<RunningWorker> {
  const { db, storage, logger } = deps;
  const engines = new WarmEngines({
    command: engineCommandLine(env.ENGINE_PYTHON, env.ENGINE_KIND),
    logger,
    readyTimeoutMs: env.ENGINE_READY_TIMEOUT_MS,
    cancelGraceMs: env.ENGINE_CANCEL_GRACE_MS,
    termGraceMs: env.ENGINE_TERM_GRACE_MS,
  });
  const cancellations = new TaskCancellations(logger);
  const handlers = {
    ...photoCheckHandlers({ db, storage }),
    [JOB_NAMES.trainModel]: trainModelHandler({
      db,
      storage,
      engines,
      cancellations,
      tmpDir: env.WORKER_TMP_DIR,
      timeoutMs: env.TRAINING_TIMEOUT_MS,
    }),
  };
  assertHandlers(handlers);
  // A worker killed mid-training (kill -9, a lost node) left its staged photos and output behind.
  await sweepOrphanedWorkspaces(env.WORKER_TMP_DIR, logger);
  let engine: EngineReady;
  try {
    engine = await engines.start();
    await cancellations.listen(env.REDIS_URL, `${env.REDIS_PREFIX}${TASK_CANCEL_CHANNEL}`);
    // Load the face models now, not on the first user's photo.
    await createPhotoAnalyzer();
  } catch (error) {
    await Promise.allSettled([engines.close(), cancellations.close()]);
    throw error;
  }

  // Workers need commands that wait out a Redis restart rather than fail.
  const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  connection.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const shutdown = new AbortController();
  const workers = startQueueWorkers(handlers, {
    connection,
    prefix: `${env.REDIS_PREFIX}bull`,
    concurrency: {
      [QUEUES.training]: env.TRAINING_CONCURRENCY,
      [QUEUES.photoChecks]: env.PHOTO_CHECK_CONCURRENCY,
    },
    lockDurationMs: env.WORKER_LOCK_MS,
    stalledIntervalMs: env.WORKER_STALLED_INTERVAL_MS,
    maxStalledCount: env.WORKER_MAX_STALLED_COUNT,
    shutdown: shutdown.signal,
    logger,
  });

  let closing: Promise<void> | undefined;
  return {
    engine,
    close() {
      closing ??= (async () => {
        const grace = setTimeout(
          () => shutdown.abort(new TaskStopped('shutdown')),
          env.WORKER_SHUTDOWN_GRACE_MS,
        );
        await Promise.all(workers.map((worker) => worker.close()));
        clearTimeout(grace);
        await Promise.allSettled([engines.close(), cancellations.close()]);
        await connection.quit().catch(() => connection.disconnect());
      })();
      return closing;
    },
  };
}

/** How long `close` can take at most: the grace, then an engine's cancel and term graces. */
export function maxShutdownMs(env: WorkerEnv): number {
  return env.WORKER_SHUTDOWN_GRACE_MS + env.ENGINE_CANCEL_GRACE_MS + env.ENGINE_TERM_GRACE_MS;
}
