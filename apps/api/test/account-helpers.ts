import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { photoKeys, userPrefix, type Storage } from '@studioshot/storage';
import { sql } from 'kysely';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { vi } from 'vitest';
import { jpeg } from './generation-helpers.js';
import { createTestApp, type TestApp } from './helpers.js';

export type StorageDriver = 'local' | 's3';

/**
 * The real app on a storage of its own: a fresh temp directory, or a fresh bucket on the
 * S3-compatible test server (moto; `npm test` starts it and sets S3_TEST_ENDPOINT).
 */
export async function createAppWithStorage(
  driver: StorageDriver,
  overrides: Record<string, string> = {},
): Promise<TestApp> {
  if (driver === 'local') {
    const dir = await mkdtemp(path.join(tmpdir(), 'studioshot-account-test-'));
    const t = await createTestApp({ STORAGE_DIR: dir, ...overrides });
    return {
      ...t,
      async close() {
        await t.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const endpoint = process.env.S3_TEST_ENDPOINT;
  if (!endpoint)
    throw new Error(
      'S3_TEST_ENDPOINT is not set: these tests need a local S3-compatible server. Run them with ' +
        '`npm test`, or start one (scripts/lib.sh ensure_s3_test_server) and export S3_TEST_ENDPOINT.',
    );
  // moto accepts any credentials; the SDK still wants some from its default chain.
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'studioshot-test');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'studioshot-test-secret');
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
  const bucket = `studioshot-account-${randomBytes(4).toString('hex')}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const t = await createTestApp({
    STORAGE_DRIVER: 's3',
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    ...overrides,
  });
  return {
    ...t,
    async close() {
      await t.close();
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const keys = (listed.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length)
        await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
      await client.send(new DeleteBucketCommand({ Bucket: bucket }));
      client.destroy();
    },
  };
}

/** Every stored key under a person's prefix, sorted. */
export async function storedKeys(storage: Storage, userId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list(userPrefix(userId))) keys.push(object.key);
  return keys.sort();
}

export interface StoredPhotoSet {
  sessionId: string;
  modelId: string;
  photoIds: string[];
  keys: string[];
}

/**
 * A photo set as upload and training leave it: a completed upload session with `photos` photos
 * (each with its three stored objects), and the model trained from it, its training task
 * finished `finishedDaysAgo` days ago (or still `running`).
 */
export async function trainedPhotoSet(
  t: TestApp,
  userId: string,
  options: {
    finishedDaysAgo: number;
    photos?: number;
    taskStatus?: 'completed' | 'failed' | 'running';
    artifactFormat?: number;
  },
): Promise<StoredPhotoSet> {
  const { finishedDaysAgo, photos = 2, taskStatus = 'completed', artifactFormat = 2 } = options;
  const finishedAt = sql<Date>`now() - make_interval(days => ${finishedDaysAgo})`;
  const session = await t.c.db
    .insertInto('upload_sessions')
    .values({
      user_id: userId,
      session_type: 'training',
      expected_files: photos,
      status: 'completed',
      expires_at: new Date(Date.now() + 3600_000),
      completed_at: finishedAt,
      created_at: finishedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const photoIds: string[] = [];
  const keys: string[] = [];
  for (let i = 0; i < photos; i++) {
    const id = randomUUID();
    const stored = photoKeys(userId, session.id, id, 'png');
    for (const key of [stored.original, stored.optimized, stored.thumbnail]) {
      await t.c.storage.putStream(key, Readable.from(await jpeg({ r: 30 * i, g: 90, b: 160 })));
      keys.push(key);
    }
    await t.c.db
      .insertInto('photos')
      .values({
        id,
        session_id: session.id,
        user_id: userId,
        original_filename: `selfie-${i}.png`,
        original_key: stored.original,
        optimized_key: stored.optimized,
        thumbnail_key: stored.thumbnail,
        mime_type: 'image/png',
        width: 64,
        height: 64,
        size_bytes: 1000,
        content_hash: randomUUID(),
        check_status: 'done',
        usable: true,
        original_clean: true,
      })
      .execute();
    photoIds.push(id);
  }
  const modelId = randomUUID();
  const finished = taskStatus !== 'running';
  await t.c.db
    .insertInto('models')
    .values({
      id: modelId,
      user_id: userId,
      session_id: session.id,
      name: 'My headshots',
      status:
        taskStatus === 'completed' ? 'completed' : taskStatus === 'failed' ? 'failed' : 'training',
      artifact_key:
        taskStatus === 'completed' ? `users/${userId}/models/${modelId}/model.npz` : null,
      artifact_format: taskStatus === 'completed' ? artifactFormat : null,
      updated_at: finished ? finishedAt : new Date(),
    })
    .execute();
  await t.c.db
    .insertInto('tasks')
    .values({
      id: modelId,
      user_id: userId,
      task_type: 'training',
      status: taskStatus,
      model_id: modelId,
      params: JSON.stringify({ session_id: session.id }),
      started_at: finishedAt,
      completed_at: finished ? finishedAt : null,
    })
    .execute();
  await t.c.db
    .updateTable('upload_sessions')
    .set({ training_id: modelId })
    .where('id', '=', session.id)
    .execute();
  return { sessionId: session.id, modelId, photoIds, keys };
}
