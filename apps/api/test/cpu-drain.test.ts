import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestApp } from './helpers.js';

// Found in review: reset-password ran bcrypt before checking the code, and neither it nor
// sign-up was limited: 40 concurrent calls with made-up codes slowed every sign-in tenfold.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    TRUST_PROXY: 'loopback',
    RESET_MAX_PER_IP: '40',
    REGISTER_MAX_PER_IP: '3',
    BCRYPT_CONCURRENCY: '2',
  });
});
afterAll(() => t.close());

const reset = (email: string, token: string, ip: string) =>
  t.request
    .post('/api/v1/auth/reset-password')
    .set('X-Forwarded-For', ip)
    .send({ email, reset_token: token, new_password: 'attacker-chosen' });
const register = (email: string, ip: string) =>
  t.request
    .post('/api/v1/auth/register')
    .set('X-Forwarded-For', ip)
    .send({ email, password: 'a password', name: 'Someone' });

/** A new account, signed up from an address of its own (sign-ups are limited per address). */
let signUps = 0;
async function newUser() {
  signUps += 1;
  const email = uniqueEmail();
  const res = await register(email, `10.6.${Math.floor(signUps / 250)}.${signUps % 250}`);
  expect(res.status).toBe(201);
  return { email, password: 'a password' };
}

describe('reset-password', () => {
  it('checks the code before any bcrypt: 40 concurrent made-up codes hash nothing', async () => {
    const { email } = await newUser();
    const before = t.c.passwords.stats().started;
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        reset(email, randomBytes(32).toString('base64url'), '10.5.0.1'),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(400));
    expect(results[0]!.body.code).toBe('invalid_reset_token');
    expect(t.c.passwords.stats().started).toBe(before);

    // ...and the address is now limited, with Retry-After.
    const limited = await reset(email, 'another-guess', '10.5.0.1');
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(
      /^Too many password reset attempts\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a real code still resets, hashing once', async () => {
    const { email } = await newUser();
    const code = (await t.request.post('/api/v1/auth/forgot-password').send({ email })).body
      .reset_token as string;
    const before = t.c.passwords.stats().started;
    expect((await reset(email, code, '10.5.0.2')).status).toBe(200);
    expect(t.c.passwords.stats().started).toBe(before + 1);
  });
});

describe('sign-up', () => {
  it('is limited per address, before any bcrypt', async () => {
    const ip = '10.5.1.1';
    for (let i = 0; i < 3; i += 1) expect((await register(uniqueEmail(), ip)).status).toBe(201);
    const before = t.c.passwords.stats().started;
    const email = uniqueEmail();
    const limited = await register(email, ip);
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(
      /^Too many sign-up attempts\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(t.c.passwords.stats().started).toBe(before);
    const row = await t.c.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    expect((await register(email, '10.5.1.2')).status).toBe(201);
  });

  it('a taken address costs no bcrypt', async () => {
    const { email } = await newUser();
    const before = t.c.passwords.stats().started;
    expect((await register(email, '10.5.1.3')).status).toBe(409);
    expect(t.c.passwords.stats().started).toBe(before);
  });
});

describe('bcrypt concurrency', () => {
  it('runs at most BCRYPT_CONCURRENCY at once; the rest wait their turn and succeed', async () => {
    const users = [];
    for (let i = 0; i < 6; i += 1) users.push(await newUser());
    // The first sign-in of a process also makes the stand-in hash for unknown e-mails.
    await t.request.post('/api/v1/auth/login').send({ email: uniqueEmail(), password: 'x' });
    const before = t.c.passwords.stats().started;
    const results = await Promise.all(
      users.map((u, i) =>
        t.request
          .post('/api/v1/auth/login')
          .set('X-Forwarded-For', `10.5.2.${i}`)
          .send({ email: u.email, password: u.password }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    const stats = t.c.passwords.stats();
    expect(stats.started).toBe(before + 6);
    expect(stats.peak).toBe(2);
    expect(stats.peakWaiting).toBeGreaterThan(0);
    expect(stats.running).toBe(0);
    expect(stats.waiting).toBe(0);
  });
});
