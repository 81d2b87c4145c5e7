import { MESSAGES, ZRefreshResponseSchema } from '@studioshot/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshGraceOf } from '../src/areas/accounts.js';
import { RefreshGraceRepository } from '../src/repositories/refresh-grace.repository.js';
import { sha256Hex } from '../src/services/tokens.js';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const refresh = (token: string) =>
  t.request.post('/api/v1/auth/refresh').send({ refresh_token: token });

describe('POST /api/v1/auth/refresh', () => {
  it('rotates: every use answers a new refresh token and a working access token', async () => {
    const { tokens } = await registerUser(t);
    const first = await refresh(tokens.refresh_token);
    expect(first.status).toBe(200);
    const set = ZRefreshResponseSchema.parse(first.body);
    expect(set.refresh_token).not.toBe(tokens.refresh_token);
    expect(set.expires_in).toBe(3600);
    const second = await refresh(set.refresh_token);
    expect(second.status).toBe(200);
    const profile = await t.request
      .get('/api/v1/users/profile')
      .set(bearer(second.body.access_token));
    expect(profile.status).toBe(200);
  });

  it('stores only a hash of the refresh token', async () => {
    const { tokens } = await registerUser(t);
    const raw = await t.c.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(raw.map((r) => r.token_hash)).toContain(sha256Hex(tokens.refresh_token));
    expect(raw.map((r) => r.token_hash)).not.toContain(tokens.refresh_token);
  });

  it('revokes the whole family when an old token is reused after its grace window', async () => {
    const { tokens } = await registerUser(t);
    const rotated = await refresh(tokens.refresh_token);
    expect(rotated.status).toBe(200);

    // The window runs out (no sleeping: Redis forgets the grace answer as its TTL would).
    await t.c.redis.del(refreshGraceOf(t.c.env, t.c.redis).key(tokens.refresh_token));
    const replay = await refresh(tokens.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({
      detail: MESSAGES.invalidRefreshToken,
      code: 'invalid_refresh_token',
    });

    // The legitimate successor is dead too, and so is the access token issued with it.
    expect((await refresh(rotated.body.refresh_token)).status).toBe(401);
    const profile = await t.request
      .get('/api/v1/users/profile')
      .set(bearer(rotated.body.access_token));
    expect(profile.status).toBe(401);

    const family = await t.c.db
      .selectFrom('refresh_token_families')
      .innerJoin('refresh_tokens', 'refresh_tokens.family_id', 'refresh_token_families.id')
      .select(['refresh_token_families.revoked_at', 'refresh_token_families.revoked_reason'])
      .where('refresh_tokens.token_hash', '=', sha256Hex(tokens.refresh_token))
      .executeTakeFirstOrThrow();
    expect(family.revoked_at).not.toBeNull();
    expect(family.revoked_reason).toBe('refresh token reuse');
  });

  // Found in review: two tabs refreshing with one token got 200 and 401, the 401 was taken as
  // theft, and the whole sign-in was revoked.
  it('two tabs refreshing at once both get the same new pair, and stay signed in', async () => {
    const { tokens } = await registerUser(t);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => refresh(tokens.refresh_token)),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const pair = ZRefreshResponseSchema.parse(results[0]!.body);
    for (const r of results) expect(r.body).toEqual(pair);
    // One rotation happened: the family holds the first token (used) and its one successor.
    const rows = await t.c.db
      .selectFrom('refresh_tokens')
      .select(['token_hash', 'used_at'])
      .where(
        'family_id',
        '=',
        t.c.db
          .selectFrom('refresh_tokens')
          .select('family_id')
          .where('token_hash', '=', sha256Hex(tokens.refresh_token)),
      )
      .execute();
    expect(rows).toHaveLength(2);

    const profile = await t.request.get('/api/v1/users/profile').set(bearer(pair.access_token));
    expect(profile.status).toBe(200);
    const next = await refresh(pair.refresh_token);
    expect(next.status).toBe(200);
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(next.body.access_token))).status,
    ).toBe(200);
  });

  it('a repeat inside the window answers the same pair; the answer is sealed and expires', async () => {
    const { tokens } = await registerUser(t);
    const first = await refresh(tokens.refresh_token);
    const again = await refresh(tokens.refresh_token);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const key = refreshGraceOf(t.c.env, t.c.redis).key(tokens.refresh_token);
    const ttl = await t.c.redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(t.c.env.REFRESH_GRACE_SECONDS * 1000);
    expect(t.c.env.REFRESH_GRACE_SECONDS).toBe(30);
    const stored = (await t.c.redis.get(key))!;
    expect(stored).not.toContain(first.body.refresh_token);
    expect(stored).not.toContain(first.body.access_token.split('.')[1]);
    // Nothing in Redis holds either new token in the clear.
    const everything = await Promise.all(
      (await t.c.redis.keys(`${t.c.env.REDIS_PREFIX}*`)).map((k) =>
        t.c.redis.type(k).then((type) => (type === 'string' ? t.c.redis.get(k) : '')),
      ),
    );
    expect(everything.join('\n')).not.toContain(first.body.refresh_token);
  });

  it('no grace once the sign-in has ended', async () => {
    const { tokens } = await registerUser(t);
    const rotated = await refresh(tokens.refresh_token);
    await t.request
      .post('/api/v1/auth/logout')
      .set(bearer(rotated.body.access_token))
      .send({})
      .expect(200);
    expect((await refresh(tokens.refresh_token)).status).toBe(401);
    expect((await refresh(rotated.body.refresh_token)).status).toBe(401);
  });

  it('REFRESH_GRACE_SECONDS=0 keeps nothing, so any repeat is reuse', async () => {
    const off = new RefreshGraceRepository(t.c.redis, t.c.env.REDIS_PREFIX, 'secret', 0);
    await off.remember('used-token', {
      access_token: 'a',
      refresh_token: 'r',
      token_type: 'bearer',
      expires_in: 3600,
    });
    expect(await t.c.redis.exists(off.key('used-token'))).toBe(0);
    expect(await off.recall('used-token')).toBeUndefined();
    // A sealed answer opens only with the token it was sealed for.
    const on = new RefreshGraceRepository(t.c.redis, t.c.env.REDIS_PREFIX, 'secret', 30);
    const pair = { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 1 };
    await on.remember('used-token', pair as never);
    expect(await on.recall('used-token')).toEqual(pair);
    await t.c.redis.rename(on.key('used-token'), on.key('other-token'));
    expect(await on.recall('other-token')).toBeUndefined();
  });

  it('refuses a token past the absolute expiry of its sign-in', async () => {
    const { tokens } = await registerUser(t);
    await t.c.db
      .updateTable('refresh_token_families')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(
        'id',
        '=',
        t.c.db
          .selectFrom('refresh_tokens')
          .select('family_id')
          .where('token_hash', '=', sha256Hex(tokens.refresh_token)),
      )
      .execute();
    expect((await refresh(tokens.refresh_token)).status).toBe(401);
  });

  it('refuses an unknown token and writes nothing', async () => {
    const before = await t.c.db
      .selectFrom('refresh_tokens')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect((await refresh('not-a-real-token')).status).toBe(401);
    const after = await t.c.db
      .selectFrom('refresh_tokens')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});
