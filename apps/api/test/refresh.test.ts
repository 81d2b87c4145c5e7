import { MESSAGES, ZRefreshResponseSchema } from '@studioshot/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('revokes the whole family when an old token is reused', async () => {
    const { tokens } = await registerUser(t);
    const rotated = await refresh(tokens.refresh_token);
    expect(rotated.status).toBe(200);

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

  it('lets exactly one of two concurrent uses of the same token win', async () => {
    const { tokens } = await registerUser(t);
    const results = await Promise.all([
      refresh(tokens.refresh_token),
      refresh(tokens.refresh_token),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401]);
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
