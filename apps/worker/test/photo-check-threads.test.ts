import { JOB_NAMES, QUEUES } from '@studioshot/contracts';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPhotoAnalyzer } from '../src/photo-checks/analyze-photo.js';
import { PhotoAnalyzerPool } from '../src/photo-checks/analyzer-pool.js';
import type { PhotoAnalysis } from '../src/photo-checks/types.js';
import { startWorker, type RunningWorker } from '../src/worker-app.js';
import { createSuite, FIXTURES, waitFor, type Suite } from './support/harness.js';

/** Stops the thread analysing the first photo it is given, as a crash in that thread would. */
class PoolThatLosesAThread extends PhotoAnalyzerPool {
  lost = 0;
  override analyzePhoto(file: string): Promise<PhotoAnalysis> {
    const analysis = super.analyzePhoto(file);
    if (this.lost === 0) {
      this.lost += 1;
      void this.liveThreads()[0]!.terminate();
    }
    return analysis;
  }
}

let suite: Suite;

beforeAll(async () => {
  suite = await createSuite();
}, 120_000);

afterAll(async () => {
  await suite?.close();
});

describe('photo checks on worker threads', () => {
  it('runs as many checks at once as it has threads, each with its own models, as in-process', async () => {
    const pool = new PhotoAnalyzerPool(2);
    try {
      await pool.ready();
      const photo = path.join(FIXTURES, 'astronaut.jpg');
      // Two photos given at once go to the two threads, one each.
      const answers = await Promise.all([pool.analyzeOnThread(photo), pool.analyzeOnThread(photo)]);
      expect(new Set(answers.map((a) => a.threadId)).size).toBe(2);
      const inProcess = await (await createPhotoAnalyzer()).analyzePhoto(photo);
      for (const { analysis } of answers) expect(analysis).toEqual(inProcess);
      await expect(pool.analyzePhoto(path.join(FIXTURES, 'missing.jpg'))).rejects.toMatchObject({
        name: 'PhotoUnreadableError',
      });
    } finally {
      await pool.close();
    }
  });

  it('a thread stopped mid-check loses nothing: the job is retried on its replacement', async () => {
    const { db, storage } = suite;
    const pool = new PoolThatLosesAThread(1);
    let worker: RunningWorker | undefined;
    try {
      worker = await startWorker(suite.env({ WORKER_POOL: 'photo-checks' }), {
        db,
        storage,
        logger: pino({ level: 'silent' }),
        photoAnalyzers: pool,
      });
      // A photo-checks worker runs no engine and takes no task queue.
      expect(worker.engine).toBeUndefined();
      expect(worker.queues).toEqual([QUEUES.photoChecks]);

      const user = await db
        .insertInto('users')
        .values({ email: `${randomUUID()}@example.com`, password_hash: 'x', name: 'Test' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const session = await db
        .insertInto('upload_sessions')
        .values({
          user_id: user.id,
          session_type: 'training',
          expected_files: 1,
          expires_at: new Date(Date.now() + 3600_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const photoId = randomUUID();
      const key = `photos/${user.id}/${session.id}/${photoId}/optimized.jpg`;
      await storage.putFile(key, path.join(FIXTURES, 'astronaut.jpg'));
      await db
        .insertInto('photos')
        .values({
          id: photoId,
          session_id: session.id,
          user_id: user.id,
          original_filename: 'astronaut.jpg',
          original_key: key,
          optimized_key: key,
          thumbnail_key: key,
          mime_type: 'image/jpeg',
          width: 1024,
          height: 1024,
          size_bytes: 1,
          content_hash: photoId,
        })
        .execute();
      const queue = suite.queue(QUEUES.photoChecks, {
        attempts: 2,
        backoff: { type: 'fixed', delay: 100 },
      });
      await queue.add(
        JOB_NAMES.checkPhoto,
        { photo_id: photoId, session_id: session.id },
        { jobId: `photo-${photoId}` },
      );

      const row = await waitFor(
        async () => {
          const photo = await db
            .selectFrom('photos')
            .select(['check_status', 'usable'])
            .where('id', '=', photoId)
            .executeTakeFirstOrThrow();
          return photo.check_status === 'pending' ? undefined : photo;
        },
        'the photo to be checked',
        120_000,
      );
      expect(pool.lost).toBe(1);
      expect(row).toEqual({ check_status: 'done', usable: true });
      const job = await queue.getJob(`photo-${photoId}`);
      // The first attempt failed with its thread; the second, on the new thread, succeeded.
      expect(job?.stacktrace).toHaveLength(1);
      expect(job?.stacktrace?.[0]).toMatch(/worker exited/);
      expect(await job?.getState()).toBe('completed');
    } finally {
      await worker?.close();
      await pool.close();
    }
  });
});
