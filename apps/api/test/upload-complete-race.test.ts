import { MIN_PHOTOS, ZErrorSchema } from '@studioshot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers.js';
import { completedSession, trainingUser, type TestUser } from './training-helpers.js';

/**
 * Completing an upload session while its photos are being deleted: whatever the interleaving, a
 * session never completes, and a model never trains, on fewer than the minimum of usable photos.
 */

let t: TestApp;
let user: TestUser;
/** Rounds of the race: each one a fresh session raced from scratch. */
const ROUNDS = 30;

beforeAll(async () => {
  t = await createTestApp();
  user = await trainingUser(t, ROUNDS + 2);
});
afterAll(() => t.close());

async function usablePhotos(sessionId: string): Promise<string[]> {
  const rows = await t.c.db
    .selectFrom('photos')
    .select('id')
    .where('session_id', '=', sessionId)
    .where('usable', '=', true)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.id);
}

type Outcome = 'completedFirst' | 'deletedFirst' | 'mixed';

/** A fresh session with two photos over the minimum, and three of its photos to delete. */
async function raceSetup(): Promise<{ sessionId: string; victims: string[] }> {
  const sessionId = await completedSession(t, user.id, {
    usable: MIN_PHOTOS + 2,
    status: 'uploading',
  });
  return { sessionId, victims: (await usablePhotos(sessionId)).slice(0, 3) };
}

const completeCall = (sessionId: string) =>
  t.request.post(`/api/v1/upload/complete/${sessionId}`).set(bearer(user.token));
const deleteCall = (id: string) =>
  t.request.delete(`/api/v1/upload/photos/${id}`).set(bearer(user.token));

/**
 * What one round left must hold whatever the order: completing after all three deletes would
 * leave MIN_PHOTOS - 1, so either the complete won (and a training starts on what is there, never
 * below the minimum) or it was refused (and the session stays open to add more).
 */
async function checkRound(
  round: string,
  sessionId: string,
  completed: Awaited<ReturnType<typeof completeCall>>,
  deleted: Awaited<ReturnType<typeof deleteCall>>[],
): Promise<Outcome> {
  const session = await t.c.db
    .selectFrom('upload_sessions')
    .select('status')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const left = (await usablePhotos(sessionId)).length;
  const deletedCount = deleted.filter((res) => res.status === 204).length;
  expect(left).toBe(MIN_PHOTOS + 2 - deletedCount);

  if (completed.status === 200) {
    // Completed: on what is there now (no delete got in after), never below the minimum.
    expect(session.status).toBe('completed');
    expect(left).toBeGreaterThanOrEqual(MIN_PHOTOS);
    for (const res of deleted.filter((r) => r.status !== 204)) {
      expect([404, 409]).toContain(res.status);
    }
    const training = await t.request
      .post('/api/v1/training/start')
      .set(bearer(user.token))
      .send({ model_name: `Round ${round}`, session_id: sessionId });
    expect(training.status, JSON.stringify(training.body)).toBe(201);
    expect(training.body.training_photos).toBe(left);
    expect(training.body.training_photos).toBeGreaterThanOrEqual(MIN_PHOTOS);
  } else {
    // Refused: the deletes left too few, and the session is still open to add more.
    expect(completed.status, JSON.stringify(completed.body)).toBe(400);
    expect(session.status).toBe('uploading');
    expect(left).toBeLessThan(MIN_PHOTOS);
  }
  if (completed.status === 200 && deletedCount === 0) return 'completedFirst';
  if (completed.status !== 200 && deletedCount === 3) return 'deletedFirst';
  return 'mixed';
}

describe('complete against deletes', () => {
  it('in either order, one after the other: complete first wins, deletes first refuse it', async () => {
    // Both sides of checkRound, each reached for sure (the concurrent rounds below may not).
    const first = await raceSetup();
    const completed = await completeCall(first.sessionId);
    const late = [];
    for (const id of first.victims) late.push(await deleteCall(id));
    expect(await checkRound('complete first', first.sessionId, completed, late)).toBe(
      'completedFirst',
    );

    const second = await raceSetup();
    const early = [];
    for (const id of second.victims) early.push(await deleteCall(id));
    const refused = await completeCall(second.sessionId);
    expect(await checkRound('deletes first', second.sessionId, refused, early)).toBe(
      'deletedFirst',
    );
  });

  it(`never completes or trains below ${MIN_PHOTOS} usable photos (${ROUNDS} concurrent rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { sessionId, victims } = await raceSetup();
      const [completed, ...deleted] = await Promise.all([
        completeCall(sessionId),
        ...victims.map(deleteCall),
      ]);
      await checkRound(String(round), sessionId, completed, deleted);
    }
  });

  it('a training never starts on a completed session that holds fewer than the minimum', async () => {
    // However it came to be (a set re-judged after completion, a row edited by hand), the
    // training start counts again under the session lock.
    const sessionId = await completedSession(t, user.id, {
      usable: MIN_PHOTOS - 1,
      unusable: 3,
    });
    const res = await t.request
      .post('/api/v1/training/start')
      .set(bearer(user.token))
      .send({ model_name: 'Too few', session_id: sessionId });
    expect(res.status).toBe(409);
    expect(ZErrorSchema.parse(res.body).detail).toMatch(/Minimum 10 photos required/);
    const models = await t.c.db
      .selectFrom('models')
      .select('id')
      .where('session_id', '=', sessionId)
      .execute();
    expect(models).toEqual([]);
  });
});
