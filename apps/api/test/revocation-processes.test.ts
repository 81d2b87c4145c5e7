import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, stopApiProcess, type ApiProcess } from './api-process.js';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

/**
 * Two real API processes (the API's entry point, each with its own memory) beside this test's
 * own app, all on one database and Redis: a sign-in ended through one process is refused by every
 * process on the first request that starts after the ending answered.
 */
let t: TestApp;
let a: ApiProcess;
let b: ApiProcess;

const profileStatus = async (api: ApiProcess, token: string) =>
  (await fetch(`${api.url}/api/v1/users/profile`, { headers: bearer(token) })).status;

/** The processes registered as answering from memory (the test's app and the two). */
const listening = async () =>
  t.c.redis.zrangebyscore(`${t.c.env.REDIS_PREFIX}revocation-listeners`, Date.now(), '+inf');

beforeAll(async () => {
  t = await createTestApp();
  [a, b] = await Promise.all([startApiProcess(t), startApiProcess(t)]);
  // Each process registers once its subscription has proved current: from then on it answers
  // from memory, which is what this test puts on trial.
  while ((await listening()).length < 3) await new Promise((r) => setTimeout(r, 20));
});
afterAll(async () => {
  await Promise.all([stopApiProcess(a), stopApiProcess(b)]);
  await t?.close();
});

describe('a logout, across API processes', () => {
  it('is refused by every process on the next request, each of 20 times', async () => {
    for (let round = 0; round < 20; round += 1) {
      const token = (await registerUser(t)).tokens.access_token;
      // Both processes have seen the token valid (and cached its verification).
      expect([await profileStatus(a, token), await profileStatus(b, token)]).toEqual([200, 200]);
      const [ending, other] = round % 2 === 0 ? [a, b] : [b, a];
      const logout = await fetch(`${ending.url}/api/v1/auth/logout`, {
        method: 'POST',
        headers: bearer(token),
      });
      expect(logout.status).toBe(200);
      expect(await profileStatus(other, token)).toBe(401);
      expect(await profileStatus(ending, token)).toBe(401);
      expect((await t.request.get('/api/v1/users/profile').set(bearer(token))).status).toBe(401);
    }
  });

  it('waits out a process that cannot acknowledge, which then asks Redis', async () => {
    const token = (await registerUser(t)).tokens.access_token;
    expect(await profileStatus(b, token)).toBe(200);
    // B stops (as a process stalled or cut off): it can neither hear nor acknowledge the logout.
    b.child.kill('SIGSTOP');
    try {
      const logout = await fetch(`${a.url}/api/v1/auth/logout`, {
        method: 'POST',
        headers: bearer(token),
      });
      expect(logout.status).toBe(200);
    } finally {
      b.child.kill('SIGCONT');
    }
    // B's lease ran out while it was stopped: its first request asks Redis, whatever it has read.
    expect(await profileStatus(b, token)).toBe(401);
  });
});
