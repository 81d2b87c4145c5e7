// The retention purge on a clock: photo sets whose training finished more than
// PHOTO_RETENTION_DAYS ago lose their photos (rows and the three stored objects of each), run as
// the real scheduled job on both storage drivers (a temp directory, and a bucket on the
// S3-compatible test server), listing storage afterwards; a second run removes nothing.
import { generationImageKey } from '@studioshot/storage';
import type { Job } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SCHEDULED_JOBS } from '@studioshot/contracts';
import { registerScheduledWork } from '../src/scheduling/scheduled-work.js';
import type { PurgeReport } from '../src/services/retention.service.js';
import {
  createAppWithStorage,
  storedKeys,
  trainedPhotoSet,
  type StorageDriver,
} from './account-helpers.js';
import { jpeg } from './generation-helpers.js';
import { registerUser, type TestApp } from './helpers.js';

afterAll(() => {
  vi.unstubAllEnvs();
});

async function signedUp(t: TestApp): Promise<string> {
  const user = await registerUser(t);
  return (user.res.body as { user: { id: string } }).user.id;
}

async function photoCount(t: TestApp, sessionId: string): Promise<number> {
  const { n } = await t.c.db
    .selectFrom('photos')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Registers the API's scheduled work (as main.ts does), starts the worker, and answers the report
 * of the retention purge's first tick, which runs at once.
 */
async function firstScheduledPurge(t: TestApp): Promise<PurgeReport> {
  const worker = t.c.scheduled.start();
  const done = new Promise<PurgeReport>((resolve, reject) => {
    const onCompleted = (job: Job, value: unknown) => {
      if (job.name !== SCHEDULED_JOBS.retentionPurge) return;
      worker.off('completed', onCompleted);
      resolve(value as PurgeReport);
    };
    worker.on('completed', onCompleted);
    worker.on('failed', (job, error) => {
      if (job?.name === SCHEDULED_JOBS.retentionPurge) reject(error);
    });
  });
  await registerScheduledWork(t.c);
  return done;
}

describe.each(['local', 's3'] as const)(
  'the retention purge (%s storage)',
  (driver: StorageDriver) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createAppWithStorage(driver);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('deletes photo sets a retention period after their training finished, files and rows, and only once', async () => {
      expect(t.c.env.PHOTO_RETENTION_DAYS).toBe(30);
      const userId = await signedUp(t);
      const due = await trainedPhotoSet(t, userId, { finishedDaysAgo: 31 });
      const failedDue = await trainedPhotoSet(t, userId, {
        finishedDaysAgo: 45,
        taskStatus: 'failed',
      });
      const recent = await trainedPhotoSet(t, userId, { finishedDaysAgo: 29 });
      // Still training (started long ago): its photos are in use.
      const training = await trainedPhotoSet(t, userId, {
        finishedDaysAgo: 40,
        taskStatus: 'running',
      });
      // Trained before generation existed: rebuilt from its photos at its first generation.
      const rebuild = await trainedPhotoSet(t, userId, { finishedDaysAgo: 40, artifactFormat: 1 });
      // Generated headshots are kept until their owner deletes them.
      const headshot = generationImageKey(userId, randomUUID(), '0-0.jpg');
      await t.c.storage.putStream(headshot, Readable.from(await jpeg({ r: 1, g: 2, b: 3 })));
      // Another person's set past its time goes too; their recent one stays.
      const otherId = await signedUp(t);
      const otherRecent = await trainedPhotoSet(t, otherId, { finishedDaysAgo: 1 });

      const report = await firstScheduledPurge(t);
      expect(report).toEqual({
        photo_sets: 2,
        photos: 4,
        files: 12,
        exports: 0,
        held_for_rebuild: 1,
      });

      // Storage, listed: only what is still needed or not yet due is left.
      expect(await storedKeys(t.c.storage, userId)).toEqual(
        [...recent.keys, ...training.keys, ...rebuild.keys, headshot].sort(),
      );
      expect(await storedKeys(t.c.storage, otherId)).toEqual([...otherRecent.keys].sort());
      // Rows: the purged sets keep their session (the model names it), marked, without photos.
      for (const set of [due, failedDue]) {
        expect(await photoCount(t, set.sessionId)).toBe(0);
        const session = await t.c.db
          .selectFrom('upload_sessions')
          .select('photos_purged_at')
          .where('id', '=', set.sessionId)
          .executeTakeFirstOrThrow();
        expect(session.photos_purged_at).toBeInstanceOf(Date);
      }
      for (const set of [recent, training, rebuild, otherRecent])
        expect(await photoCount(t, set.sessionId)).toBe(set.photoIds.length);
      // The models trained from the purged sets are untouched.
      const models = await t.c.db
        .selectFrom('models')
        .select(['id', 'status'])
        .where('id', 'in', [due.modelId, failedDue.modelId])
        .execute();
      expect(models).toHaveLength(2);

      // Idempotent: nothing more is due, and the report says so.
      expect(await t.c.retention.purge()).toEqual({
        photo_sets: 0,
        photos: 0,
        files: 0,
        exports: 0,
        held_for_rebuild: 1,
      });
      expect(await storedKeys(t.c.storage, userId)).toEqual(
        [...recent.keys, ...training.keys, ...rebuild.keys, headshot].sort(),
      );

      // Two more days on the clock, and the 29-day set is due as well.
      const later = new Date(Date.now() + 2 * 86_400_000);
      expect(await t.c.retention.purge(later)).toMatchObject({
        photo_sets: 1,
        photos: 2,
        files: 6,
      });
      expect(await photoCount(t, recent.sessionId)).toBe(0);
    });

    it('is registered as an hourly repeating job on the scheduled-jobs facility', async () => {
      const schedulers = await t.c.scheduled.queue.getJobSchedulers();
      const purge = schedulers.find((s) => s.key === SCHEDULED_JOBS.retentionPurge);
      expect(purge?.every).toBe(60 * 60_000);
    });
  },
);
