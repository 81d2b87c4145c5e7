import { taskQueueName, type StartTrainingResponse, type PlanType } from '@studioshot/contracts';

/** The queue trainings go to with the default engine. */
export const TRAINING_QUEUE = taskQueueName('training', 'studio');
import { Queue } from 'bullmq';
import { photoKeys } from '@studioshot/storage';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { bearer, registerUser, type TestApp } from './helpers.js';

export type TestUser = Awaited<ReturnType<typeof registerUser>> & { id: string; token: string };

/**
 * A user who may train `slots` models: bought training slots, granted the way a payment grants
 * them; on the free plan unless told (the plan sets the best queue priority).
 */
export async function trainingUser(
  t: TestApp,
  slots = 1,
  plan: PlanType = 'free',
): Promise<TestUser> {
  const user = await registerUser(t);
  const id = (user.res.body as { user: { id: string } }).user.id;
  await t.c.db
    .updateTable('users')
    .set({ training_limit: slots, extra_training_slots: slots, plan_type: plan })
    .where('id', '=', id)
    .execute();
  return { ...user, id, token: user.tokens.access_token };
}

/**
 * An upload session as the upload flow leaves it once POST /upload/complete accepted it: closed,
 * with `usable` checked photos (the photo files themselves play no part in starting a training).
 */
export async function completedSession(
  t: TestApp,
  userId: string,
  options: { usable?: number; unusable?: number; status?: 'completed' | 'uploading' } = {},
): Promise<string> {
  const { usable = 10, unusable = 0, status = 'completed' } = options;
  const session = await t.c.db
    .insertInto('upload_sessions')
    .values({
      user_id: userId,
      session_type: 'training',
      expected_files: usable + unusable,
      status,
      expires_at: new Date(Date.now() + 3600_000),
      completed_at: status === 'completed' ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const photos = Array.from({ length: usable + unusable }, (_, i) => {
    const key = `photos/${userId}/${session.id}/${randomUUID()}`;
    return {
      session_id: session.id,
      user_id: userId,
      original_filename: `selfie-${i}.jpg`,
      original_key: `${key}/original.jpg`,
      optimized_key: `${key}/optimized.jpg`,
      thumbnail_key: `${key}/thumbnail.jpg`,
      mime_type: 'image/jpeg',
      width: 1024,
      height: 1024,
      size_bytes: 200_000,
      content_hash: randomUUID(),
      check_status: 'done' as const,
      usable: i < usable,
    };
  });
  if (photos.length) await t.c.db.insertInto('photos').values(photos).execute();
  return session.id;
}

/** The worker's test photos: one person, a few shots. */
export const WORKER_FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../worker/test/fixtures',
);

/**
 * A completed upload session of one person's checked photos, one per name in `files` (from
 * WORKER_FIXTURES), each stored under its original, optimized and thumbnail keys where training
 * reads them: for tests that run a real training.
 */
export async function storedPhotoSession(
  t: TestApp,
  userId: string,
  files: readonly string[],
): Promise<string> {
  const session = await t.c.db
    .insertInto('upload_sessions')
    .values({
      user_id: userId,
      session_type: 'training',
      expected_files: files.length,
      status: 'completed',
      completed_at: new Date(),
      expires_at: new Date(Date.now() + 3600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const file of files) {
    const id = randomUUID();
    const keys = photoKeys(userId, session.id, id);
    for (const key of [keys.original, keys.optimized, keys.thumbnail])
      await t.c.storage.putFile(key, path.join(WORKER_FIXTURES, file));
    await t.c.db
      .insertInto('photos')
      .values({
        id,
        session_id: session.id,
        user_id: userId,
        original_filename: file,
        original_key: keys.original,
        optimized_key: keys.optimized,
        thumbnail_key: keys.thumbnail,
        mime_type: 'image/jpeg',
        width: 1024,
        height: 1024,
        size_bytes: 1,
        content_hash: id,
        check_status: 'done',
        usable: true,
      })
      .execute();
  }
  return session.id;
}

export async function startTraining(
  t: TestApp,
  user: TestUser,
  sessionId: string,
  body: Record<string, unknown> = {},
): Promise<StartTrainingResponse> {
  const res = await t.request
    .post('/api/v1/training/start')
    .set(bearer(user.token))
    .send({ model_name: 'My headshots', session_id: sessionId, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as StartTrainingResponse;
}

/** The training queue as the API fills it, read with BullMQ itself. */
export function trainingQueue(t: TestApp): Queue {
  return new Queue(TRAINING_QUEUE, {
    connection: t.c.redis,
    prefix: `${t.c.env.REDIS_PREFIX}bull`,
  });
}

export async function rowCounts(t: TestApp) {
  const count = async (table: 'tasks' | 'models') =>
    Number(
      (
        await t.c.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { tasks: await count('tasks'), models: await count('models') };
}

export async function modelsTrained(t: TestApp, userId: string): Promise<number> {
  const user = await t.c.db
    .selectFrom('users')
    .select('models_trained')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return user.models_trained;
}
