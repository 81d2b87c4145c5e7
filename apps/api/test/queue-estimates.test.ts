import {
  taskQueueName,
  ZPublicWaitEstimateSchema,
  ZQueueOverviewSchema,
  ZQueueTaskSchema,
  ZTrainingJobSchema,
  ZWaitTimeEstimateSchema,
  type EngineKind,
  type TaskType,
} from '@studioshot/contracts';
import { Queue, Worker } from 'bullmq';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TasksRepository } from '../src/repositories/tasks.repository.js';
import { PUBLIC_ESTIMATE_MAX_AGE_SECONDS } from '../src/services/queue.service.js';
import { bearer, createTestApp, type TestApp } from './helpers.js';
import {
  completedSession,
  startTraining,
  trainingUser,
  type TestUser,
} from './training-helpers.js';

/**
 * Durations from what the fleet measured: medians per task type and engine kind with
 * their sample size, null when nothing was measured; the public estimate the landing page shows;
 * and when a waiting or running task should be done.
 */

const connected: Worker[] = [];
const queues: Queue[] = [];
afterEach(async () => {
  await Promise.all(connected.splice(0).map((w) => w.close(true)));
});
afterAll(async () => {
  await Promise.all(queues.splice(0).map((q) => q.close()));
});

/** A connected worker on a task queue that takes no job: it counts as a worker. */
async function idleWorker(t: TestApp, type: TaskType, kind: EngineKind = 'studio') {
  const worker = new Worker(taskQueueName(type, kind), null, {
    connection: { ...t.c.redis.options, maxRetriesPerRequest: null },
    prefix: `${t.c.env.REDIS_PREFIX}bull`,
    autorun: false,
  });
  connected.push(worker);
  await worker.waitUntilReady();
}

function taskQueue(t: TestApp, type: TaskType, kind: EngineKind): Queue {
  const queue = new Queue(taskQueueName(type, kind), {
    connection: t.c.redis,
    prefix: `${t.c.env.REDIS_PREFIX}bull`,
  });
  queues.push(queue);
  return queue;
}

/** Finished tasks as the worker records them, each `seconds` long, the last ending 5 s ago. */
async function measuredRuns(
  t: TestApp,
  userId: string,
  type: TaskType,
  kind: EngineKind,
  seconds: number[],
  status: 'completed' | 'failed' = 'completed',
) {
  await t.c.db
    .insertInto('tasks')
    .values(
      seconds.map((s, i) => ({
        user_id: userId,
        task_type: type,
        engine_kind: kind,
        status,
        progress: 100,
        // Listed oldest first: each ends a second after the one before.
        started_at: sql<Date>`now() - make_interval(secs => ${s + 5 + seconds.length - i})`,
        completed_at: sql<Date>`now() - make_interval(secs => ${5 + seconds.length - i})`,
      })),
    )
    .execute();
}

describe('run durations per engine kind', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await trainingUser(t);
  });
  afterAll(() => t.close());

  it('takes the median of each engine kind on its own, with its sample size; null when none was measured', async () => {
    const tasks = new TasksRepository(t.c.db);
    expect(await tasks.runDurations('training', 'studio')).toEqual({
      medianSeconds: null,
      sampleSize: 0,
    });

    // Studio trainings take seconds, flux ones minutes; failed runs say nothing of a run's length.
    await measuredRuns(t, user.id, 'training', 'studio', [10, 20, 40]);
    await measuredRuns(t, user.id, 'training', 'flux', [600, 900, 1200, 1500]);
    await measuredRuns(t, user.id, 'training', 'studio', [5000, 5000], 'failed');

    expect(await tasks.runDurations('training', 'studio')).toEqual({
      medianSeconds: 20,
      sampleSize: 3,
    });
    expect(await tasks.runDurations('training', 'flux')).toEqual({
      medianSeconds: 1050,
      sampleSize: 4,
    });
    expect(await tasks.runDurations('generation', 'studio')).toEqual({
      medianSeconds: null,
      sampleSize: 0,
    });

    // The API runs studio (the default engine kind): its estimate is studio's alone.
    const res = await t.request
      .get('/api/v1/queue/estimate/wait-time/training/normal')
      .set(bearer(user.token));
    expect(res.status).toBe(200);
    expect(ZWaitTimeEstimateSchema.parse(res.body)).toMatchObject({
      engine_kind: 'studio',
      median_duration_seconds: 20,
      sample_size: 3,
    });
    const generation = await t.request
      .get('/api/v1/queue/estimate/wait-time/generation/normal')
      .set(bearer(user.token));
    expect(ZWaitTimeEstimateSchema.parse(generation.body)).toMatchObject({
      median_duration_seconds: null,
      sample_size: 0,
      workers: 0,
      estimated_wait_seconds: null,
    });

    // Each queue of the overview waits at its own kind's pace: one job ahead, one worker each.
    for (const kind of ['studio', 'flux'] as const) {
      await taskQueue(t, 'training', kind).add(
        'model.train',
        { task_id: crypto.randomUUID() },
        {
          priority: 10,
        },
      );
      await idleWorker(t, 'training', kind);
    }
    const overview = ZQueueOverviewSchema.parse(
      (await t.request.get('/api/v1/queue/status').set(bearer(user.token))).body,
    );
    const waitOf = (queue: string) =>
      overview.queues.find((q) => q.queue === queue)?.estimated_wait_seconds;
    expect(waitOf('training.studio')).toBe(20);
    expect(waitOf('training.flux')).toBe(1050);
    // Waiting work with nothing measured: no figure.
    await taskQueue(t, 'generation', 'studio').add(
      'generation.run',
      { task_id: crypto.randomUUID() },
      { priority: 10 },
    );
    await idleWorker(t, 'generation', 'studio');
    const again = ZQueueOverviewSchema.parse(
      (await t.request.get('/api/v1/queue/status').set(bearer(user.token))).body,
    );
    expect(again.queues.find((q) => q.queue === 'generation.studio')).toMatchObject({
      waiting: 1,
      workers: 1,
      estimated_wait_seconds: null,
    });
  });

  it('is taken over the latest 50 runs', async () => {
    // Ten slow old runs, then fifty quick recent ones: only the recent ones count.
    await measuredRuns(t, user.id, 'batch_generation', 'studio', [
      ...Array<number>(10).fill(900),
      ...Array<number>(50).fill(12),
    ]);
    expect(await new TasksRepository(t.c.db).runDurations('batch_generation', 'studio')).toEqual({
      medianSeconds: 12,
      sampleSize: 50,
    });
  });
});

describe('GET /api/v1/queue/estimate/public', () => {
  const PATH = '/api/v1/queue/estimate/public';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('needs no sign-in, is cacheable, and promises nothing it has not measured', async () => {
    const res = await t.request.get(PATH);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(`public, max-age=${PUBLIC_ESTIMATE_MAX_AGE_SECONDS}`);
    expect(PUBLIC_ESTIMATE_MAX_AGE_SECONDS).toBe(60);
    const unknown = {
      median_duration_seconds: null,
      sample_size: 0,
      estimated_wait_seconds: null,
      expected_seconds: null,
      worker_connected: false,
    };
    expect(ZPublicWaitEstimateSchema.parse(res.body)).toEqual({
      engine_kind: 'studio',
      training: unknown,
      generation: unknown,
      max_age_seconds: 60,
    });

    const etag = res.headers.etag as string | undefined;
    expect(etag).toMatch(/^W\/".+"$/);
    const unchanged = await t.request.get(PATH).set('If-None-Match', etag!);
    expect(unchanged.status).toBe(304);
    expect(unchanged.text ?? '').toBe('');

    // A token, even a bad one, changes nothing: the call is the same for everyone.
    const withToken = await t.request.get(PATH).set(bearer('not-a-token'));
    expect(withToken.status).toBe(200);
    expect(withToken.headers.etag).toBe(etag);
  });

  it('is the wait plus the measured median for each kind of work, kept for its max-age', async () => {
    const before = await t.request.get(PATH);
    const user = await trainingUser(t, 2);
    await measuredRuns(t, user.id, 'training', 'studio', [10, 20, 40]);
    await measuredRuns(t, user.id, 'generation', 'studio', [2, 4]);
    // Flux runs are another engine kind's: they do not count for studio.
    await measuredRuns(t, user.id, 'training', 'flux', [900, 900]);
    await idleWorker(t, 'training');
    await idleWorker(t, 'generation');
    // Two trainings waiting at a new visitor's priority: a new one would run after both.
    await startTraining(t, user, await completedSession(t, user.id));
    await startTraining(t, user, await completedSession(t, user.id));

    // Within the max-age the same answer (and ETag) is served.
    const cached = await t.request.get(PATH);
    expect(cached.headers.etag).toBe(before.headers.etag);
    expect(cached.body).toEqual(before.body);

    // Once it has passed, the figures are read again.
    const fresh = await t.c.queue.publicEstimate(
      Date.now() + PUBLIC_ESTIMATE_MAX_AGE_SECONDS * 1000 + 1,
    );
    expect(fresh).toEqual({
      engine_kind: 'studio',
      training: {
        median_duration_seconds: 20,
        sample_size: 3,
        // Two ahead at 20 s each, one worker.
        estimated_wait_seconds: 40,
        expected_seconds: 60,
        worker_connected: true,
      },
      generation: {
        median_duration_seconds: 3,
        sample_size: 2,
        estimated_wait_seconds: 0,
        expected_seconds: 3,
        worker_connected: true,
      },
      max_age_seconds: 60,
    });
    const served = await t.request.get(PATH);
    expect(ZPublicWaitEstimateSchema.parse(served.body)).toEqual(fresh);
    expect(served.headers.etag).not.toBe(before.headers.etag);
  });
});

describe('a pool that scales to zero (ENGINE_COLD_START_SECONDS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ENGINE_KIND: 'flux', ENGINE_COLD_START_SECONDS: 'flux=60' });
  });
  afterAll(() => t.close());

  it("with no worker connected, waits the first worker's start, then the tasks ahead on it", async () => {
    const user = await trainingUser(t, 2);
    await measuredRuns(t, user.id, 'training', 'flux', [300, 300]);
    const empty = await t.c.queue.publicEstimate(Date.now());
    expect(empty.training).toEqual({
      median_duration_seconds: 300,
      sample_size: 2,
      estimated_wait_seconds: 60,
      expected_seconds: 360,
      worker_connected: false,
    });
    // One training ahead, and still no worker: the start, then that training.
    await startTraining(t, user, await completedSession(t, user.id));
    const later = Date.now() + PUBLIC_ESTIMATE_MAX_AGE_SECONDS * 1000 + 1;
    expect((await t.c.queue.publicEstimate(later)).training.estimated_wait_seconds).toBe(360);
    // A worker up: no start to wait for.
    await idleWorker(t, 'training', 'flux');
    const warm = await t.c.queue.publicEstimate(later + PUBLIC_ESTIMATE_MAX_AGE_SECONDS * 1000 + 1);
    expect(warm.training.estimated_wait_seconds).toBe(300);
    expect(warm.training.worker_connected).toBe(true);
  });
});

describe("a task's estimated completion", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The estimate as an offset from the moment of the call, in ms (bounds of the request). */
  async function completionIn(user: TestUser, path: string) {
    const from = Date.now();
    const res = await t.request.get(path).set(bearer(user.token));
    const to = Date.now();
    expect(res.status, path).toBe(200);
    const at = (res.body as { estimated_completion: string | null }).estimated_completion;
    return at === null ? null : { min: Date.parse(at) - to, max: Date.parse(at) - from };
  }

  it('is filled for queued tasks from their place in line and the measured median', async () => {
    const user = await trainingUser(t, 2);
    const first = await startTraining(t, user, await completedSession(t, user.id));
    const second = await startTraining(t, user, await completedSession(t, user.id));
    expect(first.estimated_completion).toBeNull();

    // Nothing measured, no worker: unknown, on every call that answers it.
    for (const path of [
      `/api/v1/queue/status/${second.id}`,
      `/api/v1/training/jobs/${second.id}`,
      `/models/training-status?training_id=${second.id}`,
    ]) {
      expect(await completionIn(user, path), path).toBeNull();
    }
    // Measured, but no worker connected: nothing would run it.
    await measuredRuns(t, user.id, 'training', 'studio', [30, 30, 30]);
    expect(await completionIn(user, `/api/v1/queue/status/${first.id}`)).toBeNull();

    await idleWorker(t, 'training');
    // First in line: its own run. Second: the first's run, then its own.
    const firstEta = await completionIn(user, `/api/v1/queue/status/${first.id}`);
    expect(firstEta!.min).toBeLessThanOrEqual(30_000);
    expect(firstEta!.max).toBeGreaterThanOrEqual(30_000);
    for (const path of [
      `/api/v1/queue/status/${second.id}`,
      `/api/v1/training/jobs/${second.id}`,
      `/models/training-status?training_id=${second.id}`,
    ]) {
      const eta = await completionIn(user, path);
      expect(eta!.min, path).toBeLessThanOrEqual(60_000);
      expect(eta!.max, path).toBeGreaterThanOrEqual(60_000);
    }
    const listed = await t.request.get('/api/v1/training/jobs').set(bearer(user.token));
    const jobs = (listed.body as { jobs: unknown[] }).jobs.map((j) => ZTrainingJobSchema.parse(j));
    expect(jobs.every((job) => job.estimated_completion !== null)).toBe(true);
  });

  it('is the start plus the median for a running task before any progress, and null once ended', async () => {
    const user = await trainingUser(t);
    const job = await startTraining(t, user, await completedSession(t, user.id));
    await t.c.db
      .updateTable('tasks')
      .set({ status: 'running', progress: 0, started_at: sql`now() - interval '10 seconds'` })
      .where('id', '=', job.id)
      .execute();
    const running = ZQueueTaskSchema.parse(
      (await t.request.get(`/api/v1/queue/status/${job.id}`).set(bearer(user.token))).body,
    );
    // The median of this suite's studio trainings: 30 s.
    expect(Date.parse(running.estimated_completion!) - Date.parse(running.started_at!)).toBe(
      30_000,
    );
    await t.c.db
      .updateTable('tasks')
      .set({ status: 'completed', progress: 100, completed_at: sql`now()` })
      .where('id', '=', job.id)
      .execute();
    const done = ZQueueTaskSchema.parse(
      (await t.request.get(`/api/v1/queue/status/${job.id}`).set(bearer(user.token))).body,
    );
    expect(done.estimated_completion).toBeNull();
  });
});
