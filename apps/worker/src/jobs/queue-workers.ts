import {
  QUEUES,
  TASK_QUEUE_FAMILIES,
  taskQueueName,
  type EngineKind,
  type TaskType,
} from '@studioshot/contracts';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { WorkerPool } from '../env.js';
import { dispatch, dispatchFailedForGood, type JobHandlers } from './registry.js';
import { hostname } from 'node:os';

export interface QueueWorkersOptions {
  /** Shared by the workers for ordinary commands; each opens its own blocking connection. */
  connection: Redis;
  /** BullMQ key prefix; the API's producer uses the same one. */
  prefix: string;
  /** The worker's engine kind: its task jobs run on that engine. */
  engineKind: EngineKind;
  /** The queues it consumes (its pool's: poolQueues). */
  queues: readonly string[];
  /** Jobs at once per queue name (default 1). */
  concurrency: Partial<Record<string, number>>;
  /** A job whose worker died is picked up again after the lock expires and a stalled check. */
  lockDurationMs: number;
  stalledIntervalMs: number;
  /** Stalls (worker deaths) a job survives; one more and BullMQ fails it for good. */
  maxStalledCount: number;
  /** Handed to every job: aborts when the worker shuts down past its grace period. */
  shutdown: AbortSignal;
  logger: Logger;
}

/**
 * The queues a worker of this pool and engine kind takes: the photo checks, its engine kind's task
 * queues (never another kind's: a CPU worker never takes a GPU job), or both (`all`).
 */
export function poolQueues(pool: WorkerPool, kind: EngineKind): string[] {
  const tasks = (Object.keys(TASK_QUEUE_FAMILIES) as TaskType[]).map((type) =>
    taskQueueName(type, kind),
  );
  if (pool === 'photo-checks') return [QUEUES.photoChecks];
  if (pool === 'all') return [...tasks, QUEUES.photoChecks];
  return tasks;
}

/** One BullMQ worker per consumed queue, dispatching each job to its handler by name. */
export function startQueueWorkers(handlers: JobHandlers, options: QueueWorkersOptions): Worker[] {
  return options.queues.map((queue) => {
    const worker = new Worker(
      queue,
      (job, token) =>
        dispatch(handlers, job, options.engineKind, {
          token,
          shutdown: options.shutdown,
          logger: options.logger.child({ queue, jobId: job.id, jobName: job.name }),
        }),
      {
        // Names its connections and the jobs it takes, so the ops console's fleet page can say
        // which worker (host and process) runs which job.
        name: `${hostname()}:${process.pid}`,
        connection: options.connection,
        prefix: options.prefix,
        concurrency: options.concurrency[queue] ?? 1,
        lockDuration: options.lockDurationMs,
        stalledInterval: options.stalledIntervalMs,
        maxStalledCount: options.maxStalledCount,
      },
    );
    worker.on('error', (error) =>
      options.logger.error({ err: error, queue }, 'queue worker error'),
    );
    worker.on('failed', (job, error) => {
      const logger = options.logger.child({ queue, jobId: job?.id, jobName: job?.name });
      logger.warn({ attemptsMade: job?.attemptsMade, err: error }, 'job attempt failed');
      // finishedOn is set only when BullMQ gives up on the job.
      if (!job?.finishedOn) return;
      dispatchFailedForGood(handlers, job, options.engineKind, logger).catch((failure: unknown) =>
        logger.error({ err: failure }, 'could not settle a job that failed for good'),
      );
    });
    worker.on('stalled', (jobId) =>
      options.logger.warn({ queue, jobId }, 'job stalled: its worker stopped renewing the lock'),
    );
    return worker;
  });
}
