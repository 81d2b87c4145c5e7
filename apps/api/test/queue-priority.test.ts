import {
  BULL_PRIORITY,
  taskQueueName,
  ZQueueTaskSchema,
  type TaskPriority,
  type PlanType,
} from '@studioshot/contracts';
import { queuePriority } from '@studioshot/pricing';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { creditUser, trainedModel } from './generation-helpers.js';
import { bearer, createTestApp, type TestApp } from './helpers.js';
import { completedSession, trainingQueue, trainingUser } from './training-helpers.js';

/**
 * The plan decides a task's queue priority (plans sell priority queues); what the client sends is
 * at most a request within it: a higher one is lowered, never refused.
 */

let t: TestApp;
let trainings: Queue;
let generations: Queue;
beforeAll(async () => {
  // Generate calls answer 202 at once: the priority is what these tests read, not the images.
  t = await createTestApp({ GENERATION_WAIT_MS: '0' });
  trainings = trainingQueue(t);
  generations = new Queue(taskQueueName('generation', 'studio'), {
    connection: t.c.redis,
    prefix: `${t.c.env.REDIS_PREFIX}bull`,
  });
});
afterAll(async () => {
  await Promise.all([trainings.close(), generations.close()]);
  await t.close();
});
afterEach(async () => {
  await Promise.all([
    trainings.obliterate({ force: true }),
    generations.obliterate({ force: true }),
  ]);
});

/** What the task row and the BullMQ job say the priority is. */
async function queuedAt(queue: Queue, taskId: string) {
  const row = await t.c.db
    .selectFrom('tasks')
    .select('priority')
    .where('id', '=', taskId)
    .executeTakeFirstOrThrow();
  const job = await queue.getJob(taskId);
  return { row: row.priority, bull: job?.opts.priority };
}

const PLANS: PlanType[] = ['free', 'starter', 'professional', 'premium'];
const REQUESTS: (TaskPriority | undefined)[] = ['urgent', 'high', 'normal', undefined];

describe('training', () => {
  it.each(PLANS.filter((plan) => plan !== 'free'))(
    '%s: every requested priority is queued at most at the plan’s',
    async (plan) => {
      const user = await trainingUser(t, REQUESTS.length, plan);
      for (const requested of REQUESTS) {
        const res = await t.request
          .post('/api/v1/training/start')
          .set(bearer(user.token))
          .send({
            model_name: `asked ${requested ?? 'nothing'}`,
            session_id: await completedSession(t, user.id),
            ...(requested ? { priority: requested } : {}),
          });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const expected = queuePriority(plan, 'training', requested);
        expect(await queuedAt(trainings, res.body.id as string)).toEqual({
          row: expected,
          bull: BULL_PRIORITY[expected],
        });
      }
    },
  );

  it('a starter asking for urgent on every way in is queued normal, and waits its turn', async () => {
    const premium = await trainingUser(t, 1, 'premium');
    const ahead = await t.request
      .post('/api/v1/training/start')
      .set(bearer(premium.token))
      .send({
        model_name: 'Premium',
        session_id: await completedSession(t, premium.id),
        priority: 'normal',
      });
    expect(ahead.status).toBe(201);

    const starter = await trainingUser(t, 4, 'starter');
    const calls = [
      {
        path: '/api/v1/training/start',
        body: (s: string) => ({ model_name: 'a', session_id: s, priority: 'urgent' }),
      },
      {
        path: '/models/start-training',
        body: (s: string) => ({ model_name: 'b', session_id: s, priority: 'urgent' }),
      },
      {
        path: '/api/v1/queue/training/start-queued',
        body: (s: string) => ({ model_name: 'c', session_id: s, priority: 'urgent' }),
      },
      {
        path: '/api/v1/queue/submit',
        body: (s: string) => ({
          task_type: 'training',
          priority: 'urgent',
          params: { model_name: 'd', session_id: s },
        }),
      },
    ];
    for (const call of calls) {
      const res = await t.request
        .post(call.path)
        .set(bearer(starter.token))
        .send(call.body(await completedSession(t, starter.id)));
      expect(res.status, `${call.path}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(await queuedAt(trainings, res.body.id as string)).toEqual({
        row: 'normal',
        bull: BULL_PRIORITY.normal,
      });
      const task = await t.request
        .get(`/api/v1/queue/status/${res.body.id as string}`)
        .set(bearer(starter.token));
      // Behind the premium user's earlier normal training, not in front of it.
      expect(ZQueueTaskSchema.parse(task.body)).toMatchObject({ priority: 'normal' });
      expect(ZQueueTaskSchema.parse(task.body).position).toBeGreaterThan(0);
    }
  });
});

describe('generation', () => {
  it.each(PLANS)(
    '%s: queue submit and start-queued are queued at most at the plan’s',
    async (plan) => {
      const user = await creditUser(t, 2 * REQUESTS.length, { plan_type: plan });
      const modelId = await trainedModel(t, user.id);
      for (const requested of REQUESTS) {
        const expected = queuePriority(plan, 'generation', requested);
        const submitted = await t.request
          .post('/api/v1/queue/submit')
          .set(bearer(user.token))
          .set('Idempotency-Key', randomUUID())
          .send({
            task_type: 'generation',
            ...(requested ? { priority: requested } : {}),
            params: { model_id: modelId, template_id: 'prof_5' },
          });
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
        expect(ZQueueTaskSchema.parse(submitted.body).priority).toBe(expected);
        expect(await queuedAt(generations, submitted.body.id as string)).toEqual({
          row: expected,
          bull: BULL_PRIORITY[expected],
        });

        const startQueued = await t.request
          .post('/api/v1/queue/generation/start-queued')
          .set(bearer(user.token))
          .send({
            model_id: modelId,
            template_id: 'prof_5',
            idempotency_key: randomUUID(),
            ...(requested ? { priority: requested } : {}),
          });
        expect(startQueued.status, JSON.stringify(startQueued.body)).toBe(201);
        expect(await queuedAt(generations, startQueued.body.id as string)).toEqual({
          row: expected,
          bull: BULL_PRIORITY[expected],
        });
      }
    },
  );
});

describe('the direct Generate calls (no priority in their requests)', () => {
  it.each(PLANS)('%s: queued at the plan’s priority', async (plan) => {
    const user = await creditUser(t, 1, { plan_type: plan });
    const modelId = await trainedModel(t, user.id);
    const res = await t.request
      .post('/api/v1/generation/generate-trained')
      .set(bearer(user.token))
      .set('Idempotency-Key', randomUUID())
      .send({ model_id: modelId, template_id: 'prof_5' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const expected = queuePriority(plan, 'generation');
    expect(await queuedAt(generations, res.body.id as string)).toEqual({
      row: expected,
      bull: BULL_PRIORITY[expected],
    });
  });
});
