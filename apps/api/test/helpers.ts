import { createTestDatabase } from '@studioshot/db/testing';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import supertest from 'supertest';
import { inject } from 'vitest';
import { createApp } from '../src/app.js';
import { createContainer, type WiredContainer } from '../src/container.js';
import { loadEnv } from '../src/env.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-0123456789';

export interface TestApp {
  request: ReturnType<typeof supertest>;
  c: WiredContainer;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database cloned from the migrated template, with its own Redis key
 * prefix, so suites never see each other's data.
 */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase(inject('pgAdminUrl'), inject('pgTemplate'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
    JWT_SECRET: TEST_JWT_SECRET,
    APP_VERSION: 'abcdef1234567890',
    LOG_LEVEL: 'silent',
    FORGOT_PASSWORD_MIN_MS: '0',
    // Suites sign many users up from one address (test/cpu-drain.test.ts covers the limit);
    // production refuses a raised limit, so a production-mode suite keeps the real one.
    ...(overrides.NODE_ENV === 'production' ? {} : { REGISTER_MAX_PER_IP: '100000' }),
    ...overrides,
  });
  const c = createContainer(env, pino({ level: 'silent' }));
  await c.start();
  const app = createApp(c);
  return {
    request: supertest(app),
    c,
    async close() {
      const keys = await c.redis.keys(`${env.REDIS_PREFIX}*`);
      if (keys.length) await c.redis.del(...keys);
      await c.close();
      await database.drop();
    },
  };
}

let counter = 0;
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
}

export async function registerUser(
  t: TestApp,
  input: Partial<{ email: string; password: string; name: string }> = {},
) {
  const body = {
    email: input.email ?? uniqueEmail(),
    password: input.password ?? 'correct horse',
    name: input.name ?? 'Ada Lovelace',
  };
  const res = await t.request.post('/api/v1/auth/register').send(body);
  if (res.status !== 201)
    throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...body, tokens: res.body as { access_token: string; refresh_token: string }, res };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
