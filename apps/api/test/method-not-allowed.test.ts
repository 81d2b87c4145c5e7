// A path the API serves, asked with a method it does not take there, is a 405 with `Allow`
// (RFC 9110; the fuzz run's unsupported_method check), not a 404 saying the address is unknown.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it('answers 405 with the methods the document declares for the path', async () => {
  const res = await t.request.put('/api/v1/auth/login').send({});
  expect(res.status).toBe(405);
  expect(res.headers.allow).toBe('POST, OPTIONS');
  expect(res.body).toEqual({
    detail: 'This address does not take PUT requests; it takes POST, OPTIONS.',
    code: 'method_not_allowed',
  });
});

it('lists HEAD with GET, and matches paths with parameters', async () => {
  const user = await registerUser(t);
  const profile = await t.request
    .delete('/api/v1/users/profile')
    .set(bearer(user.tokens.access_token));
  expect(profile.status).toBe(405);
  expect(profile.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'PATCH']);
  const job = await t.request
    .post('/api/v1/training/jobs/0b6e4a54-8d0c-4bb8-9a59-0f1f3f0c9e7e')
    .set(bearer(user.tokens.access_token));
  expect(job.status).toBe(405);
  expect(job.headers.allow).toContain('GET');
});

it('answers OPTIONS for a path the API serves with the methods it takes there', async () => {
  const res = await t.request.options('/api/v1/users/profile');
  expect(res.status).toBe(200);
  expect(res.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'PATCH']);
  expect((await t.request.options('/api/v1/payments/webhook')).headers.allow).toBe('POST, OPTIONS');
  expect((await t.request.options('/api/v1/nothing-here')).status).toBe(404);
});

it('still answers 404 for a path the API does not serve', async () => {
  const res = await t.request.put('/api/v1/nothing-here');
  expect(res.status).toBe(404);
});
