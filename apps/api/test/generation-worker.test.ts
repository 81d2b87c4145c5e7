import { MESSAGES, MIN_PHOTOS, ZGenerationResultSchema } from '@studioshot/contracts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerEnv } from '../../worker/src/env.js';
import { startWorker, type RunningWorker } from '../../worker/src/worker-app.js';
import { balance, creditUser, generate, waitFor } from './generation-helpers.js';
import { bearer, createTestApp, type TestApp } from './helpers.js';
import { storedPhotoSession } from './training-helpers.js';

/**
 * One generation end to end: the API accepts it and waits, a real worker (the worker app, in this
 * process, with the real studio engine) trains the model and renders the images, and the API
 * answers them and serves them.
 */
const FIXTURE_PHOTOS = [
  'astronaut.jpg',
  'astronaut-mirror.jpg',
  'astronaut-warm.jpg',
  'astronaut-closer.jpg',
];
/** A training needs MIN_PHOTOS usable photos: the four fixtures, over again. */
const PHOTOS = Array.from(
  { length: MIN_PHOTOS },
  (_, index) => FIXTURE_PHOTOS[index % FIXTURE_PHOTOS.length]!,
);

let t: TestApp;
let worker: RunningWorker;
let storageDir: string;
let workDir: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'api-gen-storage-'));
  workDir = await mkdtemp(path.join(tmpdir(), 'api-gen-worker-'));
  t = await createTestApp({ STORAGE_DIR: storageDir, GENERATION_WAIT_MS: '150000' });
  worker = await startWorker(
    loadWorkerEnv({
      NODE_ENV: 'test',
      DATABASE_URL: t.c.env.DATABASE_URL,
      REDIS_URL: t.c.env.REDIS_URL,
      REDIS_PREFIX: t.c.env.REDIS_PREFIX,
      STORAGE_DRIVER: 'local',
      STORAGE_DIR: storageDir,
      WORKER_TMP_DIR: workDir,
      LOG_LEVEL: 'silent',
    }),
    { db: t.c.db, storage: t.c.storage, logger: pino({ level: 'silent' }) },
  );
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
  await rm(workDir, { recursive: true, force: true });
});

describe('generation with a real worker', () => {
  it('trains a model, then generate-trained waits for four 1024 px headshots and serves them', async () => {
    const user = await creditUser(t, 1);
    await t.c.db
      .updateTable('users')
      .set({ training_limit: 1, extra_training_slots: 1 })
      .where('id', '=', user.id)
      .execute();
    const started = await t.request
      .post('/api/v1/training/start')
      .set(bearer(user.token))
      .send({ model_name: 'Me', session_id: await storedPhotoSession(t, user.id, PHOTOS) });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const modelId = (started.body as { model_id: string }).model_id;
    const trained = await waitFor(
      async () => {
        const task = await t.c.db
          .selectFrom('tasks')
          .select(['status', 'error_message'])
          .where('id', '=', modelId)
          .executeTakeFirstOrThrow();
        return ['completed', 'failed', 'cancelled'].includes(task.status) ? task : undefined;
      },
      'the training to finish',
      150_000,
    );
    expect(trained).toEqual({ status: 'completed', error_message: null });

    const res = await generate(t, user, '/api/v1/generation/generate-trained', {
      model_id: modelId,
      prompt: 'professional headshot',
      num_images: 4,
      trigger_word: 'person',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = ZGenerationResultSchema.parse(res.body);
    expect(body).toMatchObject({ status: 'completed', success: true, credits_used: 1 });
    expect(body.images).toHaveLength(4);
    const image = await t.request.get(body.images[0]!.url).buffer(true);
    expect(image.status).toBe(200);
    expect(await sharp(image.body as Buffer).metadata()).toMatchObject({
      format: 'jpeg',
      width: 1024,
      height: 1024,
    });
    const thumb = await t.request.get(body.images[0]!.thumbnail_url);
    expect(thumb.status).toBe(200);
    // Delivered: the credit is spent; a second Generate has none left.
    expect(await balance(t, user.id)).toBe(0);
    const again = await generate(t, user, '/api/v1/generation/generate-trained', {
      model_id: modelId,
    });
    expect([again.status, again.body.detail]).toEqual([402, MESSAGES.insufficientCredits]);
  }, 330_000);
});
