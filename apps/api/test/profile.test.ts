import { ZUserSchema } from '@studioshot/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsersRepository } from '../src/repositories/users.repository.js';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t, { name: 'Katherine Johnson' })).tokens.access_token;
});
afterAll(() => t.close());

const get = () => t.request.get('/api/v1/users/profile').set(bearer(token));
const patch = (body: unknown) =>
  t.request
    .patch('/api/v1/users/profile')
    .set(bearer(token))
    .send(body as object);

describe('GET /api/v1/users/profile', () => {
  it('answers every field of the spec', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const user = ZUserSchema.parse(res.body);
    for (const field of [
      'name',
      'full_name',
      'first_name',
      'email',
      'id',
      'plan_type',
      'training_limit',
      'models_trained',
      'gender',
      'age',
      'credits_balance',
      'subscription_interval',
      'total_generations',
    ]) {
      expect(res.body).toHaveProperty(field);
    }
    expect(user.first_name).toBe('Katherine');
  });

  it('answers without an ETag: an account is read fresh, never revalidated', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
  });

  it('ignores a body sent with the read: a GET has none to parse', async () => {
    const res = await get().set('Content-Type', 'application/json').send('{"not json');
    expect(res.status).toBe(200);
    expect(res.body.first_name).toBe('Katherine');
  });
});

describe('PATCH /api/v1/users/profile', () => {
  it('sets gender and age, and clears age with null', async () => {
    const res = await patch({ gender: 'female', age: 42 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ gender: 'female', age: 42 });
    expect((await get()).body).toMatchObject({ gender: 'female', age: 42 });
    expect((await patch({ age: null })).body.age).toBeNull();
    expect((await patch({ age: 18 })).body.age).toBe(18);
    expect((await patch({ age: 100 })).body.age).toBe(100);
  });

  it.each([
    [{ gender: 'other' }, 'gender'],
    [{ gender: 'MALE' }, 'gender'],
    [{ age: 17 }, 'Age must be between 18 and 100'],
    [{ age: 101 }, 'Age must be between 18 and 100'],
    [{ age: 30.5 }, 'Age must be a whole number'],
    [{ age: '30' }, 'Age must be a number'],
    [{ plan_type: 'premium' }, 'plan_type'],
    [{ credits_balance: 1000 }, 'credits_balance'],
  ])('refuses %j with 422 and changes nothing', async (body, message) => {
    await patch({ gender: 'male', age: 30 }).expect(200);
    const res = await patch(body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.detail).toContain(message);
    expect((await get()).body).toMatchObject({
      gender: 'male',
      age: 30,
      plan_type: 'free',
      credits_balance: 0,
    });
  });
});

describe('the profile cache', () => {
  it('shows a change made by another process (plain SQL, as the worker writes) at once', async () => {
    const before = await get();
    expect(before.status).toBe(200);
    const id = before.body.id as string;
    await t.c.db.updateTable('users').set({ credits_balance: 77 }).where('id', '=', id).execute();
    expect(await profileFieldSettlesOn('credits_balance', 77)).toBe(77);
    await t.c.db.updateTable('users').set({ credits_balance: 0 }).where('id', '=', id).execute();
  });

  it("a signed-in write drops the caller's entry before its answer, whatever Postgres announces", async () => {
    const id = (await get()).body.id as string;
    await until(() => t.c.userCache.live);
    // A stale entry no announcement will drop (nothing below changes the row).
    const row = await t.c.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const stale = { ...row, credits_balance: 12_345 };
    t.c.userCache.set(stale, t.c.userCache.mark(id));
    expect(t.c.userCache.get(id)?.credits_balance).toBe(12_345);
    // A read keeps it.
    expect((await get()).body.credits_balance).toBe(12_345);
    // A write, even one refused (so the row is untouched), drops it.
    expect((await patch({ age: 7 })).status).toBe(422);
    expect(t.c.userCache.get(id)).toBeUndefined();
    expect((await get()).body.credits_balance).not.toBe(12_345);
  });

  it('reads that miss together share one query, unless a change came between them', async () => {
    const id = (await get()).body.id as string;
    await until(() => t.c.userCache.live);
    const users = new UsersRepository(t.c.db, t.c.userCache);
    t.c.userCache.changed(id); // a miss
    const [first, second] = await Promise.all([
      users.findByIdForDisplay(id),
      users.findByIdForDisplay(id),
    ]);
    expect(first).toBeDefined();
    expect(second).toBe(first); // the same row object: one query answered both

    t.c.userCache.changed(id);
    const beforeChange = users.findByIdForDisplay(id);
    await t.c.db.updateTable('users').set({ age: 41 }).where('id', '=', id).execute();
    t.c.userCache.changed(id); // what the announcement of that update does
    const afterChange = users.findByIdForDisplay(id);
    expect(await afterChange).not.toBe(await beforeChange);
    expect((await afterChange)?.age).toBe(41);
  });

  it('stays correct when its Postgres feed is cut, and comes back', async () => {
    const id = (await get()).body.id as string;
    expect(t.c.userCache.live).toBe(true);
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE datname = current_database() AND query ILIKE 'LISTEN users_changed%'`.execute(
      t.c.db,
    );
    // A cut is only known once the socket closes; from then on nothing is served from the cache.
    await until(() => !t.c.userCache.live);
    await t.c.db.updateTable('users').set({ total_generations: 5 }).where('id', '=', id).execute();
    expect((await get()).body.total_generations).toBe(5);
    await until(() => t.c.userCache.live);
    expect((await get()).body.total_generations).toBe(5); // cached again
    await t.c.db.updateTable('users').set({ total_generations: 6 }).where('id', '=', id).execute();
    expect(await profileFieldSettlesOn('total_generations', 6)).toBe(6);
  });
});

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Reads the profile until `field` shows `wanted` (for up to 2 s); answers what it last showed. */
async function profileFieldSettlesOn(field: string, wanted: number): Promise<number> {
  const deadline = Date.now() + 2000;
  let seen = (await get()).body[field] as number;
  while (seen !== wanted && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    seen = (await get()).body[field] as number;
  }
  return seen;
}
