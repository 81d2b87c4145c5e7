import jwt from 'jsonwebtoken';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, TEST_JWT_SECRET, type TestApp } from './helpers.js';

let t: TestApp;
let userId: string;
let sessionToken: string;
beforeAll(async () => {
  t = await createTestApp();
  const { tokens, res } = await registerUser(t);
  userId = res.body.user.id;
  sessionToken = tokens.access_token;
});
afterAll(() => t.close());

const profileWith = (token: string) => t.request.get('/api/v1/users/profile').set(bearer(token));
const base = { issuer: 'studioshot-api', audience: 'studioshot-web', subject: '' };
const sid = () => (jwt.decode(sessionToken) as { sid: string }).sid;

function encode(part: object): string {
  return Buffer.from(JSON.stringify(part)).toString('base64url');
}

describe('access token checks', () => {
  it('accepts the token it issued', async () => {
    expect((await profileWith(sessionToken)).status).toBe(200);
  });

  it.each([
    [
      'tampered payload',
      () => {
        const [h, , s] = sessionToken.split('.');
        return `${h}.${encode({ sub: '00000000-0000-0000-0000-000000000000', sid: sid(), iss: base.issuer, aud: base.audience, exp: Math.floor(Date.now() / 1000) + 600 })}.${s}`;
      },
    ],
    ['tampered signature', () => `${sessionToken.slice(0, -4)}AAAA`],
    [
      'expired',
      () =>
        jwt.sign({ sid: sid() }, TEST_JWT_SECRET, {
          ...base,
          subject: userId,
          algorithm: 'HS256',
          expiresIn: -10,
        }),
    ],
    [
      'alg none',
      () => {
        const now = Math.floor(Date.now() / 1000);
        return `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: userId, sid: sid(), iss: base.issuer, aud: base.audience, iat: now, exp: now + 600 })}.`;
      },
    ],
    [
      'wrong issuer',
      () =>
        jwt.sign({ sid: sid() }, TEST_JWT_SECRET, {
          ...base,
          issuer: 'someone-else',
          subject: userId,
          algorithm: 'HS256',
          expiresIn: 600,
        }),
    ],
    [
      'wrong audience',
      () =>
        jwt.sign({ sid: sid() }, TEST_JWT_SECRET, {
          ...base,
          audience: 'another-app',
          subject: userId,
          algorithm: 'HS256',
          expiresIn: 600,
        }),
    ],
    [
      'other algorithm with the same secret',
      () =>
        jwt.sign({ sid: sid() }, TEST_JWT_SECRET, {
          ...base,
          subject: userId,
          algorithm: 'HS512',
          expiresIn: 600,
        }),
    ],
    [
      'signed with another secret',
      () =>
        jwt.sign({ sid: sid() }, 'another-secret-another-secret-another-secret', {
          ...base,
          subject: userId,
          algorithm: 'HS256',
          expiresIn: 600,
        }),
    ],
    [
      'RS256 token',
      () => {
        const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        return jwt.sign({ sid: sid() }, privateKey, {
          ...base,
          subject: userId,
          algorithm: 'RS256',
          expiresIn: 600,
        });
      },
    ],
    [
      'no session id',
      () =>
        jwt.sign({}, TEST_JWT_SECRET, {
          ...base,
          subject: userId,
          algorithm: 'HS256',
          expiresIn: 600,
        }),
    ],
    ['garbage', () => 'not.a.jwt'],
  ])('refuses a %s token with 401', async (_name, make) => {
    const res = await profileWith(make());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Authentication required', code: 'unauthorized' });
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses a missing or malformed Authorization header', async () => {
    expect((await t.request.get('/api/v1/users/profile')).status).toBe(401);
    expect(
      (await t.request.get('/api/v1/users/profile').set('Authorization', sessionToken)).status,
    ).toBe(401);
    expect(
      (await t.request.get('/api/v1/users/profile').set('Authorization', 'Basic abc')).status,
    ).toBe(401);
  });
});
