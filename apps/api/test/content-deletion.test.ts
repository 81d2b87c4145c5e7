// Deleting a model (DELETE /api/v1/models/{id}) and a photo set (DELETE
// /api/v1/upload/sessions/{id}): nothing of it is left in the database (every column of every
// table, read at run time), in the whole store or in Redis; its queued work is cancelled and its
// worker told; the training slot stays used; the rest of the person's data and another person's
// are untouched; a deletion stopped or killed halfway finishes when it runs again. On the local
// and the S3 storage drivers.
import { MESSAGES, ZModelDeletionSchema, ZPhotoSetDeletionSchema } from '@studioshot/contracts';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWithStorage, trainedPhotoSet } from './account-helpers.js';
import {
  cancelChannel,
  databaseMentions,
  jobsQueue,
  everyStoredKey,
  footprint,
  redisMentions,
  runKilledDeletion,
  seedPerson,
  stoppedAfter,
  type Allowed,
  type Person,
} from './deletion-helpers.js';
import { waitFor } from './generation-helpers.js';
import { bearer, type TestApp } from './helpers.js';
import { TRAINING_QUEUE } from './training-helpers.js';

/**
 * What deleting a model keeps on purpose: the credit ledger, whose keys name the generations
 * credits were reserved for (the accounting of what was spent).
 */
const LEDGER_KEYS: readonly Allowed[] = [{ table: 'credit_ledger', column: 'idempotency_key' }];

/** The ids that name a model and what was made from it. */
async function modelNeedles(t: TestApp, modelId: string): Promise<string[]> {
  const generations = await t.c.db
    .selectFrom('generations')
    .select('id')
    .where('model_id', '=', modelId)
    .execute();
  const images = await t.c.db
    .selectFrom('generated_images')
    .select('id')
    .where('model_id', '=', modelId)
    .execute();
  return [modelId, ...generations.map((g) => g.id), ...images.map((i) => i.id)];
}

/** The ids that name a photo set and its photos. */
async function photoSetNeedles(t: TestApp, sessionId: string): Promise<string[]> {
  const photos = await t.c.db
    .selectFrom('photos')
    .select('id')
    .where('session_id', '=', sessionId)
    .execute();
  return [sessionId, ...photos.map((p) => p.id)];
}

/** Nothing names any of these ids any more, in the database, the store or Redis. */
async function expectNoneLeft(t: TestApp, needles: string[], allowed: readonly Allowed[] = []) {
  expect(await databaseMentions(t.c.db, needles, allowed)).toEqual([]);
  expect(
    (await everyStoredKey(t.c.storage)).filter((key) => needles.some((n) => key.includes(n))),
  ).toEqual([]);
  expect(await redisMentions(t.c.redis, needles)).toEqual([]);
}

async function modelsTrained(t: TestApp, userId: string): Promise<number> {
  const user = await t.c.db
    .selectFrom('users')
    .select('models_trained')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return user.models_trained;
}

describe.each(['local', 's3'] as const)(
  'deleting a model or a photo set (%s storage)',
  (driver) => {
    let t: TestApp;
    let owner: Person;
    let other: Person;

    beforeAll(async () => {
      t = await createAppWithStorage(driver, { GENERATION_WAIT_MS: '0' });
      [owner, other] = await Promise.all([seedPerson(t, 'owner'), seedPerson(t, 'bystander')]);
    });
    afterAll(async () => {
      await t?.close();
    });

    it("another person's model, or none: 404, and nothing changes", async () => {
      const before = await footprint(t, owner);
      for (const [token, id] of [
        [other.accessToken, owner.modelId],
        [owner.accessToken, crypto.randomUUID()],
        [owner.accessToken, 'not-an-id'],
      ] as const) {
        const res = await t.request.delete(`/api/v1/models/${id}`).set(bearer(token));
        expect(res.status).toBe(404);
        expect(res.body.detail).toBe(MESSAGES.modelNotFound);
      }
      const set = await t.request
        .delete(`/api/v1/upload/sessions/${owner.trainedSessionId}`)
        .set(bearer(other.accessToken));
      expect(set.status).toBe(404);
      expect(set.body.detail).toBe(MESSAGES.sessionNotFound);
      expect((await t.request.delete(`/api/v1/models/${owner.modelId}`)).status).toBe(401);
      expect(await footprint(t, owner)).toEqual(before);
    });

    it("deletes a model: its files, its generations' images, its rows; its slot stays used", async () => {
      const needles = await modelNeedles(t, owner.modelId);
      expect(needles.length).toBeGreaterThan(3);
      // Before: it is in the database, in storage and in Redis (so the checks can see it).
      expect((await databaseMentions(t.c.db, needles, LEDGER_KEYS)).length).toBeGreaterThan(3);
      const stored = (await everyStoredKey(t.c.storage)).filter((k) =>
        needles.some((n) => k.includes(n)),
      );
      expect(stored.length).toBeGreaterThanOrEqual(7);
      expect((await redisMentions(t.c.redis, needles)).length).toBeGreaterThan(0);
      const slots = await modelsTrained(t, owner.id);
      const otherBefore = await footprint(t, other);
      const setBefore = await photoSetNeedles(t, owner.trainedSessionId);

      const res = await t.request
        .delete(`/api/v1/models/${owner.modelId}`)
        .set(bearer(owner.accessToken));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(ZModelDeletionSchema.parse(res.body)).toEqual({
        id: owner.modelId,
        status: 'deleted',
        message: MESSAGES.modelDeleted,
      });

      await expectNoneLeft(t, needles, LEDGER_KEYS);
      expect(await modelsTrained(t, owner.id)).toBe(slots);
      const models = await t.request
        .get('/api/v1/upload/user-models')
        .set(bearer(owner.accessToken));
      expect(models.body.models.map((m: { id: string }) => m.id)).not.toContain(owner.modelId);
      // The photo set it was trained from is its own thing: still there, every photo.
      expect(await photoSetNeedles(t, owner.trainedSessionId)).toEqual(setBefore);
      expect(await footprint(t, other)).toEqual(otherBefore);
      // Gone is gone: again, 404.
      const again = await t.request
        .delete(`/api/v1/models/${owner.modelId}`)
        .set(bearer(owner.accessToken));
      expect(again.status).toBe(404);
    });

    it('a queued training is cancelled first: its job leaves the queue, its worker is told, the slot stays used', async () => {
      const cancels = await cancelChannel(t);
      const queue = new Queue(TRAINING_QUEUE, {
        connection: t.c.redis,
        prefix: `${t.c.env.REDIS_PREFIX}bull`,
      });
      expect(await queue.getJob(owner.queuedTrainingId)).toBeDefined();
      const slots = await modelsTrained(t, owner.id);
      const res = await t.request
        .delete(`/api/v1/models/${owner.queuedTrainingId}`)
        .set(bearer(owner.accessToken));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(cancels.published).toContain(owner.queuedTrainingId);
      expect(await queue.getJob(owner.queuedTrainingId)).toBeUndefined();
      expect(await modelsTrained(t, owner.id)).toBe(slots);
      await expectNoneLeft(t, [owner.queuedTrainingId]);
      await queue.close();
      await cancels.close();
    });

    it('deletes a photo set after training: every photo and copy; the model trained from it keeps working', async () => {
      const set = await trainedPhotoSet(t, owner.id, { finishedDaysAgo: 2, photos: 3 });
      const needles = await photoSetNeedles(t, set.sessionId);
      expect(
        (await everyStoredKey(t.c.storage)).filter((k) => k.includes(set.sessionId)),
      ).toHaveLength(9);
      const otherBefore = await footprint(t, other);

      const res = await t.request
        .delete(`/api/v1/upload/sessions/${set.sessionId}`)
        .set(bearer(owner.accessToken));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(ZPhotoSetDeletionSchema.parse(res.body)).toEqual({
        id: set.sessionId,
        status: 'deleted',
        message: MESSAGES.photoSetDeleted,
      });
      await expectNoneLeft(t, needles);
      const model = await t.c.db
        .selectFrom('models')
        .select(['status', 'session_id', 'artifact_key'])
        .where('id', '=', set.modelId)
        .executeTakeFirstOrThrow();
      expect(model).toMatchObject({ status: 'completed', session_id: null });
      expect(model.artifact_key).not.toBeNull();
      expect(await footprint(t, other)).toEqual(otherBefore);
      const again = await t.request
        .get(`/api/v1/upload/sessions/${set.sessionId}`)
        .set(bearer(owner.accessToken));
      expect(again.status).toBe(404);
    });

    it('refuses a photo set whose training has not finished (409), and changes nothing', async () => {
      const set = await trainedPhotoSet(t, owner.id, {
        finishedDaysAgo: 0,
        photos: 2,
        taskStatus: 'running',
      });
      const before = await footprint(t, owner);
      const res = await t.request
        .delete(`/api/v1/upload/sessions/${set.sessionId}`)
        .set(bearer(owner.accessToken));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: MESSAGES.photoSetInTraining, code: 'conflict' });
      expect(await footprint(t, owner)).toEqual(before);
    });

    it('deletes a set still being uploaded: its photo, its files and its queued check', async () => {
      const photo = await t.c.db
        .selectFrom('photos')
        .select('id')
        .where('session_id', '=', owner.uploadSessionId)
        .executeTakeFirstOrThrow();
      const checks = new Queue('photo-checks', {
        connection: t.c.redis,
        prefix: `${t.c.env.REDIS_PREFIX}bull`,
      });
      expect(await checks.getJob(`photo-${photo.id}`)).toBeDefined();
      const res = await t.request
        .delete(`/api/v1/upload/sessions/${owner.uploadSessionId}`)
        .set(bearer(owner.accessToken));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await checks.getJob(`photo-${photo.id}`)).toBeUndefined();
      await expectNoneLeft(t, [owner.uploadSessionId, photo.id]);
      await checks.close();
    });

    it('a model deletion and a photo set deletion stopped after each step in turn finish when they run again', async () => {
      const set = await trainedPhotoSet(t, owner.id, { finishedDaysAgo: 3, photos: 2 });
      const modelNeedlesBefore = await modelNeedles(t, set.modelId);
      const setNeedlesBefore = await photoSetNeedles(t, set.sessionId);
      const otherBefore = await footprint(t, other);
      for (let stopAfter = 1; stopAfter < t.c.deletions.models.stepCount; stopAfter++)
        expect(
          await stoppedAfter(stopAfter, (run) => t.c.deletions.models.run(set.modelId, run)),
        ).toBe(stopAfter);
      for (let stopAfter = 1; stopAfter < t.c.deletions.photoSets.stepCount; stopAfter++)
        expect(
          await stoppedAfter(stopAfter, (run) => t.c.deletions.photoSets.run(set.sessionId, run)),
        ).toBe(stopAfter);
      // The queue runs them again, as after a crash.
      await finishedByQueue(t, t.c.deletions.models.enqueue(set.modelId));
      await finishedByQueue(t, t.c.deletions.photoSets.enqueue(set.sessionId));
      await expectNoneLeft(t, modelNeedlesBefore);
      await expectNoneLeft(t, setNeedlesBefore);
      expect(await footprint(t, other)).toEqual(otherBefore);
    });

    // One of each kind killed for real, one on each driver.
    const killed = driver === 'local' ? 'model' : 'photo-set';
    it(`a ${killed} deletion whose process is killed (SIGKILL) halfway finishes when the queue runs it again`, async () => {
      const set = await trainedPhotoSet(t, owner.id, { finishedDaysAgo: 3, photos: 2 });
      const target = killed === 'model' ? set.modelId : set.sessionId;
      const needles =
        killed === 'model'
          ? await modelNeedles(t, set.modelId)
          : await photoSetNeedles(t, set.sessionId);
      const queue = jobsQueue(t);
      await queue.pause();
      try {
        // Killed with its files gone and its rows still there.
        await runKilledDeletion(t, killed, target, 2);
        const rows = await t.c.db
          .selectFrom(killed === 'model' ? 'models' : 'upload_sessions')
          .select('id')
          .where('id', '=', target)
          .execute();
        expect(rows).toHaveLength(1);
        expect((await everyStoredKey(t.c.storage)).filter((k) => k.includes(target))).toEqual([]);
      } finally {
        await queue.resume();
        await queue.close();
      }
      await finishedByQueue(
        t,
        killed === 'model'
          ? t.c.deletions.models.enqueue(target)
          : t.c.deletions.photoSets.enqueue(target),
      );
      await expectNoneLeft(t, needles);
    });
  },
);

/** Waits for the job facility to finish a deletion job (queued as its call queues it). */
async function finishedByQueue(t: TestApp, queued: Promise<string>) {
  const jobId = await queued;
  await waitFor(
    async () => ((await t.c.scheduled.finished(jobId, 5_000)) ? true : undefined),
    `deletion job ${jobId}`,
  );
}
