import { MESSAGES, ZForgotPasswordResponseSchema } from '@studioshot/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/services/tokens.js';
import { bearer, createTestApp, registerUser, uniqueEmail, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ FORGOT_PASSWORD_MIN_MS: '250' });
});
afterAll(() => t.close());

const forgot = (email: string) => t.request.post('/api/v1/auth/forgot-password').send({ email });
const reset = (email: string, token: string, password: string) =>
  t.request
    .post('/api/v1/auth/reset-password')
    .send({ email, reset_token: token, new_password: password });
const login = (email: string, password: string) =>
  t.request.post('/api/v1/auth/login').send({ email, password });

describe('forgot-password and reset-password', () => {
  it('issues a >= 128-bit token, stores only its hash, records the e-mail, and resets once', async () => {
    const { email, tokens } = await registerUser(t);
    const res = await forgot(email);
    expect(res.status).toBe(200);
    const body = ZForgotPasswordResponseSchema.parse(res.body);
    const token = body.reset_token!;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await t.c.db.selectFrom('password_reset_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).toContain(sha256Hex(token));
    const mail = await t.c.db
      .selectFrom('outbox_emails')
      .selectAll()
      .where('to_email', '=', email)
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body_text).toContain(token);

    const done = await reset(email, token, 'brand new pass');
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: MESSAGES.passwordResetDone });
    expect((await login(email, 'brand new pass')).status).toBe(200);
    // The reset signs out sessions that existed before it.
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(tokens.access_token))).status,
    ).toBe(401);

    const again = await reset(email, token, 'third password');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: MESSAGES.invalidResetToken, code: 'invalid_reset_token' });
    expect((await login(email, 'third password')).status).toBe(401);
  });

  it('refuses an expired token and keeps the old password', async () => {
    const { email, password } = await registerUser(t);
    const token = (await forgot(email)).body.reset_token as string;
    await t.c.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('token_hash', '=', sha256Hex(token))
      .execute();
    expect((await reset(email, token, 'another-one')).status).toBe(400);
    expect((await login(email, password)).status).toBe(200);
  });

  it('sets the expiry one hour ahead', async () => {
    const { email } = await registerUser(t);
    const token = (await forgot(email)).body.reset_token as string;
    const row = await t.c.db
      .selectFrom('password_reset_tokens')
      .select(sql<number>`extract(epoch from expires_at - created_at)`.as('ttl'))
      .where('token_hash', '=', sha256Hex(token))
      .executeTakeFirstOrThrow();
    expect(Number(row.ttl)).toBeCloseTo(3600, -1);
  });

  it("refuses a token used with another account's e-mail", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const token = (await forgot(a.email)).body.reset_token as string;
    expect((await reset(b.email, token, 'hijacked!')).status).toBe(400);
    expect((await login(b.email, b.password)).status).toBe(200);
  });

  it('lets only one of two concurrent resets with one token succeed', async () => {
    const { email } = await registerUser(t);
    const token = (await forgot(email)).body.reset_token as string;
    const results = await Promise.all([
      reset(email, token, 'first-pass'),
      reset(email, token, 'second-pass'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('answers unknown e-mails the same way, in the same time, and writes nothing', async () => {
    const { email } = await registerUser(t);
    const timeOf = async (address: string) => {
      const start = performance.now();
      const res = await forgot(address);
      return { ms: performance.now() - start, res };
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const k = await timeOf(email);
      const u = await timeOf(uniqueEmail('nobody'));
      expect(u.res.status).toBe(k.res.status);
      expect(Object.keys(u.res.body).sort()).toEqual(Object.keys(k.res.body).sort());
      expect(u.res.body.message).toBe(k.res.body.message);
      expect(u.res.body.reset_token).toHaveLength(k.res.body.reset_token.length);
      known.push(k.ms);
      unknown.push(u.ms);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(40);
    expect(median(unknown)).toBeGreaterThanOrEqual(245);
    const mails = await t.c.db
      .selectFrom('outbox_emails')
      .select('to_email')
      .where('to_email', 'like', 'nobody-%')
      .execute();
    expect(mails).toHaveLength(0);
  });

  it('a token for an unknown e-mail resets nothing', async () => {
    const address = uniqueEmail('ghost');
    const token = (await forgot(address)).body.reset_token as string;
    expect((await reset(address, token, 'whatever1')).status).toBe(400);
  });
});
