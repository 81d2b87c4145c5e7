// The one-time move to the per-person storage layout (services/storage-layout.ts), on a real
// database and both storage drivers: the local one on a temp directory, the S3 one against the
// S3-compatible test server (moto, S3_TEST_ENDPOINT; see scripts/lib.sh).
import { CreateBucketCommand, DeleteBucketCommand } from '@aws-sdk/client-s3';
import { createDb, type Db } from '@studioshot/db';
import { createTestDatabase, type TestDatabase } from '@studioshot/db/testing';
import {
  isUserKey,
  legacyKeyToUserKey,
  LocalStorage,
  modelArtifactKey,
  photoKeys,
  S3Storage,
  userPrefix,
  type Storage,
} from '@studioshot/storage';
import { sql } from 'kysely';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import {
  migrateStorageLayout,
  type LayoutLogger,
  type StorageLayoutOptions,
} from '../src/services/storage-layout.js';

const S3_ENDPOINT = process.env.S3_TEST_ENDPOINT;
const RUN = randomBytes(4).toString('hex');
let scratch: string;

beforeAll(async () => {
  if (!S3_ENDPOINT) {
    throw new Error(
      'S3_TEST_ENDPOINT is not set: these tests need a local S3-compatible server. Run them with ' +
        '`npm test`, or start one (scripts/lib.sh ensure_s3_test_server) and export S3_TEST_ENDPOINT.',
    );
  }
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'studioshot-test');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'studioshot-test-secret');
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
  scratch = await mkdtemp(path.join(tmpdir(), 'storage-layout-test-'));
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

/** A store of one kind, empty, and how to throw it away. */
interface Store {
  storage: Storage;
  drop(): Promise<void>;
}
let stores = 0;
async function localStore(): Promise<Store> {
  stores += 1;
  const storage = new LocalStorage(path.join(scratch, `root-${stores}`));
  return { storage, drop: () => rm(storage.root, { recursive: true, force: true }) };
}
async function s3Store(): Promise<Store> {
  stores += 1;
  // Small pages: listings and deletes span several requests.
  const storage = new S3Storage({
    bucket: `studioshot-layout-${RUN}-${stores}`,
    region: 'us-east-1',
    endpoint: S3_ENDPOINT,
    forcePathStyle: true,
    tmpDir: scratch,
    pageSize: 2,
  });
  await storage.client.send(new CreateBucketCommand({ Bucket: storage.bucket }));
  return {
    storage,
    async drop() {
      for (const prefix of ['users/', 'photos/', 'models/']) await storage.deletePrefix(prefix);
      await storage.client.send(new DeleteBucketCommand({ Bucket: storage.bucket }));
      await storage.close();
    },
  };
}

/** Every line logged, to check what a run says. */
function recordingLogger() {
  const lines: { level: string; msg: string; obj: object }[] = [];
  const logger: LayoutLogger = {
    info: (obj, msg) => lines.push({ level: 'info', msg, obj }),
    warn: (obj, msg) => lines.push({ level: 'warn', msg, obj }),
  };
  return { logger, lines };
}

/** The storage, with `method` failing from its `after + 1`-th call on: a process stopped there. */
function stoppingAt(storage: Storage, method: 'copy' | 'delete', after: number): Storage {
  let calls = 0;
  return new Proxy(storage, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (prop !== method) return value.bind(target);
      return async (...args: unknown[]) => {
        calls += 1;
        if (calls > after) throw new Error(`process stopped before ${method} #${calls}`);
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
}

const put = (storage: Storage, key: string, body: string) =>
  storage.putStream(key, Readable.from([body]));
const read = async (storage: Storage, key: string) => text(await storage.get(key));
async function keysUnder(storage: Storage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list(prefix)) keys.push(object.key);
  return keys;
}

/** What the old layout left: rows and objects, each object's bytes naming its old key. */
interface Seeded {
  userId: string;
  otherUserId: string;
  photoIds: string[];
  modelId: string;
  /** Old key -> bytes, for every object stored under the old layout. */
  objects: Map<string, string>;
  /** An object no row names (an upload that failed before its row was written). */
  orphan: string;
  /** A photo already in the new layout. */
  current: { id: string; keys: ReturnType<typeof photoKeys> };
}

async function insertUser(db: Db): Promise<string> {
  const user = await db
    .insertInto('users')
    .values({ email: `${randomUUID()}@example.com`, password_hash: 'x', name: 'Layout' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return user.id;
}

async function seed(db: Db, storage: Storage): Promise<Seeded> {
  const userId = await insertUser(db);
  const otherUserId = await insertUser(db);
  const objects = new Map<string, string>();
  const store = async (key: string) => {
    const body = `bytes of ${key}`;
    await put(storage, key, body);
    objects.set(key, body);
  };
  const session = await db
    .insertInto('upload_sessions')
    .values({
      user_id: userId,
      session_type: 'training',
      expected_files: 3,
      status: 'completed',
      expires_at: new Date(Date.now() + 3600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const photoRow = (
    id: string,
    keys: { original: string; optimized: string; thumbnail: string },
  ) => ({
    id,
    session_id: session.id,
    user_id: userId,
    original_filename: 'selfie.jpg',
    original_key: keys.original,
    optimized_key: keys.optimized,
    thumbnail_key: keys.thumbnail,
    mime_type: keys.original.endsWith('.png') ? 'image/png' : 'image/jpeg',
    width: 1024,
    height: 1024,
    size_bytes: 100,
    content_hash: randomUUID(),
  });
  // Three photos the way uploads.service.ts stored them before users/{id}/.
  const photoIds = [randomUUID(), randomUUID(), randomUUID()];
  for (const [i, id] of photoIds.entries()) {
    const base = `photos/${userId}/${session.id}/${id}`;
    const keys = {
      original: `${base}/original.${i === 0 ? 'png' : 'jpg'}`,
      optimized: `${base}/optimized.jpg`,
      thumbnail: `${base}/thumbnail.jpg`,
    };
    for (const key of Object.values(keys)) await store(key);
    await db.insertInto('photos').values(photoRow(id, keys)).execute();
  }
  // One already in the new layout.
  const currentId = randomUUID();
  const currentKeys = photoKeys(userId, session.id, currentId);
  for (const key of Object.values(currentKeys)) await put(storage, key, `bytes of ${key}`);
  await db.insertInto('photos').values(photoRow(currentId, currentKeys)).execute();

  // A trained model: its row and its training task both name model.npz; the task names the
  // preview too (train-model.ts: `{kind}_key` for every artifact).
  const model = await db
    .insertInto('models')
    .values({
      user_id: userId,
      session_id: session.id,
      name: 'Me',
      status: 'completed',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const modelKey = `models/${userId}/${model.id}/model.npz`;
  const previewKey = `models/${userId}/${model.id}/preview.jpg`;
  await store(modelKey);
  await store(previewKey);
  await db
    .updateTable('models')
    .set({ artifact_key: modelKey })
    .where('id', '=', model.id)
    .execute();
  await db
    .insertInto('tasks')
    .values({
      id: model.id,
      user_id: userId,
      task_type: 'training',
      status: 'completed',
      model_id: model.id,
      params: '{}',
      result: JSON.stringify({
        model_key: modelKey,
        preview_key: previewKey,
        summary: { photos_used: 3 },
      }),
    })
    .execute();
  // A task whose result names no keys, and one of another user with none at all.
  await db
    .insertInto('tasks')
    .values({
      user_id: otherUserId,
      task_type: 'generation',
      status: 'completed',
      params: '{}',
      result: JSON.stringify({ images: 4, note_key: 42 }),
    })
    .execute();

  const orphan = `photos/${otherUserId}/${randomUUID()}/${randomUUID()}/original.jpg`;
  await store(orphan);
  return {
    userId,
    otherUserId,
    photoIds,
    modelId: model.id,
    objects,
    orphan,
    current: { id: currentId, keys: currentKeys },
  };
}

/** Every row's keys and every old object's bytes, wherever they are now. */
async function rowKeys(db: Db) {
  const photos = await db
    .selectFrom('photos')
    .select(['id', 'original_key', 'optimized_key', 'thumbnail_key'])
    .orderBy('id')
    .execute();
  const models = await db.selectFrom('models').select(['id', 'artifact_key']).execute();
  const tasks = await db
    .selectFrom('tasks')
    .select(['id', 'result'])
    .where('task_type', '=', 'training')
    .execute();
  return {
    photos,
    models,
    tasks,
    all: [
      ...photos.flatMap((p) => [p.original_key, p.optimized_key, p.thumbnail_key]),
      ...models.map((m) => m.artifact_key!),
      ...tasks.flatMap((t) => {
        const r = t.result as Record<string, unknown>;
        return [r.model_key as string, r.preview_key as string];
      }),
    ],
  };
}

/**
 * Nothing lost, wherever a run stopped: each old object's bytes are at its old key or its new
 * one, and every key a row names holds the bytes it named before.
 */
async function expectNothingLost(db: Db, storage: Storage, seeded: Seeded) {
  for (const [oldKey, body] of seeded.objects) {
    const newKey = legacyKeyToUserKey(oldKey)!;
    const where = (await storage.exists(oldKey)) ? oldKey : newKey;
    expect(await read(storage, where), oldKey).toBe(body);
  }
  for (const key of (await rowKeys(db)).all) {
    const old = isUserKey(key)
      ? [...seeded.objects.keys()].find((k) => legacyKeyToUserKey(k) === key)
      : key;
    const body = old ? seeded.objects.get(old) : `bytes of ${key}`;
    expect(await read(storage, key), key).toBe(body);
  }
}

/** The finished state: rows under users/{id}/, every object moved, nothing left behind. */
async function expectAllMoved(db: Db, storage: Storage, seeded: Seeded) {
  await expectNothingLost(db, storage, seeded);
  const rows = await rowKeys(db);
  expect(rows.all.every(isUserKey)).toBe(true);
  for (const oldKey of seeded.objects.keys()) expect(await storage.exists(oldKey)).toBe(false);
  expect(await keysUnder(storage, 'photos/')).toEqual([]);
  expect(await keysUnder(storage, 'models/')).toEqual([]);
  // Everything of the user is under their prefix: their photos (3 moved + 1 current), the model.
  expect(await keysUnder(storage, userPrefix(seeded.userId))).toHaveLength(4 * 3 + 2);
  expect(await keysUnder(storage, userPrefix(seeded.otherUserId))).toEqual([
    legacyKeyToUserKey(seeded.orphan),
  ]);
}

const drivers: [string, () => Promise<Store>][] = [
  ['local', localStore],
  ['s3', s3Store],
];

describe.each(drivers)('%s driver', (_name, makeStore) => {
  let database: TestDatabase;
  let db: Db;
  let store: Store;
  let storage: Storage;
  const run = (options: StorageLayoutOptions = { graceMs: 0 }, using = storage) => {
    const { logger, lines } = recordingLogger();
    return migrateStorageLayout(db, using, logger, options).then((report) => ({ report, lines }));
  };

  beforeAll(async () => {
    database = await createTestDatabase(inject('pgAdminUrl'), inject('pgTemplate'));
    db = createDb(database.url, { max: 4 });
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });
  // Each test: a fresh store and no rows (the migration acts on everything there is).
  beforeEach(async () => {
    await sql`TRUNCATE users CASCADE`.execute(db);
    store = await makeStore();
    storage = store.storage;
    return () => store.drop();
  });

  it('moves every object under users/{id}/, rewrites the rows, and a second run does nothing', async () => {
    const seeded = await seed(db, storage);
    const before = await rowKeys(db);

    const { report, lines } = await run();
    expect(report).toEqual({
      ran: true,
      rows: 3 + 1 + 1, // three photos, the model, its task
      moved: 3 * 3 + 2 + 1, // photo files, model.npz and preview.jpg, the orphan
      unreferenced: 1,
      missing: 0,
      failed: 0,
      left: 0,
    });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'storage layout: moved 12 objects under users/{id}/',
      }),
    ]);
    await expectAllMoved(db, storage, seeded);

    // The rows name the keys keys.ts makes; the photo already moved and other fields are untouched.
    const after = await rowKeys(db);
    const session = (await db.selectFrom('upload_sessions').select('id').executeTakeFirstOrThrow())
      .id;
    for (const [i, id] of seeded.photoIds.entries()) {
      const keys = photoKeys(seeded.userId, session, id, i === 0 ? 'png' : 'jpg');
      expect(after.photos.find((p) => p.id === id)).toEqual({
        id,
        original_key: keys.original,
        optimized_key: keys.optimized,
        thumbnail_key: keys.thumbnail,
      });
    }
    const current = seeded.current;
    expect(after.photos.find((p) => p.id === current.id)).toEqual(
      before.photos.find((p) => p.id === current.id),
    );
    const modelKey = modelArtifactKey(seeded.userId, seeded.modelId, 'model.npz');
    expect(after.models).toEqual([{ id: seeded.modelId, artifact_key: modelKey }]);
    expect(after.tasks[0]!.result).toEqual({
      model_key: modelKey,
      preview_key: modelArtifactKey(seeded.userId, seeded.modelId, 'preview.jpg'),
      summary: { photos_used: 3 },
    });
    const other = await db
      .selectFrom('tasks')
      .select('result')
      .where('task_type', '=', 'generation')
      .executeTakeFirstOrThrow();
    expect(other.result).toEqual({ images: 4, note_key: 42 });

    // Again: nothing left, nothing done, nothing logged.
    const again = await run();
    expect(again.report).toEqual({
      ran: true,
      rows: 0,
      moved: 0,
      unreferenced: 0,
      missing: 0,
      failed: 0,
      left: 0,
    });
    expect(again.lines).toEqual([]);
    expect(await rowKeys(db)).toEqual(after);

    // What the layout is for: a person's objects are one prefix.
    expect(await storage.deletePrefix(userPrefix(seeded.userId))).toBe(14);
    expect(await keysUnder(storage, userPrefix(seeded.userId))).toEqual([]);
    expect(await keysUnder(storage, userPrefix(seeded.otherUserId))).toHaveLength(1);
  });

  it('a run stopped between copy and row update loses nothing, and the next run finishes', async () => {
    const seeded = await seed(db, storage);
    // Copies fail from the 5th on: the first photo (in id order) is moved, the second is half
    // copied, nothing else is copied. The sweep leaves the old objects rows still name (two
    // photos' six, model.npz, preview.jpg) and fails to copy the orphan.
    const first = await run({ graceMs: 0 }, stoppingAt(storage, 'copy', 4));
    expect(first.report).toMatchObject({ rows: 1, moved: 3, failed: 5, left: 8 });
    expect(first.lines.filter((l) => l.msg.startsWith('storage layout: could not'))).toHaveLength(
      5,
    );
    await expectNothingLost(db, storage, seeded);
    const [, halfCopied] = [...seeded.photoIds].sort();
    const row = (await rowKeys(db)).photos.find((p) => p.id === halfCopied)!;
    expect(isUserKey(row.original_key)).toBe(false); // still the old keys, all still there

    const { report } = await run();
    expect(report).toMatchObject({ rows: 4, moved: 9, failed: 0, missing: 0, left: 0 });
    await expectAllMoved(db, storage, seeded);
  });

  it('a run stopped between row update and delete loses nothing, and the next run finishes', async () => {
    const seeded = await seed(db, storage);
    // No delete ever happens: every row is rewritten, every old object stays.
    const first = await run({ graceMs: 0 }, stoppingAt(storage, 'delete', 0));
    expect(first.report).toMatchObject({ rows: 5, moved: 0 });
    expect(first.report.failed).toBeGreaterThan(0);
    await expectNothingLost(db, storage, seeded);
    expect((await rowKeys(db)).all.every(isUserKey)).toBe(true);
    for (const oldKey of seeded.objects.keys()) expect(await storage.exists(oldKey)).toBe(true);

    // The rows are skipped now; the sweep finds the old objects no row names and deletes them.
    const { report } = await run();
    expect(report).toMatchObject({ rows: 0, moved: 12, unreferenced: 0, failed: 0, left: 0 });
    await expectAllMoved(db, storage, seeded);
  });

  it('a photo deleted while it is moved leaves no copy behind', async () => {
    const seeded = await seed(db, storage);
    const victim = seeded.photoIds[2]!;
    // The user deletes the photo (row, then its old objects) right after its first copy.
    const racing = new Proxy(storage, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as (...a: unknown[]) => Promise<unknown>;
        if (prop !== 'copy') return typeof value === 'function' ? value.bind(target) : value;
        return async (from: string, to: string) => {
          await value.call(target, from, to);
          if (!from.includes(victim)) return;
          const row = await db
            .deleteFrom('photos')
            .where('id', '=', victim)
            .returningAll()
            .executeTakeFirst();
          if (row) {
            for (const key of [row.original_key, row.optimized_key, row.thumbnail_key])
              await target.delete(key);
          }
        };
      },
    });
    const { report } = await run({ graceMs: 0 }, racing);
    expect(report).toMatchObject({ rows: 4, failed: 0 });
    expect((await rowKeys(db)).photos.map((p) => p.id)).not.toContain(victim);
    const victimKeys = await keysUnder(storage, userPrefix(seeded.userId));
    expect(victimKeys.filter((k) => k.includes(victim))).toEqual([]);
    expect(await keysUnder(storage, 'photos/')).toEqual([]);
  });

  it('leaves recent objects no row names for a later run', async () => {
    const seeded = await seed(db, storage);
    const { report } = await run({}); // the default grace: written just now
    expect(report).toMatchObject({ rows: 5, moved: 11, unreferenced: 0, left: 1 });
    expect(await read(storage, seeded.orphan)).toBe(seeded.objects.get(seeded.orphan));
    expect(await storage.exists(legacyKeyToUserKey(seeded.orphan)!)).toBe(false);
    const later = await run({ graceMs: 0 });
    expect(later.report).toMatchObject({ rows: 0, moved: 1, unreferenced: 1, left: 0 });
    await expectAllMoved(db, storage, seeded);
  });

  it('rewrites a row whose object is gone, and says so', async () => {
    const seeded = await seed(db, storage);
    const lost = [...seeded.objects.keys()].find((k) => k.endsWith('thumbnail.jpg'))!;
    await storage.delete(lost);
    seeded.objects.delete(lost);
    const { report, lines } = await run();
    expect(report).toMatchObject({ rows: 5, missing: 1, failed: 0 });
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', obj: { key: lost, to: legacyKeyToUserKey(lost) } }),
    );
    expect((await rowKeys(db)).all.every(isUserKey)).toBe(true);
  });

  it('one process at a time: a run while another holds the lock does nothing', async () => {
    const seeded = await seed(db, storage);
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(7351420911)');
      const { report, lines } = await run();
      expect(report.ran).toBe(false);
      expect(lines.map((l) => l.msg)).toEqual([
        'storage layout: another process is moving objects; skipped',
      ]);
      for (const oldKey of seeded.objects.keys()) expect(await storage.exists(oldKey)).toBe(true);
    } finally {
      await holder.end();
    }
    expect((await run()).report).toMatchObject({ ran: true, rows: 5 });
  });
});
