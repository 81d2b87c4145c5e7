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
  user = await trainingUser(t, ROUNDS);
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

describe('complete against deletes', () => {
  it(`never completes or trains below ${MIN_PHOTOS} usable photos (${ROUNDS} rounds)`, async () => {
    const outcomes = { completedFirst: 0, deletedFirst: 0, mixed: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      // Two photos over the minimum, and three deletes racing the complete: whichever way it
      // goes, completing after all three would leave MIN_PHOTOS - 1.
      const sessionId = await completedSession(t, user.id, {
        usable: MIN_PHOTOS + 2,
        status: 'uploading',
      });
      const victims = (await usablePhotos(sessionId)).slice(0, 3);
      const complete = t.request
        .post(`/api/v1/upload/complete/${sessionId}`)
        .set(bearer(user.token));
      const deletes = victims.map((id) =>
        t.request.delete(`/api/v1/upload/photos/${id}`).set(bearer(user.token)),
      );
      const [completed, ...deleted] = await Promise.all([complete, ...deletes]);

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
      if (completed.status === 200 && deletedCount === 0) outcomes.completedFirst += 1;
      else if (completed.status !== 200 && deletedCount === 3) outcomes.deletedFirst += 1;
      else outcomes.mixed += 1;
    }
    // Both orders happened: the race was really run, not one side always first.
    expect(outcomes.completedFirst + outcomes.mixed).toBeGreaterThan(0);
    expect(outcomes.deletedFirst + outcomes.mixed).toBeGreaterThan(0);
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
