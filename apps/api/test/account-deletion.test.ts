// Deleting an account (DELETE /api/v1/users/me): nothing of the person is left in the database
// (every column of every table, read at run time), in storage (the whole store) or in Redis
// (every key and value), except the accounting on a tombstone; another person is untouched; a
// deletion whose process is killed halfway finishes when the queue runs it again; the e-mail
// signs up again as a new person. On the local and the S3 storage drivers.
import { MESSAGES, ZAccountDeletionSchema, type AccountDeletion } from '@studioshot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWithStorage } from './account-helpers.js';
import {
  ACCOUNTING_MENTIONS,
  cancelChannel,
  databaseMentions,
  jobsQueue,
  everyStoredKey,
  footprint,
  needlesOf,
  redisMentions,
  runKilledDeletion,
  seedPerson,
  stoppedAfter,
  type Person,
} from './deletion-helpers.js';
import { waitFor } from './generation-helpers.js';
import { bearer, type TestApp } from './helpers.js';

/** Steps of the account deletion job (services/account-deletion.service.ts). */
const STEPS = 8;

function deleteAccount(t: TestApp, person: Person, password = person.password) {
  return t.request.delete('/api/v1/users/me').set(bearer(person.accessToken)).send({ password });
}

async function deletionStatus(t: TestApp, id: string): Promise<AccountDeletion> {
  const res = await t.request.get(`/api/v1/users/deletions/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ZAccountDeletionSchema.parse(res.body);
}

/** Polls the deletion's public status until it says deleted. */
function deleted(t: TestApp, id: string) {
  return waitFor(async () => {
    const status = await deletionStatus(t, id);
    return status.status === 'deleted' ? status : undefined;
  }, `deletion ${id}`);
}

/** Nothing of the person anywhere, but the accounting on the tombstone. */
async function expectNothingLeft(t: TestApp, person: Person) {
  const needles = needlesOf(person);
  expect(await databaseMentions(t.c.db, needles, ACCOUNTING_MENTIONS)).toEqual([]);
  // The e-mail is nowhere at all, the accounting included.
  expect(await databaseMentions(t.c.db, [person.email])).toEqual([]);
  expect((await everyStoredKey(t.c.storage)).filter((key) => key.includes(person.id))).toEqual([]);
  expect(await redisMentions(t.c.redis, needles)).toEqual([]);
  const tombstone = await t.c.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', person.id)
    .executeTakeFirstOrThrow();
  expect(tombstone).toMatchObject({
    email: null,
    name: null,
    password_hash: null,
    gender: null,
    age: null,
    credits_balance: 0,
    plan_type: 'free',
  });
  expect(tombstone.deleted_at).toBeInstanceOf(Date);
  // The accounting is still there, on the tombstone's id.
  const payments = await t.c.db
    .selectFrom('payments')
    .select('id')
    .where('user_id', '=', person.id)
    .execute();
  expect(payments.length).toBeGreaterThan(0);
  const ledger = await t.c.db
    .selectFrom('credit_ledger')
    .select(['delta', 'reason', 'balance_after'])
    .where('user_id', '=', person.id)
    .orderBy('created_at')
    .execute();
  // The credits left went through the ledger: it still adds up to the (zero) balance.
  expect(ledger.at(-1)).toMatchObject({ reason: 'account_deleted', balance_after: 0 });
  expect(ledger.reduce((sum, entry) => sum + entry.delta, 0)).toBe(0);
}

/** Nobody signs in to it any more; its tokens are dead; the e-mail is a new person's to take. */
async function expectGoneForGood(t: TestApp, person: Person) {
  const login = await t.request
    .post('/api/v1/auth/login')
    .send({ email: person.email, password: person.password });
  expect(login.status).toBe(401);
  expect(login.body.detail).toBe(MESSAGES.invalidCredentials);
  expect(
    (await t.request.get('/api/v1/users/profile').set(bearer(person.accessToken))).status,
  ).toBe(401);
  expect(
    (await t.request.post('/api/v1/auth/refresh').send({ refresh_token: person.refreshToken }))
      .status,
  ).toBe(401);
  const again = await t.request
    .post('/api/v1/auth/register')
    .send({ email: person.email, password: 'a new password', name: 'Someone New' });
  expect(again.status, JSON.stringify(again.body)).toBe(201);
  const fresh = again.body as { user: { id: string; email: string; credits_balance: number } };
  expect(fresh.user.id).not.toBe(person.id);
  expect(fresh.user).toMatchObject({ email: person.email, credits_balance: 0 });
  const profile = await t.request
    .get('/api/v1/users/profile')
    .set(bearer((again.body as { access_token: string }).access_token));
  expect(profile.body).toMatchObject({ id: fresh.user.id, name: 'Someone New', models_trained: 0 });
}

describe.each(['local', 's3'] as const)('deleting an account (%s storage)', (driver) => {
  let t: TestApp;
  let other: Person;

  beforeAll(async () => {
    t = await createAppWithStorage(driver, { GENERATION_WAIT_MS: '0' });
    other = await seedPerson(t, 'bystander');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('with a wrong password: a clear 403, and nothing changes', async () => {
    const person = await seedPerson(t, 'careful');
    const before = await footprint(t, person);
    const res = await deleteAccount(t, person, 'not my password');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: MESSAGES.deletePasswordWrong, code: 'forbidden' });
    const missing = await t.request
      .delete('/api/v1/users/me')
      .set(bearer(person.accessToken))
      .send({});
    expect(missing.status).toBe(422);
    expect(await footprint(t, person)).toEqual(before);
    const user = await t.c.db
      .selectFrom('users')
      .select(['deletion_requested_at', 'email'])
      .where('id', '=', person.id)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ deletion_requested_at: null, email: person.email });
    // Still signed in, still able to sign in.
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(person.accessToken))).status,
    ).toBe(200);
    expect(
      (
        await t.request
          .post('/api/v1/auth/login')
          .send({ email: person.email, password: person.password })
      ).status,
    ).toBe(200);
  });

  it('limits password guesses like sign-in attempts: then 429, and still nothing changes', async () => {
    const person = await seedPerson(t, 'guessed');
    const before = await footprint(t, person);
    for (let i = 0; i < t.c.env.LOGIN_MAX_PER_ACCOUNT_ADDRESS; i++)
      expect((await deleteAccount(t, person, `guess ${i}`)).status).toBe(403);
    const refused = await deleteAccount(t, person);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(await footprint(t, person)).toEqual(before);
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(person.accessToken))).status,
    ).toBe(200);
  });

  it('deletes everything about the person, keeps the accounting on a tombstone, and frees the e-mail', async () => {
    const person = await seedPerson(t, 'leaving');
    const otherBefore = await footprint(t, other);
    // Before: the person is everywhere the checks look (so the checks can see them).
    const tablesBefore = new Set(
      (await databaseMentions(t.c.db, needlesOf(person))).map((m) => m.table),
    );
    for (const table of [
      'users',
      'refresh_token_families',
      'password_reset_tokens',
      'outbox_emails',
      'subscriptions',
      'upload_sessions',
      'photos',
      'models',
      'tasks',
      'generations',
      'generated_images',
      'data_exports',
    ])
      expect(tablesBefore).toContain(table);
    expect(
      (await everyStoredKey(t.c.storage)).filter((k) => k.includes(person.id)).length,
    ).toBeGreaterThan(10);
    const inRedis = await redisMentions(t.c.redis, needlesOf(person));
    expect(inRedis.some((m) => m.key.includes(':rl:'))).toBe(true);
    expect(inRedis.some((m) => m.in === 'value')).toBe(true);
    const cancels = await cancelChannel(t);

    const res = await deleteAccount(t, person);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const accepted = ZAccountDeletionSchema.parse(res.body);
    expect(accepted).toMatchObject({ status: 'deleting', steps_total: STEPS });
    // Signed out at once, this very token included.
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(person.accessToken))).status,
    ).toBe(401);

    const done = await deleted(t, accepted.deletion_id);
    expect(done).toEqual({
      deletion_id: accepted.deletion_id,
      status: 'deleted',
      steps_done: STEPS,
      steps_total: STEPS,
      message: MESSAGES.accountDeleted,
    });
    // The queued training was stopped (its worker told), its slot not given back to anyone.
    expect(cancels.published).toContain(person.queuedTrainingId);
    await cancels.close();

    await expectNothingLeft(t, person);
    expect(await footprint(t, other)).toEqual(otherBefore);
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(other.accessToken))).status,
    ).toBe(200);
    await expectGoneForGood(t, person);
  });

  it('an unknown deletion id is answered 404', async () => {
    const res = await t.request.get(`/api/v1/users/deletions/${crypto.randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe(MESSAGES.accountDeletionNotFound);
    expect((await t.request.get('/api/v1/users/deletions/nope')).status).toBe(404);
  });

  it('a deletion stopped after each step in turn finishes when it runs again', async () => {
    const person = await seedPerson(t, 'stopped');
    const otherBefore = await footprint(t, other);
    const queue = jobsQueue(t);
    await queue.pause();
    let id: string;
    try {
      const res = await deleteAccount(t, person);
      expect(res.status).toBe(202);
      id = ZAccountDeletionSchema.parse(res.body).deletion_id;
      // Each run goes one step further than the last and is stopped there, as a worker that
      // dies between two steps; every later run does all the earlier steps again.
      for (let stopAfter = 1; stopAfter < STEPS; stopAfter++) {
        const reached = await stoppedAfter(stopAfter, (run) => t.c.deletions.accounts.run(id, run));
        expect(reached).toBe(stopAfter);
        expect((await deletionStatus(t, id)).status).toBe('deleting');
      }
    } finally {
      await queue.resume();
      await queue.close();
    }
    await deleted(t, id);
    await expectNothingLeft(t, person);
    expect(await footprint(t, other)).toEqual(otherBefore);
    await expectGoneForGood(t, person);
  });

  it('a deletion whose process is killed (SIGKILL) halfway finishes when the queue runs it again', async () => {
    const person = await seedPerson(t, 'killed');
    const otherBefore = await footprint(t, other);
    const queue = jobsQueue(t);
    await queue.pause();
    let id: string;
    try {
      const res = await deleteAccount(t, person);
      expect(res.status).toBe(202);
      id = ZAccountDeletionSchema.parse(res.body).deletion_id;
      // Killed with the rows gone and the files, the Redis traces' last run and the tombstone
      // still to do.
      await runKilledDeletion(t, 'account', id, 6);
      expect((await deletionStatus(t, id)).status).toBe('deleting');
    } finally {
      await queue.resume();
      await queue.close();
    }
    await deleted(t, id);
    await expectNothingLeft(t, person);
    expect(await footprint(t, other)).toEqual(otherBefore);
    await expectGoneForGood(t, person);
  });
});
