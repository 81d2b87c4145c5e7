// The account settings page's calls: the sign-ins list, signing one or all of them out, changing
// the password (which signs out every other sign-in), renaming; on the real app, Postgres and
// Redis. An ended sign-in's access token stops working at once and its refresh token is refused.
import {
  MESSAGES,
  ZErrorSchema,
  ZSignInSessionListSchema,
  ZSignOutResponseSchema,
  ZUserSchema,
} from '@studioshot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDevice, displayAddress } from '../src/services/account-settings.service.js';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Signed {
  email: string;
  password: string;
  access: string;
  refresh: string;
}

/** A new account signed in from a Mac, then from an iPhone: two sign-ins. */
async function twoSignIns(): Promise<{ mac: Signed; phone: Signed }> {
  const res = await t.request
    .post('/api/v1/auth/register')
    .set('User-Agent', CHROME_MAC)
    .send({
      email: `settings-${Math.random().toString(36).slice(2)}@example.com`,
      password: 'first password',
      name: 'Ada Lovelace',
    });
  expect(res.status).toBe(201);
  const email = (res.body as { user: { email: string } }).user.email;
  const mac = {
    email,
    password: 'first password',
    access: res.body.access_token as string,
    refresh: res.body.refresh_token as string,
  };
  const login = await t.request
    .post('/api/v1/auth/login')
    .set('User-Agent', SAFARI_IPHONE)
    .send({ email, password: 'first password' });
  expect(login.status).toBe(200);
  return {
    mac,
    phone: { ...mac, access: login.body.access_token, refresh: login.body.refresh_token },
  };
}

const sessions = async (access: string) => {
  const res = await t.request.get('/api/v1/users/sessions').set(bearer(access));
  expect(res.status).toBe(200);
  return ZSignInSessionListSchema.parse(res.body).sessions;
};
const profileStatus = async (access: string) =>
  (await t.request.get('/api/v1/users/profile').set(bearer(access))).status;
const refreshStatus = async (refresh: string) =>
  (await t.request.post('/api/v1/auth/refresh').send({ refresh_token: refresh })).status;

describe('displayAddress', () => {
  it('writes an IPv4 client without the IPv6 mapping, and leaves other addresses alone', () => {
    expect(displayAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(displayAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(displayAddress('198.51.100.4')).toBe('198.51.100.4');
    expect(displayAddress(null)).toBeNull();
  });
});

describe('describeDevice', () => {
  it('names the browser and system a person recognises', () => {
    expect(describeDevice(CHROME_MAC)).toBe('Chrome on macOS');
    expect(describeDevice(SAFARI_IPHONE)).toBe('Safari on iOS');
    expect(describeDevice(null)).toBe('Unknown device');
    expect(describeDevice('')).toBe('Unknown device');
    expect(describeDevice('not a browser at all')).toBe('Unknown device');
  });
});

describe('GET /api/v1/users/sessions', () => {
  it('lists the live sign-ins with device, address and times, the current one first and marked', async () => {
    const { mac, phone } = await twoSignIns();
    const list = await sessions(phone.access);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ current: true, device: 'Safari on iOS' });
    expect(list[1]).toMatchObject({ current: false, device: 'Chrome on macOS' });
    expect(list[1]!.user_agent).toBe(CHROME_MAC);
    for (const session of list) {
      expect(session.ip_address).toMatch(/^(127\.0\.0\.1|::1)$/);
      expect(Date.parse(session.created_at)).not.toBeNaN();
      expect(Date.parse(session.last_used_at)).toBeGreaterThanOrEqual(
        Date.parse(session.created_at),
      );
    }
    // From the other device, the other one is current.
    expect((await sessions(mac.access))[0]).toMatchObject({
      current: true,
      device: 'Chrome on macOS',
    });
  });

  it('records a refresh as the sign-in being used', async () => {
    const { mac, phone } = await twoSignIns();
    const before = (await sessions(phone.access)).find((s) => !s.current)!;
    await t.c.db
      .updateTable('refresh_token_families')
      .set({ last_used_at: new Date(Date.now() - 86_400_000) })
      .where('id', '=', before.id)
      .execute();
    expect(
      Date.parse((await sessions(phone.access)).find((s) => !s.current)!.last_used_at),
    ).toBeLessThan(Date.now() - 3600_000);
    expect(await refreshStatus(mac.refresh)).toBe(200);
    const after = (await sessions(phone.access)).find((s) => !s.current)!;
    expect(Date.parse(after.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('needs a sign-in', async () => {
    expect((await t.request.get('/api/v1/users/sessions')).status).toBe(401);
  });
});

describe('DELETE /api/v1/users/sessions/{id}', () => {
  it('signs that sign-in out at once; the others go on', async () => {
    const { mac, phone } = await twoSignIns();
    const other = (await sessions(mac.access)).find((s) => !s.current)!;
    const res = await t.request
      .delete(`/api/v1/users/sessions/${other.id}`)
      .set(bearer(mac.access));
    expect(res.status).toBe(200);
    expect(ZSignOutResponseSchema.parse(res.body)).toEqual({
      message: MESSAGES.sessionSignedOut,
      signed_out: 1,
    });
    expect(await profileStatus(phone.access)).toBe(401);
    expect(await refreshStatus(phone.refresh)).toBe(401);
    expect(await profileStatus(mac.access)).toBe(200);
    expect((await sessions(mac.access)).map((s) => s.id)).not.toContain(other.id);
  });

  it("answers another person's sign-in, an ended one and a malformed id as not found, changing nothing", async () => {
    const first = await twoSignIns();
    const stranger = await twoSignIns();
    const theirs = (await sessions(stranger.mac.access))[0]!;
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await t.request
        .delete(`/api/v1/users/sessions/${id}`)
        .set(bearer(first.mac.access));
      expect(res.status).toBe(404);
      expect(ZErrorSchema.parse(res.body).detail).toBe(MESSAGES.signInNotFound);
    }
    expect(await profileStatus(stranger.mac.access)).toBe(200);
    expect(await sessions(stranger.mac.access)).toHaveLength(2);
  });
});

describe('DELETE /api/v1/users/sessions', () => {
  it('signs out every sign-in, this one included', async () => {
    const { mac, phone } = await twoSignIns();
    const res = await t.request.delete('/api/v1/users/sessions').set(bearer(mac.access));
    expect(res.status).toBe(200);
    expect(ZSignOutResponseSchema.parse(res.body)).toEqual({
      message: MESSAGES.signedOutEverywhere,
      signed_out: 2,
    });
    for (const signed of [mac, phone]) {
      expect(await profileStatus(signed.access)).toBe(401);
      expect(await refreshStatus(signed.refresh)).toBe(401);
    }
    // The password still works: a new sign-in is possible.
    const again = await t.request
      .post('/api/v1/auth/login')
      .send({ email: mac.email, password: mac.password });
    expect(again.status).toBe(200);
  });
});

describe('POST /api/v1/users/change-password', () => {
  const change = (access: string, body: object) =>
    t.request.post('/api/v1/users/change-password').set(bearer(access)).send(body);
  const login = (email: string, password: string) =>
    t.request.post('/api/v1/auth/login').send({ email, password });

  it('sets the new password and signs out every other sign-in, keeping this one', async () => {
    const { mac, phone } = await twoSignIns();
    // A reset link asked for earlier must not outlive the change.
    const forgot = await t.request.post('/api/v1/auth/forgot-password').send({ email: mac.email });
    const resetToken = forgot.body.reset_token as string;

    const res = await change(mac.access, {
      current_password: mac.password,
      new_password: 'second password',
    });
    expect(res.status).toBe(200);
    expect(ZSignOutResponseSchema.parse(res.body)).toEqual({
      message: MESSAGES.passwordChanged,
      signed_out: 1,
    });
    expect(await profileStatus(mac.access)).toBe(200);
    expect(await refreshStatus(mac.refresh)).toBe(200);
    expect(await profileStatus(phone.access)).toBe(401);
    expect(await refreshStatus(phone.refresh)).toBe(401);
    expect((await login(mac.email, mac.password)).status).toBe(401);
    expect((await login(mac.email, 'second password')).status).toBe(200);
    const reset = await t.request
      .post('/api/v1/auth/reset-password')
      .send({ email: mac.email, reset_token: resetToken, new_password: 'third password' });
    expect(reset.status).toBe(400);
  });

  it('refuses a wrong current password (403) and a new one breaking the rules, changing nothing', async () => {
    const { mac, phone } = await twoSignIns();
    const wrong = await change(mac.access, {
      current_password: 'not my password',
      new_password: 'second password',
    });
    expect(wrong.status).toBe(403);
    expect(ZErrorSchema.parse(wrong.body).detail).toBe(MESSAGES.currentPasswordWrong);

    const short = await change(mac.access, { current_password: mac.password, new_password: 'abc' });
    expect(short.status).toBe(422);
    expect(ZErrorSchema.parse(short.body).detail).toContain(MESSAGES.passwordTooShort);

    const missing = await change(mac.access, { current_password: '', new_password: 'long enough' });
    expect(missing.status).toBe(422);
    expect(ZErrorSchema.parse(missing.body).detail).toContain(MESSAGES.currentPasswordRequired);

    expect(await profileStatus(phone.access)).toBe(200);
    expect((await login(mac.email, mac.password)).status).toBe(200);
  });

  it('limits guesses of the current password like sign-in attempts', async () => {
    const { mac } = await twoSignIns();
    const limit = t.c.env.LOGIN_MAX_PER_ACCOUNT_ADDRESS;
    for (let i = 0; i < limit; i++) {
      const res = await change(mac.access, {
        current_password: `guess ${i}`,
        new_password: 'x'.repeat(8),
      });
      expect(res.status).toBe(403);
    }
    const refused = await change(mac.access, {
      current_password: mac.password,
      new_password: 'x'.repeat(8),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect((await login(mac.email, mac.password)).status).toBe(200);
  });
});

describe('PATCH /api/v1/users/profile (rename)', () => {
  it('changes the name, trimmed, and refuses a blank one', async () => {
    const user = await registerUser(t);
    const token = user.tokens.access_token;
    const res = await t.request
      .patch('/api/v1/users/profile')
      .set(bearer(token))
      .send({ name: '  Grace Hopper ' });
    expect(res.status).toBe(200);
    expect(ZUserSchema.parse(res.body)).toMatchObject({
      name: 'Grace Hopper',
      first_name: 'Grace',
    });
    const blank = await t.request
      .patch('/api/v1/users/profile')
      .set(bearer(token))
      .send({ name: '  ' });
    expect(blank.status).toBe(422);
    expect(ZErrorSchema.parse(blank.body).detail).toContain(MESSAGES.fullNameRequired);
    const profile = await t.request.get('/api/v1/users/profile').set(bearer(token));
    expect(profile.body.name).toBe('Grace Hopper');
  });
});
