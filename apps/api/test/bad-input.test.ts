import { ZErrorSchema } from '@studioshot/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t)).tokens.access_token;
});
afterAll(() => t.close());

type Method = 'post' | 'patch';
const endpoints: { method: Method; path: string; auth: boolean; valid: Record<string, unknown> }[] =
  [
    {
      method: 'post',
      path: '/api/v1/auth/register',
      auth: false,
      valid: { email: 'a@b.co', password: 'secret1', name: 'A' },
    },
    {
      method: 'post',
      path: '/api/v1/auth/login',
      auth: false,
      valid: { email: 'a@b.co', password: 'secret1' },
    },
    { method: 'post', path: '/api/v1/auth/refresh', auth: false, valid: { refresh_token: 'x' } },
    {
      method: 'post',
      path: '/api/v1/auth/forgot-password',
      auth: false,
      valid: { email: 'a@b.co' },
    },
    {
      method: 'post',
      path: '/api/v1/auth/reset-password',
      auth: false,
      valid: { email: 'a@b.co', reset_token: 'x', new_password: 'secret1' },
    },
    { method: 'patch', path: '/api/v1/users/profile', auth: true, valid: { gender: 'male' } },
    { method: 'post', path: '/api/v1/auth/logout', auth: true, valid: {} },
  ];

async function counts() {
  const row = await sql<{ users: number; tokens: number; resets: number; mails: number }>`
    SELECT (SELECT count(*) FROM users)::int AS users,
           (SELECT count(*) FROM refresh_tokens)::int AS tokens,
           (SELECT count(*) FROM password_reset_tokens)::int AS resets,
           (SELECT count(*) FROM outbox_emails)::int AS mails`.execute(t.c.db);
  return row.rows[0];
}

function send(e: (typeof endpoints)[number]) {
  const req = t.request[e.method](e.path);
  return e.auth ? req.set(bearer(token)) : req;
}

describe.each(endpoints)('$method $path rejects bad input without writing', (e) => {
  it('malformed JSON -> 400', async () => {
    const before = await counts();
    const res = await send(e).set('Content-Type', 'application/json').send('{"email": "a@b.co",');
    expect(res.status).toBe(400);
    expect(ZErrorSchema.parse(res.body).code).toBe('invalid_json');
    expect(await counts()).toEqual(before);
  });

  it('oversize body -> 413', async () => {
    const before = await counts();
    const res = await send(e).send({ ...e.valid, padding: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(ZErrorSchema.parse(res.body).code).toBe('payload_too_large');
    expect(await counts()).toEqual(before);
  });

  it('unknown field -> 422', async () => {
    const before = await counts();
    const res = await send(e).send({ ...e.valid, is_admin: true });
    expect(res.status).toBe(422);
    expect(ZErrorSchema.parse(res.body).detail).toMatch(/is_admin/);
    expect(await counts()).toEqual(before);
  });

  it('wrong types -> 422', async () => {
    const keys = Object.keys(e.valid);
    if (keys.length === 0) {
      const res = await send(e).send([1, 2, 3]);
      expect(res.status).toBe(422);
      return;
    }
    const before = await counts();
    const res = await send(e).send(Object.fromEntries(keys.map((k) => [k, 12345])));
    expect(res.status).toBe(422);
    expect(ZErrorSchema.parse(res.body).code).toBe('validation_error');
    expect(await counts()).toEqual(before);
  });

  it('missing fields -> 422 naming them', async () => {
    const keys = Object.keys(e.valid);
    if (keys.length === 0 || e.method === 'patch') return; // every field of these is optional
    const before = await counts();
    const res = await send(e).send({});
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain(`${keys[0]} is required`);
    expect(await counts()).toEqual(before);
  });
});

describe('unknown routes', () => {
  it('answer 404 in the error shape', async () => {
    const res = await t.request.get('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found', code: 'not_found' });
  });
});
