import { ZHealthResponseSchema } from '@studioshot/contracts';
import pg from 'pg';
import { pino } from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createContainer } from '../src/container.js';
import { loadEnv } from '../src/env.js';
import { signAccessToken } from '../src/services/tokens.js';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /health', () => {
  it('reports version, database and redis', async () => {
    const res = await t.request.get('/health');
    expect(res.status).toBe(200);
    expect(ZHealthResponseSchema.parse(res.body)).toMatchObject({
      status: 'ok',
      version: 'abcdef1234567890',
      database: 'up',
      redis: 'up',
    });
  });

  it('a staging deployment allowed to take test payments says so in /health', async () => {
    const staging = await createTestApp({
      NODE_ENV: 'production',
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      PAYMENT_PROVIDER: 'test',
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true',
    });
    try {
      const res = await staging.request.get('/health');
      expect(ZHealthResponseSchema.parse(res.body).warnings).toEqual([
        expect.stringMatching(/^PAYMENT_PROVIDER=test is on/),
      ]);
      // A normal deployment has nothing to warn about.
      expect((await t.request.get('/health')).body.warnings).toBeUndefined();
    } finally {
      await staging.close();
    }
  });

  it("says when the server's debug setting is on, and only then", async () => {
    expect((await t.request.get('/health')).body.debug).toBeUndefined();
    const debugging = await createTestApp({ DEBUG_PROMPTS: 'true' });
    try {
      const res = await debugging.request.get('/health');
      expect(ZHealthResponseSchema.parse(res.body).debug).toBe(true);
    } finally {
      await debugging.close();
    }
  });

  it('echoes a request id header, reusing a sane incoming one', async () => {
    const res = await t.request.get('/health');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.request.get('/health').set('X-Request-Id', 'trace-12345678');
    expect(given.headers['x-request-id']).toBe('trace-12345678');
    const hostile = await t.request.get('/health').set('X-Request-Id', 'bad id with spaces');
    expect(hostile.headers['x-request-id']).not.toContain('bad');
  });
});

describe('when Postgres drops every connection', () => {
  it('the API stays up and reconnects', async () => {
    await t.request.get('/health').expect(200);
    const database = new URL(t.c.env.DATABASE_URL).pathname.slice(1);
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
      database,
    ]);
    await admin.end();
    await new Promise((r) => setTimeout(r, 100));
    const res = await t.request.get('/health');
    expect(res.body.database).toBe('up');
  });
});

describe('when the database is unreachable', () => {
  const brokenEnv = () =>
    loadEnv({
      NODE_ENV: 'test',
      DATABASE_URL: `${inject('pgAdminUrl').replace(/\/[^/]*$/, '')}/database_that_does_not_exist`,
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: 'test:broken:',
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'silent',
    });

  it('health says degraded with 503', async () => {
    const env = brokenEnv();
    const c = createContainer(env, pino({ level: 'silent' }));
    try {
      const res = await supertest(createApp(c)).get('/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'degraded', database: 'down', redis: 'up' });
      // Liveness asks neither Postgres nor Redis: a database outage restarts no API process.
      const live = await supertest(createApp(c)).get('/health/live');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'alive' });
    } finally {
      await c.close();
    }
  });

  it('an unexpected failure is a generic 500 naming the request id, never the cause', async () => {
    const env = brokenEnv();
    const c = createContainer(env, pino({ level: 'silent' }));
    try {
      const token = signAccessToken(
        c.accessToken,
        '00000000-0000-4000-8000-000000000000',
        'some-session',
      );
      const res = await supertest(createApp(c))
        .get('/api/v1/users/profile')
        .set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('internal_error');
      expect(res.body.detail).toContain(res.headers['x-request-id']);
      expect(res.body.detail).not.toMatch(/database_that_does_not_exist|ECONN|postgres/i);
    } finally {
      await c.close();
    }
  });
});

describe('OpenAPI', () => {
  it('serves the document generated from the contracts', async () => {
    const res = await t.request.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const path of [
      '/api/v1/auth/register',
      '/api/v1/auth/login',
      '/api/v1/auth/logout',
      '/api/v1/auth/refresh',
      '/api/v1/auth/forgot-password',
      '/api/v1/auth/reset-password',
      '/api/v1/users/profile',
      '/health',
      '/api/v1/training/start',
      '/api/v1/training/jobs/{id}',
      '/models/status',
      '/models/training-status',
      '/api/v1/queue/submit',
      '/api/v1/queue/cancel/{id}',
      '/api/v1/queue/estimate/wait-time/{task_type}/{priority}',
      '/api/v1/generation/styles',
      '/api/v1/generation/generate-trained',
      '/models/generated-images/{id}/favorite',
      '/images/generated/{id}/thumbnail',
    ]) {
      expect(res.body.paths).toHaveProperty([path]);
    }
    expect(res.body.components.schemas.User.properties).toHaveProperty('credits_balance');
    expect(res.body.components.schemas.TrainingJob.properties).toHaveProperty(
      'progress_percentage',
    );
  });

  it('renders the docs page', async () => {
    const res = await t.request.get('/api/docs/').redirects(1);
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
  });
});
