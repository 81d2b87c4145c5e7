import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOFT_LIMIT_FIRST_WAIT_MS, softLoginKeys } from '../src/services/rate-limits.js';
import { createTestApp, registerUser, uniqueEmail, type TestApp } from './helpers.js';

// Found in review: strangers must not be able to lock an owner out. Sign-in: hard limits per
// (account, address) and per address, a soft per-account limit (growing waits) for devices
// without a device cookie, which never stops a known device with the right password. Reset
// requests: per address and per (account, address), never per account alone.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    LOGIN_MAX_PER_ACCOUNT: '4',
    LOGIN_MAX_PER_ACCOUNT_ADDRESS: '3',
    LOGIN_MAX_PER_IP: '8',
    FORGOT_MAX_PER_ACCOUNT_ADDRESS: '2',
    FORGOT_MAX_PER_IP: '5',
    // supertest connects from 127.0.0.1: that is the proxy, X-Forwarded-For names the client.
    TRUST_PROXY: 'loopback',
  });
});
afterAll(() => t.close());

const LIMITED = /^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/;

const login = (email: string, password: string, ip: string, cookie?: string) => {
  const req = t.request.post('/api/v1/auth/login').set('X-Forwarded-For', ip);
  return (cookie ? req.set('Cookie', cookie) : req).send({ email, password });
};
const forgot = (email: string, ip: string) =>
  t.request.post('/api/v1/auth/forgot-password').set('X-Forwarded-For', ip).send({ email });

/** The device cookie a sign-in answered, as a Cookie header value. */
function deviceCookieOf(res: { headers: Record<string, unknown> }): string {
  const setCookie = res.headers['set-cookie'] as string[] | undefined;
  const cookie = setCookie?.find((c) => c.startsWith('ss_device_'));
  if (!cookie) throw new Error('no device cookie in the answer');
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  expect(cookie).toMatch(/Path=\/api\/v1\/auth/);
  return cookie.split(';')[0]!;
}

/** An owner signed in once from home: the browser there is a known device. */
async function ownerWithDevice(home: string) {
  const user = await registerUser(t);
  const res = await login(user.email, user.password, home);
  expect(res.status).toBe(200);
  return { ...user, device: deviceCookieOf(res) };
}

/** Strangers guess from as many addresses as it takes to run up the soft limit. */
async function strangersGuess(email: string, net: string, count = 4) {
  for (let i = 0; i < count; i += 1)
    expect((await login(email, `guess-${i}`, `${net}.${i}`)).status).toBe(401);
}

const retryAfter = (res: { headers: Record<string, unknown> }) =>
  Number(res.headers['retry-after']);

describe('sign-in: strangers cannot lock the owner out', () => {
  it('guesses from many addresses never stop a known device with the right password', async () => {
    const owner = await ownerWithDevice('198.51.100.1');
    await strangersGuess(owner.email, '203.0.113');

    // Devices without a device cookie now wait, even with the right password...
    const stranger = await login(owner.email, 'guess-x', '203.0.113.200');
    expect(stranger.status).toBe(429);
    expect(stranger.body.code).toBe('rate_limited');
    expect(stranger.body.detail).toMatch(LIMITED);
    expect(retryAfter(stranger)).toBeGreaterThan(0);
    const newBrowser = await login(owner.email, owner.password, '198.51.100.1');
    expect(newBrowser.status).toBe(429);
    expect(retryAfter(newBrowser)).toBeGreaterThan(0);

    // ...but the owner's known device signs in, from home and from anywhere else.
    expect((await login(owner.email, owner.password, '198.51.100.1', owner.device)).status).toBe(
      200,
    );
    expect((await login(owner.email, owner.password, '192.0.2.77', owner.device)).status).toBe(200);
  });

  it('a known device is not stopped by strangers at its own address either', async () => {
    const owner = await ownerWithDevice('198.51.101.1');
    const shared = '198.51.101.99'; // a café or carrier NAT the attacker shares
    for (let i = 0; i < 3; i += 1)
      expect((await login(owner.email, `guess-${i}`, shared)).status).toBe(401);
    expect((await login(owner.email, owner.password, shared)).status).toBe(429);
    expect((await login(owner.email, owner.password, shared, owner.device)).status).toBe(200);
  });

  it('the soft limit answers a growing Retry-After, and refused attempts cost no bcrypt', async () => {
    const owner = await registerUser(t);
    await strangersGuess(owner.email, '203.0.114');
    const keys = softLoginKeys(t.c.env.REDIS_PREFIX, owner.email);
    const waits: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const before = t.c.passwords.stats().started;
      const refused = await login(owner.email, 'again', `203.0.114.${50 + round}`);
      expect(refused.status).toBe(429);
      expect(t.c.passwords.stats().started).toBe(before);
      waits.push(retryAfter(refused));
      // The wait runs out (no sleeping: Redis forgets it), and one more failure doubles it.
      await t.c.redis.del(keys.wait);
      expect((await login(owner.email, 'again', `203.0.114.${60 + round}`)).status).toBe(401);
    }
    const first = SOFT_LIMIT_FIRST_WAIT_MS / 1000;
    expect(waits[0]).toBeGreaterThan(first - 5);
    expect(waits[0]).toBeLessThanOrEqual(first);
    expect(waits[1]).toBeGreaterThan(2 * first - 5);
    expect(waits[1]).toBeLessThanOrEqual(2 * first);
    expect(waits[2]).toBeGreaterThan(4 * first - 5);
    expect(waits[2]).toBeLessThanOrEqual(4 * first);
  });

  it("another account's device cookie, or a forged one, is no known device", async () => {
    const owner = await ownerWithDevice('198.51.102.1');
    const other = await ownerWithDevice('198.51.102.5');
    await strangersGuess(owner.email, '203.0.115');
    const ownerName = owner.device.split('=')[0]!;
    const [id, issued] = owner.device.slice(ownerName.length + 1).split('.');
    const otherValue = other.device.slice(other.device.indexOf('=') + 1);
    for (const cookie of [
      other.device, // another account's cookie, as it is
      `${ownerName}=${otherValue}`, // ...or under this account's name: the signature binds it
      `${ownerName}=${id}.${issued}.${'A'.repeat(43)}`, // a forged signature
      `${ownerName}=${id}.${Number(issued) - 181 * 86_400}.${'A'.repeat(43)}`,
    ]) {
      const res = await login(owner.email, owner.password, '198.51.102.2', cookie);
      expect(res.status, cookie).toBe(429);
    }
    expect((await login(owner.email, owner.password, '198.51.102.2', owner.device)).status).toBe(
      200,
    );
  });

  it('hard limit per (account, address): 429 there, other addresses unaffected', async () => {
    const { email, password } = await registerUser(t);
    for (let i = 0; i < 3; i += 1)
      expect((await login(email, 'wrong', '10.0.0.1')).status).toBe(401);
    const blocked = await login(email, password, '10.0.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(LIMITED);
    expect(retryAfter(blocked)).toBeGreaterThan(0);
    expect((await login(email, password, '10.0.0.2')).status).toBe(200);
  });

  it('a known device is limited by its own failures (a stolen cookie is no free pass)', async () => {
    const owner = await ownerWithDevice('198.51.103.1');
    for (let i = 0; i < 3; i += 1)
      expect((await login(owner.email, 'wrong', `10.0.3.${i}`, owner.device)).status).toBe(401);
    const blocked = await login(owner.email, owner.password, '10.0.3.9', owner.device);
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(LIMITED);
  });

  it('forgives an address after a successful sign-in', async () => {
    const { email, password } = await registerUser(t);
    await login(email, 'wrong', '10.0.1.1');
    await login(email, 'wrong', '10.0.1.1');
    expect((await login(email, password, '10.0.1.1')).status).toBe(200);
    await login(email, 'wrong', '10.0.1.1');
    await login(email, 'wrong', '10.0.1.1');
    expect((await login(email, password, '10.0.1.1')).status).toBe(200);
  });

  it('hard limit per address, across accounts', async () => {
    const ip = '10.0.2.1';
    for (let i = 0; i < 8; i += 1) expect((await login(uniqueEmail(), 'x', ip)).status).toBe(401);
    const blocked = await login(uniqueEmail(), 'x', ip);
    expect(blocked.status).toBe(429);
    expect(retryAfter(blocked)).toBeGreaterThan(0);
    expect((await login(uniqueEmail(), 'x', '10.0.2.2')).status).toBe(401);
  });

  it('a successful password reset clears the account counters', async () => {
    const owner = await registerUser(t);
    const home = '198.51.104.1';
    for (let i = 0; i < 3; i += 1)
      expect((await login(owner.email, `guess-${i}`, home)).status).toBe(401);
    await strangersGuess(owner.email, '203.0.116', 1); // the fourth failure: the soft limit
    expect((await login(owner.email, owner.password, home)).status).toBe(429);
    expect((await login(owner.email, owner.password, '198.51.104.2')).status).toBe(429);

    const code = (await forgot(owner.email, home)).body.reset_token as string;
    const reset = await t.request
      .post('/api/v1/auth/reset-password')
      .set('X-Forwarded-For', home)
      .send({ email: owner.email, reset_token: code, new_password: 'a fresh password' });
    expect(reset.status).toBe(200);

    // No device cookie, same address the strangers and the owner used up: in at once.
    expect((await login(owner.email, 'a fresh password', home)).status).toBe(200);
    await strangersGuess(owner.email, '203.0.117', 3);
    expect((await login(owner.email, 'a fresh password', '198.51.104.3')).status).toBe(200);
  });
});

describe("forgot-password: strangers cannot block the owner's resets", () => {
  it('requests from many addresses leave the owner able to get a code', async () => {
    const { email } = await registerUser(t);
    for (let i = 0; i < 6; i += 1) {
      expect((await forgot(email, `203.0.120.${i}`)).status).toBe(200);
      expect((await forgot(email, `203.0.120.${i}`)).status).toBe(200);
      expect((await forgot(email, `203.0.120.${i}`)).status).toBe(429);
    }
    const own = await forgot(email, '198.51.110.1');
    expect(own.status).toBe(200);
    expect(own.body.reset_token).toBeTruthy();
  });

  it('limits per (account, address) with Retry-After, and writes no token once limited', async () => {
    const { email } = await registerUser(t);
    expect((await forgot(email, '10.1.0.1')).status).toBe(200);
    expect((await forgot(email, '10.1.0.1')).status).toBe(200);
    const blocked = await forgot(email, '10.1.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(
      /^Too many password reset requests\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(retryAfter(blocked)).toBeGreaterThan(0);
    const mails = await t.c.db
      .selectFrom('outbox_emails')
      .select('id')
      .where('to_email', '=', email)
      .execute();
    expect(mails).toHaveLength(2);
  });

  it('limits per address', async () => {
    const ip = '10.1.1.1';
    for (let i = 0; i < 5; i += 1) expect((await forgot(uniqueEmail(), ip)).status).toBe(200);
    expect((await forgot(uniqueEmail(), ip)).status).toBe(429);
    expect((await forgot(uniqueEmail(), '10.1.1.2')).status).toBe(200);
  });
});
