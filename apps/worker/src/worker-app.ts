import { JOB_NAMES, QUEUES, TASK_CANCEL_CHANNEL, taskQueueName } from '@studioshot/contracts';
import { PhotoAnalyzerPool } from './photo-checks/analyzer-pool.js';
import type { Db } from '@studioshot/db';
import type { Storage } from '@studioshot/storage';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { EnginePool } from './bridge/engine-pool.js';
import { engineCommandLine, type EngineReady } from './bridge/engine-process.js';
import { generateWork } from './generation/generate-images.js';
import type { WorkerEnv } from './env.js';
import { photoCheckHandlers } from './photo-checks/photo-check-handlers.js';
import { poolQueues, startQueueWorkers } from './jobs/queue-workers.js';
import { assertHandlers } from './jobs/registry.js';
import { createPhotoAnalyzer } from './photo-checks/index.js';
import { podDeletionCost } from './fleet/pod-deletion-cost.js';
import { TaskCancellations, TaskStopped } from './tasks/task-cancellations.js';
import { TaskEvents } from './tasks/task-events.js';
import { taskJobHandler } from './tasks/task-runner.js';
import { sweepOrphanedWorkspaces } from './tasks/task-workspaces.js';
import { trainModelWork } from './training/train-model.js';
import type { WorkerMetrics } from './worker-metrics.js';

export interface WorkerDeps {
  db: Db;
  storage: Storage;
  logger: Logger;
  /** Where job durations and engine starts and crashes are counted; /metrics serves it. */
  metrics?: WorkerMetrics;
  /**
   * The photo-check threads, when the caller owns them (a test that stops one); otherwise the
   * worker starts PHOTO_CHECK_THREADS of them and closes them.
   */
  photoAnalyzers?: PhotoAnalyzerPool;
}

export interface RunningWorker {
  /** The queues it takes (its WORKER_POOL's). */
  queues: string[];
  /** Its warm engine; none for a photo-checks worker, which runs no engine. */
  engine: EngineReady | undefined;
  /**
   * Stops taking jobs and lets running ones finish for WORKER_SHUTDOWN_GRACE_MS; then their
   * engines are cancelled and their jobs go back to the queue without using an attempt. Closes
   * every connection and engine it opened (not `db` or `storage`, which the caller owns).
   */
  close(): Promise<void>;
}

/**
 * The worker: every job type's handler (checked before anything starts), one BullMQ consumer per
 * queue of its pool (WORKER_POOL), and what those queues need: for task queues the engine pool
 * (training processes, the warm generation session) and the task cancel channel; for photo
 * checks PHOTO_CHECK_THREADS analysis threads, that many checks at once.
 */
export async function startWorker(env: WorkerEnv, deps: WorkerDeps): Promise<RunningWorker> {
  const { db, storage, logger } = deps;
  const kind = env.ENGINE_KIND;
  const queues = poolQueues(env.WORKER_POOL, kind);
  const takesTasks = queues.some((queue) => queue !== QUEUES.photoChecks);
  const takesPhotoChecks = queues.includes(QUEUES.photoChecks);
  const photoAnalyzers =
    deps.photoAnalyzers ??
    (takesPhotoChecks ? new PhotoAnalyzerPool(env.PHOTO_CHECK_THREADS) : undefined);
  const ownsPhotoAnalyzers = !deps.photoAnalyzers && photoAnalyzers !== undefined;
  const engines = new EnginePool({
    command: engineCommandLine(env.ENGINE_PYTHON, kind),
    kind,
    // A GPU holds one engine's weights at a time.
    exclusive: kind === 'flux',
    sessionIdleMs: env.ENGINE_SESSION_IDLE_MS,
    sessionMaxTasks: env.ENGINE_SESSION_MAX_TASKS,
    logger,
    readyTimeoutMs: env.ENGINE_READY_TIMEOUT_MS,
    cancelGraceMs: env.ENGINE_CANCEL_GRACE_MS,
    termGraceMs: env.ENGINE_TERM_GRACE_MS,
    lifecycle: deps.metrics?.engineLifecycle,
  });
  const cancellations = new TaskCancellations(logger);
  // Workers need commands that wait out a Redis restart rather than fail.
  const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  connection.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const taskEvents = new TaskEvents(connection, `${env.REDIS_PREFIX}bull`, logger);
  const runner = { db, events: taskEvents, cancellations, tmpDir: env.WORKER_TMP_DIR };
  const training = { db, storage, engines, timeoutMs: env.TRAINING_TIMEOUT_MS };
  const handlers = {
    ...photoCheckHandlers({
      db,
      storage,
      analyzer: photoAnalyzers ?? {
        analyzePhoto: () => Promise.reject(new Error('this worker takes no photo checks')),
      },
    }),
    [JOB_NAMES.trainModel]: taskJobHandler(runner, trainModelWork(training)),
    [JOB_NAMES.generate]: taskJobHandler(
      runner,
      generateWork({
        ...training,
        timeoutMs: env.GENERATION_TIMEOUT_MS,
        kind,
        analyzer: createPhotoAnalyzer,
      }),
    ),
  };
  assertHandlers(handlers);
  const timedHandlers = deps.metrics ? deps.metrics.timed(handlers) : handlers;
  // A worker killed mid-task (kill -9, a lost node) left its staged inputs and output behind.
  await sweepOrphanedWorkspaces(env.WORKER_TMP_DIR, logger);
  let engine: EngineReady | undefined;
  try {
    if (takesTasks) {
      engine = await engines.start();
      await cancellations.listen(env.REDIS_URL, `${env.REDIS_PREFIX}${TASK_CANCEL_CHANNEL}`);
      // Generations rank their images with the face models: load them now, not on the first.
      await createPhotoAnalyzer();
    }
    // Each photo-check thread loads its models now, not on the first user's photo.
    await photoAnalyzers?.ready();
  } catch (error) {
    await Promise.allSettled([
      engines.close(),
      cancellations.close(),
      taskEvents.close(),
      ownsPhotoAnalyzers ? photoAnalyzers?.close() : undefined,
    ]);
    connection.disconnect();
    throw error;
  }
  // Read before the first job: a pod that cannot mark itself says so at start, not mid-job.
  const deletionCost = await podDeletionCost(env, logger).catch(async (error: unknown) => {
    await Promise.allSettled([engines.close(), cancellations.close(), taskEvents.close()]);
    connection.disconnect();
    throw error;
  });
  const shutdown = new AbortController();
  const workers = startQueueWorkers(timedHandlers, {
    connection,
    prefix: `${env.REDIS_PREFIX}bull`,
    engineKind: kind,
    queues,
    concurrency: {
      [taskQueueName('training', kind)]: env.TRAINING_CONCURRENCY,
      [taskQueueName('generation', kind)]: env.GENERATION_CONCURRENCY,
      [taskQueueName('batch_generation', kind)]: env.GENERATION_CONCURRENCY,
      [QUEUES.photoChecks]: photoAnalyzers?.threads ?? 1,
    },
    lockDurationMs: env.WORKER_LOCK_MS,
    stalledIntervalMs: env.WORKER_STALLED_INTERVAL_MS,
    maxStalledCount: env.WORKER_MAX_STALLED_COUNT,
    shutdown: shutdown.signal,
    logger,
  });
  deletionCost?.follow(workers);

  let closing: Promise<void> | undefined;
  return {
    queues,
    engine,
    close() {
      closing ??= (async () => {
        const grace = setTimeout(
          () => shutdown.abort(new TaskStopped('shutdown')),
          env.WORKER_SHUTDOWN_GRACE_MS,
        );
        await Promise.all(workers.map((worker) => worker.close()));
        clearTimeout(grace);
        await Promise.allSettled([
          engines.close(),
          cancellations.close(),
          taskEvents.close(),
          ownsPhotoAnalyzers ? photoAnalyzers?.close() : undefined,
        ]);
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
