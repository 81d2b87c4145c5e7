import { randomUUID } from 'node:crypto';
import { BULL_PRIORITY } from '@studioshot/contracts';
import type { MetricsServer } from '@studioshot/observability';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullPrefixOf } from '../src/areas/connections.js';
import { startApiMetricsServer } from '../src/server.js';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

// The API's private metrics port: Prometheus text at /metrics and KEDA's metrics-api answer at
// /queue-load, read from BullMQ's own counts in the test's Redis and from Postgres.

let t: TestApp;
let metrics: MetricsServer;
let base: string;
const opened: { close(): Promise<unknown> }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  metrics = await startApiMetricsServer(t.c, 0);
  base = `http://127.0.0.1:${metrics.port}`;
});
afterAll(async () => {
  for (const thing of opened.reverse()) await thing.close();
  await metrics?.close();
  await t?.close();
});

const scrape = async () => {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};

/** The value of one sample line, `name{labels} value`, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function queue(name: string): Queue {
  const q = new Queue(name, { connection: t.c.redis, prefix: bullPrefixOf(t.c.env) });
  opened.push(q);
  return q;
}

describe('queue load', () => {
  it('counts waiting (plain and prioritized) plus running jobs per queue, as /metrics and /queue-load', async () => {
    const training = queue('training.flux');
    const generation = queue('generation.flux');
    // Two prioritized (as the API adds tasks), one plain, one delayed retry (not counted yet).
    await training.add('model.train', { task_id: randomUUID() }, { priority: BULL_PRIORITY.high });
    await training.add(
      'model.train',
      { task_id: randomUUID() },
      { priority: BULL_PRIORITY.normal },
    );
    await training.add('model.train', { task_id: randomUUID() });
    await training.add('model.train', { task_id: randomUUID() }, { delay: 600_000 });
    await generation.add('generation.run', { task_id: randomUUID() }, { priority: 1 });

    // A worker takes one training job and holds it: active.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const worker = new Worker('training.flux', () => held, {
      connection: { ...t.c.redis.options, maxRetriesPerRequest: null },
      prefix: bullPrefixOf(t.c.env),
    });
    opened.push({ close: () => worker.close(true) });
    await new Promise<void>((resolve) => worker.once('active', () => resolve()));
    // The worker's own connection is named for the queue once it has taken a job.
    await expect.poll(() => training.getWorkersCount()).toBe(1);

    const text = await scrape();
    expect(sample(text, 'studioshot_queue_load{queue="training.flux"}')).toBe(3 + 0);
    expect(sample(text, 'studioshot_queue_load{queue="generation.flux"}')).toBe(1);
    expect(sample(text, 'studioshot_queue_load{queue="photo-checks"}')).toBe(0);
    expect(sample(text, 'studioshot_queue_workers{queue="training.flux"}')).toBe(1);
    expect(sample(text, 'studioshot_queue_workers{queue="generation.flux"}')).toBe(0);

    const res = await fetch(`${base}/queue-load?queues=training.flux,generation.flux`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      total: 4,
      queues: { 'training.flux': 3, 'generation.flux': 1 },
    });

    release();
  });

  it('reports the age of the oldest waiting job per queue, 0 when none waits', async () => {
    const checks = queue('photo-checks');
    await checks.add(
      'photo.rejudge-set',
      { session_id: randomUUID() },
      { timestamp: Date.now() - 125_000 },
    );
    const text = await scrape();
    expect(
      sample(text, 'studioshot_queue_oldest_waiting_seconds{queue="photo-checks"}'),
    ).toBeGreaterThanOrEqual(125);
    expect(
      sample(text, 'studioshot_queue_oldest_waiting_seconds{queue="batch-generation.studio"}'),
    ).toBe(0);
  });

  it('refuses a /queue-load without queues, or naming a queue no worker consumes', async () => {
    for (const query of [
      '',
      '?queues=',
      '?queues=training.flux,trianing.flux',
      '?queues=scheduled',
    ]) {
      const res = await fetch(`${base}/queue-load${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/^queues: /);
    }
  });

  it('answers 404 to any other path or method on the metrics port', async () => {
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/api/v1/users/profile`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});

describe('credits reserved and not yet settled', () => {
  it('sums the reservations of unfinished generations, and drops them once spent or refunded', async () => {
    const before = sample(await scrape(), 'studioshot_credits_reserved_unsettled') ?? NaN;
    expect(before).toBe(0);
    const user = await registerUser(t);
    const { id: userId } = await t.c.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    const generation = async (status: 'running' | 'completed' | 'failed', credits: number) => {
      const task = await t.c.db
        .insertInto('tasks')
        .values({ user_id: userId, task_type: 'generation', status, params: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.c.db
        .insertInto('credit_ledger')
        .values({
          user_id: userId,
          delta: -credits,
          balance_after: 0,
          reason: 'generation',
          idempotency_key: `generation:${task.id}:reserve`,
        })
        .execute();
      return task.id;
    };
    const running = await generation('running', 4);
    await generation('completed', 8);
    const failedRefunded = await generation('failed', 16);
    await t.c.db
      .updateTable('tasks')
      .set({ completed_at: new Date() })
      .where('id', '=', failedRefunded)
      .execute();
    await t.c.db
      .insertInto('credit_ledger')
      .values({
        user_id: userId,
        delta: 16,
        balance_after: 16,
        reason: 'generation_refund',
        idempotency_key: `generation:${failedRefunded}:refund`,
      })
      .execute();
    const failedUnrefunded = await generation('failed', 32);
    await t.c.db
      .updateTable('tasks')
      .set({ completed_at: new Date() })
      .where('id', '=', failedUnrefunded)
      .execute();

    let text = await scrape();
    expect(sample(text, 'studioshot_credits_reserved_unsettled')).toBe(4 + 32);
    expect(
      sample(text, 'studioshot_credits_reserved_unsettled_oldest_seconds'),
    ).toBeGreaterThanOrEqual(0);

    await t.c.db
      .updateTable('tasks')
      .set({ status: 'completed', completed_at: new Date() })
      .where('id', '=', running)
      .execute();
    text = await scrape();
    expect(sample(text, 'studioshot_credits_reserved_unsettled')).toBe(32);
  });
});

describe('HTTP latency by route', () => {
  it('labels each request with its declared route pattern, never the raw path', async () => {
    const user = await registerUser(t);
    const sessionId = randomUUID();
    await t.request.get('/api/v1/users/profile').set(bearer(user.tokens.access_token)).expect(200);
    await t.request
      .get(`/api/v1/upload/sessions/${sessionId}`)
      .set(bearer(user.tokens.access_token))
      .expect(404);
    await t.request.get(`/api/v1/no-such-thing/${sessionId}`).expect(404);

    const text = await scrape();
    const count = (labels: string) =>
      sample(text, `http_request_duration_seconds_count{${labels}}`);
    expect(count('method="GET",route="/api/v1/users/profile",status_code="200"')).toBe(1);
    expect(count('method="GET",route="/api/v1/upload/sessions/:id",status_code="404"')).toBe(1);
    expect(count('method="GET",route="(unmatched)",status_code="404"')).toBeGreaterThanOrEqual(1);
    expect(count('method="POST",route="/api/v1/auth/register",status_code="201"')).toBe(2);
    // No id from a URL ever becomes a label.
    expect(text).not.toContain(sessionId);
  });

  it('is off only where HTTP_METRICS=false says so (the metrics bench)', async () => {
    const off = await createTestApp({ HTTP_METRICS: 'false' });
    try {
      await off.request.get('/health').expect(200);
      const text = await off.c.metrics.registry.metrics();
      expect(text).not.toMatch(/^http_request_duration_seconds_count\{/m);
    } finally {
      await off.close();
    }
  });
});
