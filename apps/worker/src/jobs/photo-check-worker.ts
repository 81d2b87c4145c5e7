import {
  JOB_NAMES,
  QUEUES,
  ZCheckPhotoJobSchema,
  ZRejudgePhotoSetJobSchema,
} from '@studioshot/contracts';
import type { Db } from '@studioshot/db';
import type { Storage } from '@studioshot/storage';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createPhotoAnalyzer } from '../photo-checks/index.js';
import { checkPhoto, markCheckFailed, rejudgePhotoSet } from './check-photo.js';
import { assertHandlers, dispatch } from './registry.js';

export interface PhotoCheckWorkerOptions {
  db: Db;
  storage: Storage;
  redisUrl: string;
  /** BullMQ key prefix; the API's producer uses the same one. */
  prefix: string;
  concurrency: number;
  logger: Logger;
}

/** Consumes the photo-check queue. Handlers are checked at start: a missing one throws here. */
export function startPhotoCheckWorker(options: PhotoCheckWorkerOptions): {
  worker: Worker;
  close(): Promise<void>;
} {
  const { db, storage, logger } = options;
  const handlers = {
    [JOB_NAMES.checkPhoto]: (payload: unknown) =>
      checkPhoto(
        { db, storage, analyzer: createPhotoAnalyzer, logger },
        ZCheckPhotoJobSchema.parse(payload),
      ),
    [JOB_NAMES.rejudgePhotoSet]: (payload: unknown) =>
      rejudgePhotoSet(db, ZRejudgePhotoSetJobSchema.parse(payload)),
  };
  assertHandlers(handlers);
  // BullMQ wants a dedicated blocking connection for workers, with no per-request retry limit.
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const worker = new Worker(QUEUES.photoChecks, (job) => dispatch(handlers, job.name, job.data), {
    connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
  });
  worker.on('error', (error) => logger.error({ err: error }, 'photo check worker error'));
  worker.on('failed', (job, error) => {
    logger.warn({ jobId: job?.id, err: error, attempts: job?.attemptsMade }, 'photo check failed');
    const payload = ZCheckPhotoJobSchema.safeParse(job?.data);
    // After the last attempt the photo is reported as failed, never left "checking" forever.
    if (job && payload.success && job.attemptsMade >= (job.opts.attempts ?? 1)) {
      markCheckFailed(db, payload.data).catch((e: unknown) =>
        logger.error({ err: e }, 'could not mark a failed check'),
      );
    }
  });
  return {
    worker,
    async close() {
      await worker.close();
      await connection.quit().catch(() => undefined);
    },
  };
}
