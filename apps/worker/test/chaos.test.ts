import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../src/worker-app.js';
import { WorkerMetrics } from '../src/worker-metrics.js';
import {
  createSuite,
  enqueueTraining,
  finishedTrainingJob,
  LONG_TRAINING_PHOTOS,
  processAlive,
  seedTraining,
  storedModelFiles,
  taskRow,
  TRAINING_QUEUE,
  trainingState,
  waitFor,
  waitForFinalTask,
  type Suite,
} from './support/harness.js';
import { metricValue } from './support/metrics.js';
import { engineStartFor, LogCapture } from './support/log-capture.js';
import { WorkerProcess } from './support/worker-process.js';

// A dead worker's job is picked up again after its lock expires and a stalled check runs.
const FAST_STALL = { WORKER_LOCK_MS: '1500', WORKER_STALLED_INTERVAL_MS: '500' };

let suite: Suite;

beforeAll(async () => {
  suite = await createSuite();
});

afterAll(async () => {
  await suite?.close();
});

const gone = (pid: number, what: string) =>
  waitFor(async () => ((await processAlive(pid)) ? undefined : true), what, 15_000);

describe('worker process deaths', () => {
  it('a worker killed with SIGKILL mid-training: its engines exit, another worker finishes the job exactly once', async () => {
    const training = await seedTraining(suite, { photos: LONG_TRAINING_PHOTOS });
    const first = await WorkerProcess.start(suite, new LogCapture(), FAST_STALL);
    await enqueueTraining(suite, training);
    const start = await first.logs.next(engineStartFor(training.taskId), 'engine start');
    await waitFor(async () => {
      const task = await taskRow(suite, training.taskId);
      return task.progress > 5 ? task : undefined; // the engine is under way
    }, 'engine progress');
    first.kill('SIGKILL');
    await first.exited;
    // The engines (the task's and the spare) see their pipe close and exit on their own.
    expect(first.enginePids()).toContain(start.enginePid);
    for (const pid of first.enginePids()) await gone(pid, `orphaned engine ${pid} to exit`);
    const workspaces = () =>
      readdir(suite.tmpDir).then((names) => names.filter((n) => n.startsWith('studioshot-')));
    const leftBehind = await workspaces(); // the killed worker's photos and output
    expect(leftBehind).toHaveLength(1);

    const second = await WorkerProcess.start(suite, new LogCapture(), FAST_STALL);
    try {
      // The next worker sweeps it at start.
      expect(await workspaces()).not.toContain(leftBehind[0]);
      const task = await waitForFinalTask(suite, training.taskId);
      expect(task).toMatchObject({ status: 'completed', progress: 100, attempts: 2 });
      const state = await trainingState(suite, training);
      expect(state.model.status).toBe('completed');
      expect(state.modelsTrained).toBe(1); // reserved once by the API, never counted again
      expect(await storedModelFiles(suite, training)).toEqual(['model.npz', 'preview.jpg']);
      const job = await finishedTrainingJob(suite, training.taskId);
      expect(await job.getState()).toBe('completed');
      expect(second.logs.filter(engineStartFor(training.taskId))).toHaveLength(1);
    } finally {
      second.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    }
  }, 90_000);

  it('a job whose workers keep dying is failed for good by BullMQ: the task fails and the slot comes back', async () => {
    const training = await seedTraining(suite);
    const first = await WorkerProcess.start(suite, new LogCapture(), FAST_STALL);
    await enqueueTraining(suite, training);
    await first.logs.next(engineStartFor(training.taskId), 'engine start');
    first.kill('SIGKILL');
    await first.exited;

    // This worker allows no stall at all: the dead worker's job is over.
    const next = await startWorker(suite.env({ ...FAST_STALL, WORKER_MAX_STALLED_COUNT: '0' }), {
      db: suite.db,
      storage: suite.storage,
      logger: new LogCapture('warn').logger,
    });
    try {
      const job = await finishedTrainingJob(suite, training.taskId);
      expect(job.failedReason).toBe('job stalled more than allowable limit');
      const task = await waitForFinalTask(suite, training.taskId);
      expect(task).toMatchObject({
        status: 'failed',
        attempts: 1,
        error_message: 'Training stopped because the machine running it stopped responding.',
      });
      const state = await trainingState(suite, training);
      expect(state.model.status).toBe('failed');
      expect(state.modelsTrained).toBe(0);
    } finally {
      await next.close();
    }
  }, 60_000);

  it('SIGTERM: the running training is stopped after the grace and requeued without using an attempt', async () => {
    const training = await seedTraining(suite);
    const worker = await WorkerProcess.start(suite, new LogCapture(), {
      WORKER_SHUTDOWN_GRACE_MS: '300',
      ENGINE_CANCEL_GRACE_MS: '1000',
    });
    await enqueueTraining(suite, training, { priority: 'high' });
    const start = await worker.logs.next(engineStartFor(training.taskId), 'engine start');
    const stoppingAt = Date.now();
    worker.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - stoppingAt).toBeLessThan(5000);
    for (const pid of worker.enginePids()) await gone(pid, `engine ${pid} to exit`);
    expect(start.enginePid).toBeDefined();

    const job = await suite.queue(TRAINING_QUEUE).getJob(training.taskId);
    expect(['waiting', 'prioritized']).toContain(await job?.getState());
    expect(job?.attemptsMade).toBe(0);
    expect(await taskRow(suite, training.taskId)).toMatchObject({
      status: 'queued',
      progress: 0,
      message: 'Waiting for a worker: the previous one shut down',
    });

    const next = await startWorker(suite.env(), {
      db: suite.db,
      storage: suite.storage,
      logger: new LogCapture('warn').logger,
    });
    try {
      const task = await waitForFinalTask(suite, training.taskId);
      expect(task).toMatchObject({ status: 'completed', attempts: 2 });
      expect((await trainingState(suite, training)).modelsTrained).toBe(1);
    } finally {
      await next.close();
    }
  }, 90_000);
});

describe('engine deaths and hangs', () => {
  let worker: RunningWorker;
  const logs = new LogCapture('info');
  const metrics = new WorkerMetrics('studio');

  beforeAll(async () => {
    worker = await startWorker(
      suite.env({
        TRAINING_TIMEOUT_MS: '2000',
        ENGINE_CANCEL_GRACE_MS: '300',
        ENGINE_TERM_GRACE_MS: '300',
      }),
      { db: suite.db, storage: suite.storage, logger: logs.logger, metrics },
    );
  });

  afterAll(async () => {
    await worker?.close();
  });

  /** Does `act` to the engine of each attempt as it starts; returns their pids. */
  async function onEachEngine(taskId: string, attempts: number, act: (pid: number) => void) {
    const pids: number[] = [];
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const start = await logs.next(
        (r) => engineStartFor(taskId)(r) && !pids.includes(r.enginePid as number),
        `engine start of attempt ${attempt}`,
      );
      pids.push(start.enginePid as number);
      act(start.enginePid as number);
    }
    return pids;
  }

  it('an engine killed mid-run fails the attempt; after the last one the task fails clearly and the slot comes back', async () => {
    const training = await seedTraining(suite);
    await enqueueTraining(suite, training, { attempts: 2, backoffMs: 10 });
    const pids = await onEachEngine(training.taskId, 2, (pid) => process.kill(pid, 'SIGKILL'));
    const task = await waitForFinalTask(suite, training.taskId);
    expect(task).toMatchObject({
      status: 'failed',
      attempts: 2,
      error_message: 'The training engine stopped unexpectedly (signal SIGKILL)',
    });
    expect(task.gpu_seconds).toBeGreaterThan(0);
    const state = await trainingState(suite, training);
    expect(state.model.status).toBe('failed');
    expect(state.modelsTrained).toBe(0);
    const job = await finishedTrainingJob(suite, training.taskId);
    expect(job.attemptsMade).toBe(2);
    expect(await job.getState()).toBe('failed');
    for (const pid of pids) expect(await processAlive(pid)).toBe(false);
    // Both deaths are crashes on /metrics, and both attempts failed ones.
    const kind = { engine_kind: 'studio' };
    expect(await metricValue(metrics, 'studioshot_engine_crashes_total', kind)).toBe(2);
    expect(
      await metricValue(metrics, 'studioshot_engine_starts_total', kind),
    ).toBeGreaterThanOrEqual(2);
    expect(
      await metricValue(metrics, 'studioshot_job_duration_seconds_count', {
        type: 'model.train',
        engine_kind: 'studio',
        outcome: 'failed',
      }),
    ).toBe(2);
  });

  it('a hung engine is stopped by the time limit (cancel, SIGTERM, then SIGKILL) and the task fails after its retries', async () => {
    const training = await seedTraining(suite);
    await enqueueTraining(suite, training, { attempts: 2, backoffMs: 10 });
    // SIGSTOP: the engine reads nothing and ignores SIGTERM; only SIGKILL ends it.
    const pids = await onEachEngine(training.taskId, 2, (pid) => process.kill(pid, 'SIGSTOP'));
    const task = await waitForFinalTask(suite, training.taskId);
    expect(task).toMatchObject({
      status: 'failed',
      attempts: 2,
      error_message: 'Training took longer than 2 seconds and was stopped.',
    });
    const state = await trainingState(suite, training);
    expect(state.model.status).toBe('failed');
    expect(state.modelsTrained).toBe(0);
    for (const pid of pids) {
      await gone(pid, `hung engine ${pid} to be killed`);
      expect(
        logs.find(
          (r) => r.enginePid === pid && r.msg === 'engine exited' && r.signal === 'SIGKILL',
        ),
      ).toBeDefined();
    }
  });
});
