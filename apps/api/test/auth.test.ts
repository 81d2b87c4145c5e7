import { MESSAGES, ZAuthResponseSchema, ZErrorSchema, ZUserSchema } from '@studioshot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import {
  bearer,
  createTestApp,
  registerUser,
  TEST_JWT_SECRET,
  uniqueEmail,
  type TestApp,
} from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/v1/auth/register', () => {
  it('creates the account and answers the spec token set with the user', async () => {
    const email = uniqueEmail();
    const res = await t.request
      .post('/api/v1/auth/register')
      .send({ email, password: 'secret1', name: 'Grace Brewster Hopper' });
    expect(res.status).toBe(201);
    const body = ZAuthResponseSchema.parse(res.body);
    expect(body.token_type).toBe('bearer');
    expect(body.expires_in).toBe(3600);
    expect(body.user).toMatchObject({
      email,
      name: 'Grace Brewster Hopper',
      full_name: 'Grace Brewster Hopper',
      first_name: 'Grace',
      plan_type: 'free',
      training_limit: 0,
      models_trained: 0,
      credits_balance: 0,
      total_generations: 0,
      gender: null,
      age: null,
    });
  });

  it('stores a bcrypt hash with cost 12 or more, never the password', async () => {
    const { email, password } = await registerUser(t);
    const row = await t.c.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$2[aby]\$(1[2-9]|[2-9]\d)\$/);
    expect(row.password_hash).not.toContain(password);
  });

  it('treats e-mail case-insensitively and refuses a second account', async () => {
    const email = uniqueEmail('Case');
    await registerUser(t, { email: email.toUpperCase() });
    const res = await t.request
      .post('/api/v1/auth/register')
      .send({ email, password: 'secret1', name: 'X' });
    expect(res.status).toBe(409);
    expect(ZErrorSchema.parse(res.body)).toEqual({
      detail: MESSAGES.emailTaken,
      code: 'email_taken',
    });
    const rows = await t.c.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email.toLowerCase())
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a password shorter than 6 characters with the spec message and writes nothing', async () => {
    const email = uniqueEmail();
    const res = await t.request
      .post('/api/v1/auth/register')
      .send({ email, password: '12345', name: 'X' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain(MESSAGES.passwordTooShort);
    const row = await t.c.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('refuses a blank name with the spec message', async () => {
    const res = await t.request
      .post('/api/v1/auth/register')
      .send({ email: uniqueEmail(), password: 'secret1', name: '   ' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain(MESSAGES.fullNameRequired);
  });
});

describe('POST /api/v1/auth/login', () => {
  it('signs in with the right password and answers the same shape as register', async () => {
    const { email, password } = await registerUser(t);
    const res = await t.request
      .post('/api/v1/auth/login')
      .send({ email: email.toUpperCase(), password });
    expect(res.status).toBe(200);
    const body = ZAuthResponseSchema.parse(res.body);
    const profile = await t.request.get('/api/v1/users/profile').set(bearer(body.access_token));
    expect(profile.status).toBe(200);
    expect(ZUserSchema.parse(profile.body).email).toBe(email);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const { email } = await registerUser(t);
    const wrong = await t.request.post('/api/v1/auth/login').send({ email, password: 'not-it' });
    const unknown = await t.request
      .post('/api/v1/auth/login')
      .send({ email: uniqueEmail(), password: 'not-it' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({
      detail: MESSAGES.invalidCredentials,
      code: 'invalid_credentials',
    });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('uses every byte of a long password: no silent truncation at 72 bytes', async () => {
    const prefix = 'p'.repeat(72);
    const { email } = await registerUser(t, { password: `${prefix}-first` });
    const sameFirst72 = await t.request
      .post('/api/v1/auth/login')
      .send({ email, password: `${prefix}-other` });
    expect(sameFirst72.status).toBe(401);
    const exact = await t.request
      .post('/api/v1/auth/login')
      .send({ email, password: `${prefix}-first` });
    expect(exact.status).toBe(200);
  });

  it('counts multi-byte characters past 72 bytes too', async () => {
    const prefix = 'é'.repeat(40); // 80 bytes in UTF-8
    const { email } = await registerUser(t, { password: `${prefix}a` });
    const other = await t.request
      .post('/api/v1/auth/login')
      .send({ email, password: `${prefix}b` });
    expect(other.status).toBe(401);
  });
});

describe('POST /api/v1/auth/logout', () => {
  it('ends the session: its access token and refresh token stop working', async () => {
    const { tokens } = await registerUser(t);
    const out = await t.request.post('/api/v1/auth/logout').set(bearer(tokens.access_token));
    expect(out.status).toBe(200);
    const profile = await t.request.get('/api/v1/users/profile').set(bearer(tokens.access_token));
    expect(profile.status).toBe(401);
    const refresh = await t.request
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: tokens.refresh_token });
    expect(refresh.status).toBe(401);
  });

  it("leaves the same user's other sessions signed in", async () => {
    const { email, password, tokens } = await registerUser(t);
    const other = await t.request.post('/api/v1/auth/login').send({ email, password });
    await t.request.post('/api/v1/auth/logout').set(bearer(tokens.access_token)).expect(200);
    const profile = await t.request
      .get('/api/v1/users/profile')
      .set(bearer(other.body.access_token));
    expect(profile.status).toBe(200);
  });

  it('requires authentication', async () => {
    const res = await t.request.post('/api/v1/auth/logout');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: MESSAGES.authRequired, code: 'unauthorized' });
    const expired = await t.request.post('/api/v1/auth/logout').set(bearer('not.a.token'));
    expect(expired.status).toBe(401);
  });

  // Found in review: a user whose access token had expired could not end the session.
  it('with just the refresh token (the access token expired) ends that sign-in', async () => {
    const { email, password, tokens } = await registerUser(t);
    const other = await t.request.post('/api/v1/auth/login').send({ email, password });
    const expiredAccess = jwt.sign({ sid: 'whatever' }, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      expiresIn: -10,
      issuer: t.c.env.JWT_ISSUER,
      audience: t.c.env.JWT_AUDIENCE,
      subject: 'someone',
    });
    const out = await t.request
      .post('/api/v1/auth/logout')
      .set(bearer(expiredAccess))
      .send({ refresh_token: tokens.refresh_token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: MESSAGES.loggedOut });

    // That sign-in is over: its refresh token and its (still unexpired) access token are dead...
    const refreshed = await t.request
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(401);
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(tokens.access_token))).status,
    ).toBe(401);
    // ...and the user's other sign-in is untouched.
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(other.body.access_token))).status,
    ).toBe(200);
  });

  it('with no authorization header at all, the refresh token alone is enough', async () => {
    const { tokens } = await registerUser(t);
    const rotated = await t.request
      .post('/api/v1/auth/refresh')
      .send({ refresh_token: tokens.refresh_token });
    const out = await t.request
      .post('/api/v1/auth/logout')
      .send({ refresh_token: rotated.body.refresh_token });
    expect(out.status).toBe(200);
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(rotated.body.access_token))).status,
    ).toBe(401);
    expect(
      (
        await t.request
          .post('/api/v1/auth/refresh')
          .send({ refresh_token: rotated.body.refresh_token })
      ).status,
    ).toBe(401);
  });

  it('refuses an unknown refresh token and ends nothing', async () => {
    const { tokens } = await registerUser(t);
    const out = await t.request
      .post('/api/v1/auth/logout')
      .send({ refresh_token: 'not-a-real-refresh-token' });
    expect(out.status).toBe(401);
    expect(out.body.code).toBe('invalid_refresh_token');
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(tokens.access_token))).status,
    ).toBe(200);
  });
});
