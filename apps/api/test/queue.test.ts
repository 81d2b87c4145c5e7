import {
  MESSAGES,
  ZCostProjectionSchema,
  ZQueueHealthSchema,
  ZQueueOverviewSchema,
  ZQueueTaskSchema,
  ZWaitTimeEstimateSchema,
} from '@studioshot/contracts';
import { Worker, type Job, type Queue } from 'bullmq';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers.js';
import {
  completedSession,
  modelsTrained,
  rowCounts,
  startTraining,
  TRAINING_QUEUE,
  trainingQueue,
  trainingUser,
  type TestUser,
} from './training-helpers.js';

let t: TestApp;
let queue: Queue;
beforeAll(async () => {
  t = await createTestApp();
  queue = trainingQueue(t);
});
afterAll(async () => {
  await queue.close();
  await t.close();
});

/** Empties the training queue between tests: positions and counts start from nothing. */
afterEach(async () => {
  await queue.obliterate({ force: true });
});

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close(true)));
});

/** A connected training worker that takes no job (it never runs): it counts as a worker. */
async function idleWorker(): Promise<Worker> {
  const worker = new Worker(TRAINING_QUEUE, null, {
    connection: { ...t.c.redis.options, maxRetriesPerRequest: null },
    prefix: `${t.c.env.REDIS_PREFIX}bull`,
    autorun: false,
  });
  workers.push(worker);
  await worker.waitUntilReady();
  return worker;
}

const get = (user: TestUser, path: string) => t.request.get(path).set(bearer(user.token));

async function newTraining(user: TestUser, priority = 'normal') {
  return startTraining(t, user, await completedSession(t, user.id), { priority });
}

describe('GET /api/v1/queue/user/status', () => {
  it("counts the user's own tasks by state", async () => {
    const user = await trainingUser(t, 4);
    const [a, b, c] = [await newTraining(user), await newTraining(user), await newTraining(user)];
    await t.c.db.updateTable('tasks').set({ status: 'running' }).where('id', '=', a.id).execute();
    await t.c.db.updateTable('tasks').set({ status: 'completed' }).where('id', '=', b.id).execute();
    await t.c.db.updateTable('tasks').set({ status: 'pending' }).where('id', '=', c.id).execute();
    await newTraining(user);
    await newTraining(await trainingUser(t));
    const res = await get(user, '/api/v1/queue/user/status');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pending_tasks: 2, running_tasks: 1, total_tasks: 4 });
  });
});

describe('submitting tasks', () => {
  it('POST /queue/submit with a training runs the training start and answers the task', async () => {
    const user = await trainingUser(t, 1, 'premium');
    const session = await completedSession(t, user.id);
    const res = await t.request
      .post('/api/v1/queue/submit')
      .set(bearer(user.token))
      .send({
        task_type: 'training',
        priority: 'high',
        params: { model_name: 'Queued me', session_id: session },
      });
    expect(res.status).toBe(201);
    const task = ZQueueTaskSchema.parse(res.body);
    expect(task).toMatchObject({
      task_id: task.id,
      task_type: 'training',
      priority: 'high',
      status: 'queued',
      progress: 0,
      position: 0,
    });
    expect((await queue.getJob(task.id))?.opts.priority).toBe(5);
    const training = await get(user, `/api/v1/training/jobs/${task.id}`);
    expect(training.body).toMatchObject({ name: 'Queued me', session_id: session });
  });

  it('POST /queue/training/start-queued is the training start with a priority', async () => {
    const user = await trainingUser(t, 1, 'premium');
    const res = await t.request
      .post('/api/v1/queue/training/start-queued')
      .set(bearer(user.token))
      .send({
        model_name: 'Start queued',
        session_id: await completedSession(t, user.id),
        priority: 'urgent',
      });
    expect(res.status).toBe(201);
    expect(ZQueueTaskSchema.parse(res.body).priority).toBe('urgent');
    expect(await modelsTrained(t, user.id)).toBe(1);
  });

  it('refuses bad generation and training params, changing nothing', async () => {
    const user = await trainingUser(t);
    const session = await completedSession(t, user.id);
    const before = await rowCounts(t);
    const cases: [string, object, string | RegExp][] = [
      [
        '/api/v1/queue/submit',
        { task_type: 'generation', params: { prompt: 'x', idempotency_key: 'short' } },
        /params\.idempotency_key/,
      ],
      [
        '/api/v1/queue/submit',
        { task_type: 'batch_generation', params: { template_ids: ['nope'] } },
        'params.template_ids.0: Unknown template',
      ],
      [
        '/api/v1/queue/generation/start-queued',
        { prompt: 'x', idempotency_key: 'short' },
        /idempotency_key/,
      ],
      ['/api/v1/queue/submit', { task_type: 'painting', params: {} }, /task_type/],
      [
        '/api/v1/queue/submit',
        { task_type: 'training', params: { session_id: session } },
        'params.model_name is required',
      ],
      [
        '/api/v1/queue/submit',
        {
          task_type: 'training',
          priority: 'asap',
          params: { model_name: 'x', session_id: session },
        },
        /^priority: /,
      ],
      ['/api/v1/queue/training/start-queued', { session_id: session }, 'model_name is required'],
    ];
    for (const [path, body, detail] of cases) {
      const res = await t.request.post(path).set(bearer(user.token)).send(body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(422);
      if (typeof detail === 'string') expect(res.body.detail).toBe(detail);
      else expect(res.body.detail).toMatch(detail);
    }
    expect(await rowCounts(t)).toEqual(before);
    expect(await modelsTrained(t, user.id)).toBe(0);
  });
});

describe('GET /api/v1/queue/status/{id}', () => {
  it('answers the task with its place in line: better priority first, then arrival', async () => {
    const user = await trainingUser(t, 3, 'premium');
    const firstNormal = await newTraining(user, 'normal');
    const secondNormal = await newTraining(user, 'normal');
    const urgent = await newTraining(user, 'urgent');
    const position = async (id: string) => {
      const res = await get(user, `/api/v1/queue/status/${id}`);
      expect(res.status).toBe(200);
      return ZQueueTaskSchema.parse(res.body).position;
    };
    expect(await position(urgent.id)).toBe(0);
    expect(await position(firstNormal.id)).toBe(1);
    expect(await position(secondNormal.id)).toBe(2);

    await t.c.db
      .updateTable('tasks')
      .set({ status: 'running', progress: 30, message: 'Training', started_at: sql`now()` })
      .where('id', '=', urgent.id)
      .execute();
    const running = ZQueueTaskSchema.parse(
      (await get(user, `/api/v1/queue/status/${urgent.id}`)).body,
    );
    expect(running).toMatchObject({
      status: 'running',
      progress: 30,
      message: 'Training',
      position: null,
    });
  });

  it("is 404 for another user's task, an unknown one and a malformed id", async () => {
    const owner = await trainingUser(t);
    const task = await newTraining(owner);
    const stranger = await trainingUser(t);
    for (const [who, id] of [
      [stranger, task.id],
      [owner, '00000000-0000-4000-8000-000000000000'],
      [owner, 'nope'],
    ] as const) {
      const res = await get(who, `/api/v1/queue/status/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: MESSAGES.taskNotFound, code: 'not_found' });
    }
  });
});

describe('DELETE /api/v1/queue/cancel/{id}', () => {
  const cancel = (user: TestUser, id: string) =>
    t.request.delete(`/api/v1/queue/cancel/${id}`).set(bearer(user.token));

  it('cancels a waiting training: job gone from Redis, model failed, slot back, photos free', async () => {
    const user = await trainingUser(t);
    const session = await completedSession(t, user.id);
    const job = await startTraining(t, user, session);
    expect(await modelsTrained(t, user.id)).toBe(1);

    const res = await cancel(user, job.id);
    expect(res.status).toBe(200);
    expect(ZQueueTaskSchema.parse(res.body)).toMatchObject({
      status: 'cancelled',
      error_message: 'Cancelled',
      position: null,
    });
    expect(await queue.getJob(job.id)).toBeUndefined();
    expect(await modelsTrained(t, user.id)).toBe(0);
    const training = (await get(user, `/api/v1/training/jobs/${job.id}`)).body;
    expect(training).toMatchObject({
      status: 'failed',
      task_status: 'cancelled',
      error_message: 'Cancelled',
    });
    const model = await t.c.db
      .selectFrom('models')
      .select('status')
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(model.status).toBe('failed');

    const again = await cancel(user, job.id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(MESSAGES.taskNotCancellable);
    // The same photos can be trained again.
    await startTraining(t, user, session);
  });

  it('refuses a running training, and one a worker has just taken', async () => {
    const user = await trainingUser(t, 2);
    const running = await newTraining(user);
    await t.c.db
      .updateTable('tasks')
      .set({ status: 'running' })
      .where('id', '=', running.id)
      .execute();
    const res = await cancel(user, running.id);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(MESSAGES.trainingNotCancellable);

    // A worker holds the job's lock before it could write 'running'.
    await queue.obliterate({ force: true });
    const taken = await newTraining(user);
    const worker = await idleWorker();
    const lockToken = 'stand-in-worker';
    const job = (await worker.getNextJob(lockToken)) as Job | undefined;
    expect(job?.id).toBe(taken.id);
    const refused = await cancel(user, taken.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(MESSAGES.trainingNotCancellable);
    expect(await queue.getJob(taken.id)).toBeDefined();
    expect(await modelsTrained(t, user.id)).toBe(2);
  });

  it("refuses a finished task, and answers 404 for another user's", async () => {
    const user = await trainingUser(t);
    const done = await newTraining(user);
    await t.c.db
      .updateTable('tasks')
      .set({ status: 'completed' })
      .where('id', '=', done.id)
      .execute();
    const res = await cancel(user, done.id);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(MESSAGES.taskNotCancellable);
    const stranger = await trainingUser(t);
    expect((await cancel(stranger, done.id)).status).toBe(404);
    expect((await cancel(stranger, 'not-a-task')).status).toBe(404);
  });
});

describe('the fleet', () => {
  /** Completed training runs as the worker records them, `minutes` long each. */
  async function completedRuns(userId: string, minutes: number[]) {
    await t.c.db
      .insertInto('tasks')
      .values(
        minutes.map((m) => ({
          user_id: userId,
          task_type: 'training' as const,
          status: 'completed' as const,
          progress: 100,
          started_at: sql<Date>`now() - make_interval(mins => ${m + 5})`,
          completed_at: sql<Date>`now() - interval '5 minutes'`,
        })),
      )
      .execute();
  }

  it('estimates the wait from the jobs ahead, the median run time and the workers', async () => {
    // Premium: its plan allows the high priority asked for.
    const user = await trainingUser(t, 3, 'premium');
    await completedRuns(user.id, [10, 20, 40]);
    await newTraining(user, 'normal');
    await newTraining(user, 'normal');
    await newTraining(user, 'high');
    const estimate = async (type: string, priority: string) => {
      const res = await get(user, `/api/v1/queue/estimate/wait-time/${type}/${priority}`);
      expect(res.status).toBe(200);
      return ZWaitTimeEstimateSchema.parse(res.body);
    };
    expect(await estimate('training', 'normal')).toEqual({
      task_type: 'training',
      priority: 'normal',
      engine_kind: 'studio',
      jobs_ahead: 3,
      workers: 0,
      median_duration_seconds: 1200,
      sample_size: 3,
      estimated_wait_seconds: null,
    });
    await idleWorker();
    await idleWorker();
    expect(await estimate('training', 'high')).toMatchObject({
      jobs_ahead: 1,
      workers: 2,
      estimated_wait_seconds: 600,
    });
    expect(await estimate('training', 'urgent')).toMatchObject({
      jobs_ahead: 0,
      estimated_wait_seconds: 0,
    });
    // No history yet: no figure is made up (and no generation worker is connected).
    expect(await estimate('generation', 'normal')).toMatchObject({
      jobs_ahead: 0,
      workers: 0,
      median_duration_seconds: null,
      sample_size: 0,
      estimated_wait_seconds: null,
    });
    for (const path of ['training/whenever', 'painting/normal']) {
      const res = await get(user, `/api/v1/queue/estimate/wait-time/${path}`);
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe(MESSAGES.unknownWaitEstimate);
    }
  });

  it('GET /queue/status: counts per queue from BullMQ, with the workers', async () => {
    const user = await trainingUser(t, 2);
    await newTraining(user);
    await newTraining(user, 'urgent');
    await idleWorker();
    const res = await get(user, '/api/v1/queue/status');
    expect(res.status).toBe(200);
    const overview = ZQueueOverviewSchema.parse(res.body);
    // Each task type on each engine kind.
    expect(overview.queues.map((q) => q.queue)).toEqual([
      'training.studio',
      'training.flux',
      'generation.studio',
      'generation.flux',
      'batch-generation.studio',
      'batch-generation.flux',
    ]);
    expect(overview.queues[0]).toMatchObject({
      task_type: 'training',
      queue: TRAINING_QUEUE,
      waiting: 2,
      active: 0,
      delayed: 0,
      failed: 0,
      workers: 1,
    });
    expect(overview.queues[0]?.estimated_wait_seconds).toEqual(expect.any(Number));
    expect(overview.queues[2]).toMatchObject({
      task_type: 'generation',
      waiting: 0,
      workers: 0,
      estimated_wait_seconds: null,
    });
  });

  it('GET /queue/monitor/health: healthy with nothing waiting, degraded when jobs wait with no worker', async () => {
    const user = await trainingUser(t);
    const healthy = await get(user, '/api/v1/queue/monitor/health');
    expect(healthy.status).toBe(200);
    const body = ZQueueHealthSchema.parse(healthy.body);
    expect(body).toMatchObject({ status: 'healthy', issues: [], redis: { up: true } });
    expect(body.redis.latency_ms).toBeGreaterThanOrEqual(0);
    expect(body.queues[0]).toMatchObject({ waiting: 0, stalled: 0, oldest_waiting_seconds: null });

    await newTraining(user);
    const degraded = await get(user, '/api/v1/queue/monitor/health');
    expect(degraded.status).toBe(503);
    const report = ZQueueHealthSchema.parse(degraded.body);
    expect(report.status).toBe('degraded');
    expect(report.issues).toEqual([`${TRAINING_QUEUE}: 1 waiting and no worker connected`]);
    expect(report.queues[0]?.oldest_waiting_seconds).toBeGreaterThanOrEqual(0);

    await idleWorker();
    expect((await get(user, '/api/v1/queue/monitor/health')).status).toBe(200);
  });

  it('the monitor reports a running job whose worker died (its lock lapsed)', async () => {
    const user = await trainingUser(t);
    const training = await newTraining(user);
    const worker = await idleWorker();
    await worker.getNextJob('dead-worker');
    await t.c.redis.del(`${t.c.env.REDIS_PREFIX}bull:${TRAINING_QUEUE}:${training.id}:lock`);
    const res = await get(user, '/api/v1/queue/monitor/health');
    expect(res.status).toBe(503);
    const report = ZQueueHealthSchema.parse(res.body);
    expect(report.queues[0]).toMatchObject({ active: 1, stalled: 1 });
    expect(report.issues).toContain(`${TRAINING_QUEUE}: 1 running without a live worker`);
  });

  it('every queue call needs a token', async () => {
    for (const [method, path] of [
      ['get', '/api/v1/queue/user/status'],
      ['get', '/api/v1/queue/status'],
      ['get', '/api/v1/queue/monitor/health'],
      ['get', '/api/v1/queue/cost/projection'],
      ['get', '/api/v1/queue/estimate/wait-time/training/normal'],
      ['get', '/api/v1/queue/status/00000000-0000-4000-8000-000000000000'],
      ['delete', '/api/v1/queue/cancel/00000000-0000-4000-8000-000000000000'],
      ['post', '/api/v1/queue/submit'],
      ['post', '/api/v1/queue/training/start-queued'],
      ['post', '/api/v1/queue/generation/start-queued'],
    ] as const) {
      expect((await t.request[method](path)).status, path).toBe(401);
    }
  });
});

describe('GET /api/v1/queue/cost/projection', () => {
  // Fleet-wide figures: a database of its own, so other tests' tasks do not count.
  let fleet: TestApp;
  beforeAll(async () => {
    fleet = await createTestApp();
  });
  afterAll(() => fleet.close());

  async function projection(token: string) {
    const res = await fleet.request.get('/api/v1/queue/cost/projection').set(bearer(token));
    expect(res.status).toBe(200);
    return ZCostProjectionSchema.parse(res.body);
  }

  async function billed(userId: string, gpuSeconds: number, daysAgo: number) {
    await fleet.c.db
      .insertInto('tasks')
      .values({
        user_id: userId,
        task_type: 'training',
        status: 'completed',
        gpu_seconds: gpuSeconds,
        started_at: sql<Date>`now() - make_interval(days => ${daysAgo}) - interval '1 hour'`,
        completed_at: sql<Date>`now() - make_interval(days => ${daysAgo})`,
      })
      .execute();
  }

  it('prices the GPU seconds really used, scaled to a month, against an always-on GPU', async () => {
    const user = await trainingUser(fleet);
    expect(await projection(user.token)).toEqual({
      projected_monthly_cost: 0,
      always_on_cost: 1130,
      savings_percent: 100,
      efficiency_rating: 'excellent',
      gpu_seconds_last_30_days: 0,
      gpu_hourly_rate: 2.49,
    });

    await billed(user.id, 3600, 15);
    await billed(user.id, 7200, 2);
    await billed(user.id, 500_000, 45); // outside the 30 days
    // 3 GPU hours over the 15 days observed: 6 hours a month at $2.49.
    expect(await projection(user.token)).toEqual({
      projected_monthly_cost: 14.94,
      always_on_cost: 1130,
      savings_percent: 98.7,
      efficiency_rating: 'excellent',
      gpu_seconds_last_30_days: 10_800,
      gpu_hourly_rate: 2.49,
    });

    // 3 + 147 hours over 15 days: 300 hours a month, $747 against $1130.
    await billed(user.id, 147 * 3600, 1);
    expect(await projection(user.token)).toMatchObject({
      projected_monthly_cost: 747,
      savings_percent: 33.9,
      efficiency_rating: 'fair',
    });
    await billed(user.id, 100 * 3600, 1);
    expect(await projection(user.token)).toMatchObject({
      savings_percent: 0,
      efficiency_rating: 'poor',
    });
  });
});

describe('tasks no worker can run', () => {
  const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
  const limitMinutes = () => t.c.env.TASK_NO_WORKER_TIMEOUT_MS / 60_000;

  it('fail once they waited past the limit with no worker of their kind, and give the slot back', async () => {
    const user = await trainingUser(t);
    const training = await newTraining(user);
    expect(await modelsTrained(t, user.id)).toBe(1);
    // Not yet past the limit: nothing happens. (Other tests' trainings wait here too.)
    expect(await t.c.queue.failUnservedTasks(later(limitMinutes() - 1))).not.toContain(training.id);
    expect(await t.c.queue.failUnservedTasks(later(limitMinutes() + 1))).toContain(training.id);
    const task = ZQueueTaskSchema.parse(
      (await get(user, `/api/v1/queue/status/${training.id}`)).body,
    );
    expect(task).toMatchObject({ status: 'failed', error_message: MESSAGES.noWorkerForTraining });
    expect(await modelsTrained(t, user.id)).toBe(0);
    expect(await queue.getJob(training.id)).toBeUndefined();
    // Once: a second sweep finds nothing more to fail.
    expect(await t.c.queue.failUnservedTasks(later(limitMinutes() + 2))).not.toContain(training.id);
    expect(await modelsTrained(t, user.id)).toBe(0);
  });

  it('wait on while a worker of their kind is connected, however long', async () => {
    const user = await trainingUser(t);
    const training = await newTraining(user);
    await idleWorker();
    expect(await t.c.queue.failUnservedTasks(later(limitMinutes() * 10))).not.toContain(
      training.id,
    );
    const row = await t.c.db
      .selectFrom('tasks')
      .select(['status', 'engine_kind'])
      .where('id', '=', training.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'queued', engine_kind: 'studio' });
  });
});
