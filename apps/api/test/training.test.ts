import {
  BULL_PRIORITY,
  MESSAGES,
  ZModelsStatusSchema,
  ZStartTrainingResponseSchema,
  ZTrainingJobSchema,
  type TrainingJob,
} from '@studioshot/contracts';
import type { Queue } from 'bullmq';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer } from '../src/container.js';
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

const jobCount = () => queue.getJobCountByTypes('wait', 'prioritized', 'active', 'delayed');

describe('POST /api/v1/training/start', () => {
  it('creates the model and its task in one go, takes a slot and queues the run', async () => {
    const user = await trainingUser(t);
    const session = await completedSession(t, user.id, { usable: 11, unusable: 3 });
    const res = await t.request.post('/api/v1/training/start').set(bearer(user.token)).send({
      model_name: '  Studio me  ',
      trigger_word: 'person',
      user_id: user.id,
      session_id: session,
    });
    expect(res.status).toBe(201);
    const job = ZStartTrainingResponseSchema.parse(res.body);
    expect(job).toMatchObject({
      training_id: job.id,
      model_id: job.id,
      session_id: session,
      model_name: 'Studio me',
      name: 'Studio me',
      status: 'pending',
      task_status: 'queued',
      progress: 0,
      progress_percentage: 0,
      started_at: null,
      completed_at: null,
      estimated_completion: null,
      training_photos: 11,
      error_message: null,
      model_path: null,
    });
    expect(job.message).toEqual(expect.any(String));

    const model = await t.c.db
      .selectFrom('models')
      .selectAll()
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(model).toMatchObject({
      user_id: user.id,
      session_id: session,
      status: 'pending',
      model_type: 'studio',
      trigger_word: 'person',
    });
    const task = await t.c.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(task).toMatchObject({
      user_id: user.id,
      task_type: 'training',
      status: 'queued',
      priority: 'normal',
      model_id: job.id,
      params: { session_id: session },
    });
    const upload = await t.request
      .get(`/api/v1/upload/sessions/${session}`)
      .set(bearer(user.token));
    expect(upload.body).toEqual({ status: 'completed', training_id: job.id });
    expect(await modelsTrained(t, user.id)).toBe(1);

    const queued = await queue.getJob(job.id);
    expect(queued?.name).toBe('model.train');
    // The start request's id travels with the job, into the worker's and the engine's lines.
    expect(queued?.data).toEqual({ task_id: job.id, request_id: res.headers['x-request-id'] });
    expect(queued?.opts).toMatchObject({
      priority: BULL_PRIORITY.normal,
      attempts: 3,
      backoff: { type: 'exponential', delay: 10_000 },
    });
    expect(await queued?.getState()).toBe('prioritized');
  });

  it('takes a trigger word and a priority, and the same call answers on /models/start-training', async () => {
    const user = await trainingUser(t, 2, 'premium');
    const res = await t.request
      .post('/models/start-training')
      .set(bearer(user.token))
      .send({
        model_name: 'Urgent me',
        trigger_word: 'ohwx',
        session_id: await completedSession(t, user.id),
        priority: 'urgent',
      });
    expect(res.status).toBe(201);
    const job = ZStartTrainingResponseSchema.parse(res.body);
    expect((await queue.getJob(job.id))?.opts.priority).toBe(BULL_PRIORITY.urgent);
    const model = await t.c.db
      .selectFrom('models')
      .select('trigger_word')
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(model.trigger_word).toBe('ohwx');
  });

  describe('refusals change nothing: no rows, the same slots, nothing queued', () => {
    let owner: TestUser;
    let ownSession: string;
    beforeAll(async () => {
      owner = await trainingUser(t, 2);
      ownSession = await completedSession(t, owner.id);
    });

    async function expectRefused(
      user: TestUser,
      body: Record<string, unknown>,
      status: number,
      detail: string | RegExp,
      path = '/api/v1/training/start',
    ) {
      const before = { rows: await rowCounts(t), jobs: await jobCount() };
      const slots = await modelsTrained(t, user.id);
      const res = await t.request.post(path).set(bearer(user.token)).send(body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (typeof detail === 'string')
        expect(res.body).toEqual({ detail, code: expect.any(String) });
      else expect(res.body.detail).toMatch(detail);
      expect({ rows: await rowCounts(t), jobs: await jobCount() }).toEqual(before);
      expect(await modelsTrained(t, user.id)).toBe(slots);
    }

    it('bad input: the field and the rule', async () => {
      await expectRefused(owner, { session_id: ownSession }, 422, 'model_name is required');
      await expectRefused(
        owner,
        { model_name: '   ', session_id: ownSession },
        422,
        'model_name: Model name is required',
      );
      await expectRefused(
        owner,
        { model_name: 'x', session_id: 'not-a-session' },
        422,
        `session_id: ${MESSAGES.sessionNotFound}`,
      );
      await expectRefused(
        owner,
        { model_name: 'x', session_id: ownSession, trigger_word: 'a b; drop' },
        422,
        /^trigger_word: /,
      );
      await expectRefused(
        owner,
        { model_name: 'x', session_id: ownSession, priority: 'immediately' },
        422,
        /^priority: /,
      );
      await expectRefused(
        owner,
        { model_name: 'x', session_id: ownSession, is_admin: true },
        422,
        /is_admin/,
      );
      await expectRefused(
        owner,
        [] as unknown as Record<string, unknown>,
        422,
        /required|expected/,
      );
    });

    it('without a token', async () => {
      const res = await t.request
        .post('/api/v1/training/start')
        .send({ model_name: 'x', session_id: ownSession });
      expect(res.status).toBe(401);
      expect(res.body.detail).toBe(MESSAGES.authRequired);
    });

    it("for someone else's account", async () => {
      const other = await trainingUser(t);
      await expectRefused(
        owner,
        { model_name: 'x', session_id: ownSession, user_id: other.id },
        403,
        MESSAGES.trainingForAnotherUser,
      );
    });

    it("on another user's session, or one that does not exist", async () => {
      const intruder = await trainingUser(t);
      await expectRefused(
        intruder,
        { model_name: 'x', session_id: ownSession },
        404,
        MESSAGES.sessionNotFound,
      );
      await expectRefused(
        owner,
        { model_name: 'x', session_id: '00000000-0000-4000-8000-000000000000' },
        404,
        MESSAGES.sessionNotFound,
      );
    });

    it('on a session still uploading', async () => {
      const open = await completedSession(t, owner.id, { status: 'uploading' });
      await expectRefused(
        owner,
        { model_name: 'x', session_id: open },
        409,
        MESSAGES.sessionNotReady,
      );
    });

    it('without a plan, and at the training limit', async () => {
      const free = await trainingUser(t, 0);
      await expectRefused(
        free,
        { model_name: 'x', session_id: await completedSession(t, free.id) },
        403,
        MESSAGES.planRequired,
      );
      const full = await trainingUser(t, 1);
      await t.c.db
        .updateTable('users')
        .set({ models_trained: 1 })
        .where('id', '=', full.id)
        .execute();
      await expectRefused(
        full,
        { model_name: 'x', session_id: await completedSession(t, full.id) },
        403,
        MESSAGES.trainingLimit,
        '/models/start-training',
      );
    });

    it('twice on one session', async () => {
      await startTraining(t, owner, ownSession);
      await expectRefused(
        owner,
        { model_name: 'again', session_id: ownSession },
        409,
        MESSAGES.sessionAlreadyTrained,
      );
    });
  });

  it('concurrent starts at the limit: exactly the allowed number win', async () => {
    const user = await trainingUser(t, 2);
    const sessions = await Promise.all(
      Array.from({ length: 6 }, () => completedSession(t, user.id)),
    );
    const before = await jobCount();
    const results = await Promise.all(
      sessions.map((session, i) =>
        t.request
          .post('/api/v1/training/start')
          .set(bearer(user.token))
          .send({ model_name: `Model ${i}`, session_id: session }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 403, 403, 403, 403]);
    for (const refused of results.filter((r) => r.status === 403))
      expect(refused.body.detail).toBe(MESSAGES.trainingLimit);
    expect(await modelsTrained(t, user.id)).toBe(2);
    const tasks = await t.c.db
      .selectFrom('tasks')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(tasks).toHaveLength(2);
    expect(await jobCount()).toBe(before + 2);
  });

  it('concurrent starts on one session: one training', async () => {
    const user = await trainingUser(t, 3);
    const session = await completedSession(t, user.id);
    const results = await Promise.all(
      [1, 2, 3].map((i) =>
        t.request
          .post('/api/v1/training/start')
          .set(bearer(user.token))
          .send({ model_name: `Model ${i}`, session_id: session }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await modelsTrained(t, user.id)).toBe(1);
  });

  it('when the queue refuses the job: 503, the training released and the slot given back', async () => {
    const user = await trainingUser(t);
    const session = await completedSession(t, user.id);
    // Redis refuses BullMQ's add script: the queue's metadata hash is not a hash any more.
    const metaKey = `${t.c.env.REDIS_PREFIX}bull:${TRAINING_QUEUE}:meta`;
    const meta = await t.c.redis.hgetall(metaKey);
    await t.c.redis.del(metaKey);
    await t.c.redis.set(metaKey, 'not a hash');
    let res;
    try {
      res = await t.request
        .post('/api/v1/training/start')
        .set(bearer(user.token))
        .send({ model_name: 'Unlucky', session_id: session });
    } finally {
      await t.c.redis.del(metaKey);
      if (Object.keys(meta).length) await t.c.redis.hset(metaKey, meta);
    }
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: MESSAGES.queueInitializing, code: 'service_unavailable' });
    expect(await modelsTrained(t, user.id)).toBe(0);
    const task = await t.c.db
      .selectFrom('tasks')
      .innerJoin('models', 'models.id', 'tasks.model_id')
      .select(['tasks.status', 'tasks.error_message', 'models.status as model_status'])
      .where('tasks.user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(task).toEqual({
      status: 'failed',
      error_message: MESSAGES.queueInitializing,
      model_status: 'failed',
    });

    // The user retries once the queue is back: the same photos train.
    const retried = await startTraining(t, user, session, { model_name: 'Lucky' });
    expect(await queue.getJob(retried.id)).toBeDefined();
    expect(await modelsTrained(t, user.id)).toBe(1);
    const jobs = (await t.request.get('/api/v1/training/jobs').set(bearer(user.token))).body.jobs;
    expect(jobs.map((j: TrainingJob) => [j.name, j.status])).toEqual([
      ['Lucky', 'pending'],
      ['Unlucky', 'failed'],
    ]);
  });

  it('a training committed but never queued (the API stopped in between) is queued at the next start', async () => {
    const user = await trainingUser(t);
    const job = await startTraining(t, user, await completedSession(t, user.id));
    await queue.remove(job.id);
    expect(await queue.getJob(job.id)).toBeUndefined();

    const restarted = createContainer(t.c.env, pino({ level: 'silent' }));
    try {
      await restarted.start();
      const requeued = await queue.getJob(job.id);
      expect(requeued?.data).toEqual({ task_id: job.id });
      // Idempotent: a second start adds nothing.
      const waiting = await jobCount();
      await restarted.queue.requeueWaiting();
      expect(await jobCount()).toBe(waiting);
    } finally {
      await restarted.close();
    }
  });
});

describe('reading trainings', () => {
  let user: TestUser;
  let first: TrainingJob;
  let second: TrainingJob;
  beforeAll(async () => {
    user = await trainingUser(t, 3);
    first = await startTraining(t, user, await completedSession(t, user.id), {
      model_name: 'First',
    });
    second = await startTraining(t, user, await completedSession(t, user.id, { usable: 12 }), {
      model_name: 'Second',
    });
  });

  const get = (path: string, who: TestUser = user) => t.request.get(path).set(bearer(who.token));

  it('lists the jobs newest first, as jobs and as training history', async () => {
    const jobs = await get('/api/v1/training/jobs');
    expect(jobs.status).toBe(200);
    const listed = (jobs.body.jobs as unknown[]).map((j) => ZTrainingJobSchema.parse(j));
    expect(listed.map((j) => j.id)).toEqual([second.id, first.id]);
    expect(listed[0]?.training_photos).toBe(12);
    const history = await get('/api/v1/training/history');
    expect(history.body).toEqual({ training_sessions: jobs.body.jobs });
    const stranger = await trainingUser(t);
    expect((await get('/api/v1/training/jobs', stranger)).body).toEqual({ jobs: [] });
  });

  it('finds a job by its id or by its upload session id, and only the owner does', async () => {
    const byId = await get(`/api/v1/training/jobs/${first.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.id).toBe(first.id);
    const bySession = await get(`/api/v1/training/jobs/${first.session_id}`);
    expect(bySession.body.id).toBe(first.id);
    const stranger = await trainingUser(t);
    for (const path of [
      `/api/v1/training/jobs/${first.id}`,
      `/api/v1/training/jobs/${first.session_id}`,
      '/api/v1/training/jobs/00000000-0000-4000-8000-000000000000',
      '/api/v1/training/jobs/not-an-id',
    ]) {
      const res = await get(
        path,
        path.includes(first.id) || path.includes(first.session_id!) ? stranger : user,
      );
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe(MESSAGES.trainingNotFound);
    }
  });

  it('maps task states to the training status the client reads', async () => {
    const set = (values: Record<string, unknown>) =>
      t.c.db.updateTable('tasks').set(values).where('id', '=', first.id).execute();
    const read = async () =>
      ZTrainingJobSchema.parse((await get(`/api/v1/training/jobs/${first.id}`)).body);

    await set({ status: 'running', progress: 40, started_at: sql`now() - interval '100 seconds'` });
    const running = await read();
    expect(running).toMatchObject({ status: 'training', progress: 40, progress_percentage: 40 });
    // 40% in 100 s: done about 250 s after the start.
    const eta = Date.parse(running.estimated_completion!) - Date.parse(running.started_at!);
    expect(eta).toBeGreaterThan(245_000);
    expect(eta).toBeLessThan(260_000);

    await set({ status: 'completed', progress: 100, completed_at: sql`now()` });
    await t.c.db
      .updateTable('models')
      .set({ status: 'completed', artifact_key: `models/${first.id}/model.json` })
      .where('id', '=', first.id)
      .execute();
    expect(await read()).toMatchObject({
      status: 'completed',
      estimated_completion: null,
      model_path: `models/${first.id}/model.json`,
    });

    await set({ status: 'failed', error_message: 'Out of memory' });
    expect(await read()).toMatchObject({ status: 'failed', error_message: 'Out of memory' });
    await set({ status: 'cancelled' });
    expect((await read()).status).toBe('failed');
    await set({ status: 'pending' });
    expect((await read()).status).toBe('pending');
    await set({ status: 'queued', progress: 0, completed_at: null, error_message: null });
  });

  it('GET /models/training-status: the latest job, or the one asked for', async () => {
    const latest = await get('/models/training-status');
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({
      training_id: second.id,
      session_id: second.session_id,
      model_name: 'Second',
      status: 'pending',
      progress: 0,
      progress_percentage: 0,
      started_at: null,
      estimated_completion: null,
      training_photos: 12,
      error_message: null,
    });
    const asked = await get(`/models/training-status?training_id=${first.id}`);
    expect(asked.body.training_id).toBe(first.id);
    expect((await get('/models/training-status?training_id=nope')).status).toBe(404);
    const none = await get('/models/training-status', await trainingUser(t));
    expect(none.status).toBe(404);
    expect(none.body.detail).toBe(MESSAGES.trainingNotFound);
  });

  it('GET /models/status: the models and their counts; the upload page still lists them', async () => {
    await t.c.db
      .updateTable('models')
      .set({ status: 'completed' })
      .where('id', '=', first.id)
      .execute();
    const res = await get('/models/status');
    expect(res.status).toBe(200);
    const status = ZModelsStatusSchema.parse(res.body);
    expect(status).toMatchObject({
      total: 2,
      completed: 1,
      in_progress: 1,
      failed: 0,
      models_trained: 2,
      training_limit: 3,
    });
    expect(status.models.map((m) => [m.name, m.status])).toEqual([
      ['Second', 'pending'],
      ['First', 'completed'],
    ]);
    const legacy = await get('/api/v1/upload/user-models');
    expect(legacy.body).toEqual({ models: status.models });
  });

  it('every read needs a token', async () => {
    for (const path of [
      '/api/v1/training/jobs',
      '/api/v1/training/history',
      `/api/v1/training/jobs/${first.id}`,
      '/models/status',
      '/models/training-status',
    ]) {
      expect((await t.request.get(path)).status).toBe(401);
    }
  });
});
