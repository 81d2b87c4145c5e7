import {
  JOB_NAMES,
  TASK_CANCEL_CHANNEL,
  ZTaskProgressSchema,
  type TaskProgress,
} from '@studioshot/contracts';
import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { modelArtifactKey } from '@studioshot/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../src/worker-app.js';
import { WorkerMetrics } from '../src/worker-metrics.js';
import {
  createSuite,
  enqueueTraining,
  finishedTrainingJob,
  processAlive,
  seedTraining,
  storedModelFiles,
  taskRow,
  trainingState,
  waitFor,
  waitForFinalTask,
  TRAINING_QUEUE,
  type Suite,
} from './support/harness.js';
import { engineStartFor, LogCapture } from './support/log-capture.js';
import { metricValue } from './support/metrics.js';

let suite: Suite;
let worker: RunningWorker;
let events: QueueEvents;
const logs = new LogCapture('debug');
const metrics = new WorkerMetrics('studio');

beforeAll(async () => {
  suite = await createSuite();
  events = new QueueEvents(TRAINING_QUEUE, {
    connection: { url: suite.redisUrl },
    prefix: `${suite.prefix}bull`,
  });
  await events.waitUntilReady();
  worker = await startWorker(suite.env(), {
    db: suite.db,
    storage: suite.storage,
    logger: logs.logger,
    metrics,
  });
}, 60_000);

afterAll(async () => {
  await worker?.close();
  await events?.close();
  await suite?.close();
});

describe('model.train through BullMQ, Postgres, storage and the real engine', () => {
  it('trains a model: artifacts stored once under fixed keys, task and model completed, progress in step', async () => {
    const training = await seedTraining(suite, { unusablePhotos: ['other-person.jpg'] });
    const requestId = `req-${training.taskId.slice(0, 8)}`;
    // Each progress event is checked against the row as the API would read it on receipt.
    const seen: { event: TaskProgress; row: Promise<{ progress: number }> }[] = [];
    const onProgress = ({ jobId, data }: { jobId: string; data: unknown }) => {
      if (jobId !== training.taskId) return;
      seen.push({ event: ZTaskProgressSchema.parse(data), row: taskRow(suite, training.taskId) });
    };
    events.on('progress', onProgress);
    try {
      await enqueueTraining(suite, training, { requestId });
      const task = await waitForFinalTask(suite, training.taskId);
      expect(task).toMatchObject({
        status: 'completed',
        progress: 100,
        message: 'Training complete',
        error_message: null,
        attempts: 1,
      });
      expect(task.completed_at).toBeInstanceOf(Date);
      expect(task.started_at).toBeInstanceOf(Date);
      expect(task.gpu_seconds).toBeGreaterThan(0);
      const modelKey = modelArtifactKey(training.userId, training.modelId, 'model.npz');
      expect(task.result).toMatchObject({
        model_key: modelKey,
        preview_key: modelArtifactKey(training.userId, training.modelId, 'preview.jpg'),
        summary: { photos_used: expect.any(Number) },
      });
      // Only the usable photos went to the engine.
      const summary = (task.result as { summary: { photos_used: number; photos_rejected: number } })
        .summary;
      expect(summary.photos_used + summary.photos_rejected).toBe(training.usablePhotoIds.length);

      const state = await trainingState(suite, training);
      expect(state.model).toMatchObject({ status: 'completed', artifact_key: modelKey });
      expect(state.modelsTrained).toBe(1); // the slot reserved by the API, counted once
      expect(await storedModelFiles(suite, training)).toEqual(['model.npz', 'preview.jpg']);
      expect(await suite.storage.exists(modelKey)).toBe(true);
      // The request that queued the job names the worker's lines for it and the engine's own.
      const ofRequest = logs.filter((r) => r.requestId === requestId);
      expect(ofRequest.every((r) => r.taskId === training.taskId && r.service === 'worker')).toBe(
        true,
      );
      expect(ofRequest.map((r) => r.msg)).toEqual(
        expect.arrayContaining(['engine start sent', 'train started']),
      );
      expect(ofRequest.find((r) => r.msg === 'train started')).toMatchObject({
        engineLog: true,
        engineJobId: training.taskId,
        engineRequestId: requestId,
      });
      // The attempt is timed on /metrics once its job has finished.
      await finishedTrainingJob(suite, training.taskId);
      expect(
        await metricValue(metrics, 'studioshot_job_duration_seconds_count', {
          type: 'model.train',
          engine_kind: 'studio',
          outcome: 'completed',
        }),
      ).toBe(1);

      await waitFor(() => (seen.length > 0 ? true : undefined), 'progress events');
      const progress = seen.map((s) => s.event.progress);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(progress[0]).toBeLessThanOrEqual(5);
      expect(progress.some((p) => p > 5 && p < 95)).toBe(true);
      expect(progress.some((p) => p >= 95)).toBe(true);
      for (const { event, row } of seen) {
        expect(event).toMatchObject({
          task_id: training.taskId,
          user_id: training.userId,
          status: 'running',
        });
        // Postgres first: the row already says at least this much when the event arrives.
        expect((await row).progress).toBeGreaterThanOrEqual(event.progress);
      }
      expect(new Set(seen.map((s) => s.event.message))).toContain('Saving your model');
    } finally {
      events.off('progress', onProgress);
    }
  });

  it('leaves a finished task alone when its job runs again', async () => {
    const training = await seedTraining(suite);
    await enqueueTraining(suite, training);
    const first = await waitForFinalTask(suite, training.taskId);
    expect(first.status).toBe('completed');
    const stored = await suite.storage.get(
      modelArtifactKey(training.userId, training.modelId, 'model.npz'),
    );
    stored.destroy();

    // The same task enqueued again (a duplicate delivery): nothing changes.
    await suite
      .queue(TRAINING_QUEUE)
      .add(
        JOB_NAMES.trainModel,
        { task_id: training.taskId },
        { jobId: `${training.taskId}-again` },
      );
    const job = await finishedTrainingJob(suite, `${training.taskId}-again`);
    expect(await job.getState()).toBe('completed');
    const after = await trainingState(suite, training);
    expect(after.task).toMatchObject({ status: 'completed', attempts: 1 });
    expect(after.task.completed_at).toEqual(first.completed_at);
    expect(after.modelsTrained).toBe(1);
    expect(logs.filter(engineStartFor(training.taskId))).toHaveLength(1);
  });

  it('fails for good, without retries, when the engine finds the photos unusable; the slot is given back', async () => {
    const training = await seedTraining(suite, {
      photos: ['no-face-texture.jpg', 'no-face-background.jpg', 'astronaut.jpg'],
    });
    await enqueueTraining(suite, training, { attempts: 3, backoffMs: 10 });
    const task = await waitForFinalTask(suite, training.taskId);
    expect(task).toMatchObject({ status: 'failed', message: 'Training failed', attempts: 1 });
    expect(task.error_message).toMatch(/photo/i);
    const state = await trainingState(suite, training);
    expect(state.model.status).toBe('failed');
    expect(state.modelsTrained).toBe(0);
    const job = await finishedTrainingJob(suite, training.taskId);
    expect(job.attemptsMade).toBe(1);
    expect(await job.getState()).toBe('failed');
    expect(await storedModelFiles(suite, training)).toEqual([]);
  });

  it('runs each training on a fresh warm spare; an operator cancel stops it and returns the slot', async () => {
    const publisher = new Redis(suite.redisUrl);
    const enginePids = new Set<unknown>();
    try {
      for (let run = 0; run < 3; run += 1) {
        const training = await seedTraining(suite);
        // Between real trainings the next spare has long been ready; here it may still start.
        await waitFor(() => {
          const started = logs.filter((r) => r.msg === 'engine start sent').length;
          const ready = logs.filter((r) => r.msg === 'engine ready').length;
          return ready > started ? true : undefined;
        }, 'the spare engine to be ready');
        await enqueueTraining(suite, training);
        const start = await logs.next(engineStartFor(training.taskId), 'engine start');
        enginePids.add(start.enginePid);

        await publisher.publish(`${suite.prefix}${TASK_CANCEL_CHANNEL}`, training.taskId);
        const task = await waitForFinalTask(suite, training.taskId);
        expect(task).toMatchObject({
          status: 'cancelled',
          error_message: 'Training was cancelled by an operator.',
        });
        const state = await trainingState(suite, training);
        expect(state.model.status).toBe('failed');
        expect(state.modelsTrained).toBe(0);
        await waitFor(
          async () => ((await processAlive(start.enginePid as number)) ? undefined : true),
          'the cancelled engine to exit',
          10_000,
        );
      }
    } finally {
      await publisher.quit();
    }
    expect(enginePids.size).toBe(3);
  });
});
