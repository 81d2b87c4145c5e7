import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, uniqueEmail, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    LOGIN_MAX_PER_ACCOUNT: '3',
    LOGIN_MAX_PER_IP: '8',
    FORGOT_MAX_PER_ACCOUNT: '2',
    FORGOT_MAX_PER_IP: '5',
    TRUST_PROXY: 'true',
  });
});
afterAll(() => t.close());

const login = (email: string, password: string, ip: string) =>
  t.request.post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email, password });
const forgot = (email: string, ip: string) =>
  t.request.post('/api/v1/auth/forgot-password').set('X-Forwarded-For', ip).send({ email });

describe('login rate limits', () => {
  it('locks one account after too many attempts, with a clear 429 and Retry-After', async () => {
    const { email, password } = await registerUser(t);
    for (let i = 0; i < 3; i += 1)
      expect((await login(email, 'wrong', `10.0.0.${i}`)).status).toBe(401);
    const blocked = await login(email, password, '10.0.0.9');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('rate_limited');
    expect(blocked.body.detail).toMatch(
      /^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('forgives an account after a successful sign-in', async () => {
    const { email, password } = await registerUser(t);
    await login(email, 'wrong', '10.0.1.1');
    await login(email, 'wrong', '10.0.1.1');
    expect((await login(email, password, '10.0.1.1')).status).toBe(200);
    await login(email, 'wrong', '10.0.1.1');
    await login(email, 'wrong', '10.0.1.1');
    expect((await login(email, password, '10.0.1.1')).status).toBe(200);
  });

  it('limits one IP across many accounts', async () => {
    const ip = '10.0.2.1';
    for (let i = 0; i < 8; i += 1) expect((await login(uniqueEmail(), 'x', ip)).status).toBe(401);
    expect((await login(uniqueEmail(), 'x', ip)).status).toBe(429);
    expect((await login(uniqueEmail(), 'x', '10.0.2.2')).status).toBe(401);
  });
});

describe('forgot-password rate limits', () => {
  it('limits per account and writes no token once limited', async () => {
    const { email } = await registerUser(t);
    expect((await forgot(email, '10.1.0.1')).status).toBe(200);
    expect((await forgot(email, '10.1.0.2')).status).toBe(200);
    const blocked = await forgot(email, '10.1.0.3');
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Too many password reset requests/);
    const mails = await t.c.db
      .selectFrom('outbox_emails')
      .select('id')
      .where('to_email', '=', email)
      .execute();
    expect(mails).toHaveLength(2);
  });

  it('limits per IP', async () => {
    const ip = '10.1.1.1';
    for (let i = 0; i < 5; i += 1) expect((await forgot(uniqueEmail(), ip)).status).toBe(200);
    expect((await forgot(uniqueEmail(), ip)).status).toBe(429);
  });
});
