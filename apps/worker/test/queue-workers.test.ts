import { JOB_NAMES, QUEUES, type JobName } from '@studioshot/contracts';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from 'bullmq';
import { poolQueues, startQueueWorkers } from '../src/jobs/queue-workers.js';
import type { JobHandlers } from '../src/jobs/registry.js';
import {
  BATCH_GENERATION_QUEUE,
  createSuite,
  GENERATION_QUEUE,
  TRAINING_QUEUE,
  waitFor,
  type Suite,
} from './support/harness.js';

let suite: Suite;
let connection: Redis;
let workers: Worker[];
const handled: { name: JobName; payload: unknown; queue: string }[] = [];

beforeAll(async () => {
  suite = await createSuite();
  connection = new Redis(suite.redisUrl, { maxRetriesPerRequest: null });
  const record = (name: JobName) => ({
    run: async (payload: unknown, { job }: { job: { queueName: string } }) =>
      void handled.push({ name, payload, queue: job.queueName }),
  });
  const handlers = Object.fromEntries(
    Object.values(JOB_NAMES).map((name) => [name, record(name)]),
  ) as unknown as JobHandlers;
  workers = startQueueWorkers(handlers, {
    connection,
    prefix: `${suite.prefix}bull`,
    engineKind: 'studio',
    queues: poolQueues('all', 'studio'),
    concurrency: {},
    lockDurationMs: 30_000,
    stalledIntervalMs: 30_000,
    maxStalledCount: 1,
    shutdown: new AbortController().signal,
    logger: pino({ level: 'silent' }),
  });
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  connection.disconnect();
  await suite.close();
});

describe('queue workers', () => {
  it("consume exactly their pool's queues: an engine kind's task queues, the photo checks, or both", () => {
    expect(poolQueues('all', 'studio').sort()).toEqual(
      [QUEUES.photoChecks, TRAINING_QUEUE, GENERATION_QUEUE, BATCH_GENERATION_QUEUE].sort(),
    );
    expect(poolQueues('studio', 'studio').sort()).toEqual(
      [TRAINING_QUEUE, GENERATION_QUEUE, BATCH_GENERATION_QUEUE].sort(),
    );
    // A GPU worker takes the flux queues only, never CPU work.
    expect(poolQueues('flux', 'flux').sort()).toEqual(
      ['training.flux', 'generation.flux', 'batch-generation.flux'].sort(),
    );
    expect(poolQueues('all', 'flux').sort()).toEqual(
      [QUEUES.photoChecks, 'training.flux', 'generation.flux', 'batch-generation.flux'].sort(),
    );
    expect(poolQueues('photo-checks', 'studio')).toEqual([QUEUES.photoChecks]);
    expect(poolQueues('photo-checks', 'flux')).toEqual([QUEUES.photoChecks]);
    expect(workers.map((w) => w.name).sort()).toEqual(poolQueues('all', 'studio').sort());
  });

  it('dispatch each job by name to its handler, from its own queue, with a validated payload', async () => {
    const taskId = '00000000-0000-4000-8000-000000000001';
    const sessionId = '00000000-0000-4000-8000-000000000002';
    await suite.queue(TRAINING_QUEUE).add(JOB_NAMES.trainModel, { task_id: taskId });
    await suite.queue(QUEUES.photoChecks).add(JOB_NAMES.rejudgePhotoSet, { session_id: sessionId });
    await waitFor(() => (handled.length >= 2 ? true : undefined), 'both jobs');
    expect(handled).toEqual(
      expect.arrayContaining([
        { name: JOB_NAMES.trainModel, payload: { task_id: taskId }, queue: TRAINING_QUEUE },
        {
          name: JOB_NAMES.rejudgePhotoSet,
          payload: { session_id: sessionId },
          queue: QUEUES.photoChecks,
        },
      ]),
    );
  });

  it('fail a bad job for good, without retries: unknown type, wrong queue, invalid payload', async () => {
    const options = { attempts: 3, backoff: { type: 'fixed', delay: 10 } };
    const training = suite.queue(TRAINING_QUEUE);
    const unknown = await training.add('model.unknown', { task_id: 'x' }, options);
    const wrongQueue = await training.add(JOB_NAMES.rejudgePhotoSet, { session_id: 'x' }, options);
    const invalid = await training.add(JOB_NAMES.trainModel, { task_id: 'not-a-uuid' }, options);
    for (const [job, reason] of [
      [unknown, /unknown job type model.unknown/],
      [wrongQueue, /photo.rejudge-set jobs belong on photo-checks/],
      [invalid, /invalid model.train payload/],
    ] as const) {
      const failed = await waitFor(async () => {
        const state = await training.getJob(job.id!);
        return state?.failedReason ? state : undefined;
      }, `job ${job.name} to fail`);
      expect(failed.failedReason).toMatch(reason);
      expect(failed.attemptsMade).toBe(1);
      expect(await failed.getState()).toBe('failed');
    }
  });
});
