// copy, list and deletePrefix on both drivers: the local one on a temp directory, the S3 one
// against a real S3-compatible server (moto; `npm test` starts it and sets S3_TEST_ENDPOINT, see
// scripts/lib.sh), in a bucket of its own.
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { modelArtifactKey, photoKeys, userPrefix } from './keys.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import {
  InvalidStorageKeyError,
  ObjectNotFoundError,
  type ListedObject,
  type Storage,
} from './storage.js';

const S3_ENDPOINT = process.env.S3_TEST_ENDPOINT;
const BUCKET = `studioshot-prefix-${randomBytes(4).toString('hex')}`;
// Small pages, so a few objects already take several ListObjectsV2 pages and DeleteObjects batches.
const PAGE = 3;

let scratch: string;
let local: LocalStorage;
let s3: S3Storage;
let s3Pages: { list: number; deleteBatches: number[] };

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
  scratch = await mkdtemp(path.join(tmpdir(), 'storage-prefix-test-'));
  local = new LocalStorage(path.join(scratch, 'root'));
  s3 = new S3Storage({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: S3_ENDPOINT,
    forcePathStyle: true,
    tmpDir: scratch,
    pageSize: PAGE,
  });
  await s3.client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  // Count the requests the driver makes (observing the real client, not replacing it).
  s3Pages = { list: 0, deleteBatches: [] };
  s3.client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { Delete?: { Objects?: unknown[] }; MaxKeys?: number };
      if (input.Delete?.Objects) s3Pages.deleteBatches.push(input.Delete.Objects.length);
      else if (input.MaxKeys !== undefined) s3Pages.list += 1;
      return next(args);
    },
    { step: 'initialize', name: 'countRequests' },
  );
});

afterAll(async () => {
  if (s3) {
    for (;;) {
      const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
      const keys = (listed.Contents ?? []).map((o) => ({ Key: o.Key }));
      if (!keys.length) break;
      await s3.client.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: keys } }));
    }
    await s3.client.send(new DeleteBucketCommand({ Bucket: BUCKET }));
    await s3.close();
  }
  if (scratch) await rm(scratch, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

async function all(listing: AsyncIterable<ListedObject>): Promise<ListedObject[]> {
  const found: ListedObject[] = [];
  for await (const object of listing) found.push(object);
  return found;
}
const keysOf = async (storage: Storage, prefix: string) =>
  (await all(storage.list(prefix))).map((o) => o.key);
const put = (storage: Storage, key: string, body = key) =>
  storage.putStream(key, Readable.from([body]));

const uid = () => randomUUID();

const drivers: [string, () => Storage][] = [
  ['local', () => local],
  ['s3', () => s3],
];

describe.each(drivers)('%s driver', (name, get) => {
  let storage: Storage;
  beforeAll(() => {
    storage = get();
  });

  it('copies an object, leaving the source as it was', async () => {
    const from = `copy-${name}/from/a.jpg`;
    const to = `copy-${name}/to/deep/b.jpg`;
    await storage.putStream(from, Readable.from(['photo bytes']), { contentType: 'image/jpeg' });
    await storage.copy(from, to);
    expect(await text(await storage.get(to))).toBe('photo bytes');
    expect(await text(await storage.get(from))).toBe('photo bytes');
    // Copying again (a re-run) replaces the copy.
    await put(storage, from, 'newer bytes');
    await storage.copy(from, to);
    expect(await text(await storage.get(to))).toBe('newer bytes');
    if (name === 's3') {
      const head = await s3.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: to }));
      expect(head.ContentLength).toBe(11);
    }
  });

  it('copies a large object', async () => {
    const data = randomBytes(7 * 1024 * 1024);
    const from = `copy-${name}/large/from.bin`;
    await storage.putStream(from, Readable.from([data]));
    await storage.copy(from, `copy-${name}/large/to.bin`);
    const chunks: Buffer[] = [];
    for await (const c of await storage.get(`copy-${name}/large/to.bin`)) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
  });

  it('copying a missing object fails and stores nothing', async () => {
    const to = `copy-${name}/missing-target.jpg`;
    const error = await storage.copy(`copy-${name}/nothing-here.jpg`, to).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ObjectNotFoundError);
    expect((error as ObjectNotFoundError).key).toBe(`copy-${name}/nothing-here.jpg`);
    expect(await storage.exists(to)).toBe(false);
  });

  it('lists everything under a prefix, in key order, across pages', async () => {
    const user = uid();
    const keys = [
      ...Object.values(photoKeys(user, uid(), uid(), 'png')),
      ...Object.values(photoKeys(user, uid(), uid())),
      modelArtifactKey(user, uid(), 'model.npz'),
      modelArtifactKey(user, uid(), 'preview.jpg'),
    ];
    for (const key of keys) await put(storage, key);
    // Neighbours that share the prefix as a string but not as a directory.
    await put(storage, `users/${user}x/photos/a/b/original.jpg`);
    await put(storage, `users/${user}.txt`);
    const before = s3Pages.list;

    const listed = await all(storage.list(userPrefix(user)));
    expect(listed.map((o) => o.key)).toEqual([...keys].sort());
    for (const object of listed) {
      expect(object.size).toBe(Buffer.byteLength(object.key));
      expect(object.lastModified).toBeInstanceOf(Date);
      expect(Math.abs(object.lastModified.getTime() - Date.now())).toBeLessThan(10 * 60_000);
    }
    if (name === 's3') expect(s3Pages.list - before).toBe(Math.ceil(keys.length / PAGE));

    expect(await keysOf(storage, `${userPrefix(user)}models/`)).toEqual(
      keys.filter((k) => k.includes('/models/')).sort(),
    );
    expect(await keysOf(storage, `users/${uid()}/`)).toEqual([]);
    // A prefix naming an object, not a directory, lists nothing.
    expect(await keysOf(storage, `${keys[0]}/`)).toEqual([]);
  });

  it('deletes everything under a prefix, and only that', async () => {
    const user = uid();
    const other = uid();
    const mine = Array.from({ length: 10 }, (_, i) => modelArtifactKey(user, uid(), `f${i}.bin`));
    const theirs = [
      modelArtifactKey(other, uid(), 'model.npz'),
      `users/${user}x/models/m/model.npz`,
      `users/${user}.txt`,
    ];
    for (const key of [...mine, ...theirs]) await put(storage, key);
    const batchesBefore = s3Pages.deleteBatches.length;

    expect(await storage.deletePrefix(userPrefix(user))).toBe(mine.length);
    for (const key of mine) expect(await storage.exists(key)).toBe(false);
    for (const key of theirs) expect(await storage.exists(key)).toBe(true);
    expect(await keysOf(storage, userPrefix(user))).toEqual([]);
    if (name === 's3') {
      // Batches of at most PAGE keys (1000 by default).
      expect(s3Pages.deleteBatches.slice(batchesBefore)).toEqual([3, 3, 3, 1]);
    } else {
      expect(await readdir(path.join(local.root, 'users'))).not.toContain(user);
    }
    // Nothing left: a no-op.
    expect(await storage.deletePrefix(userPrefix(user))).toBe(0);
  });

  it('deletePrefix of a prefix naming an object leaves the object', async () => {
    const key = `lonely-${name}/object`;
    await put(storage, key);
    expect(await storage.deletePrefix(`${key}/`)).toBe(0);
    expect(await storage.exists(key)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['/', 'root'],
    ['users', 'no trailing slash'],
    ['users//', 'empty segment'],
    ['../', 'parent'],
    ['users/../', 'parent inside'],
    ['.tmp/', 'the temp directory'],
    ['/etc/', 'absolute'],
  ])('refuses the prefix %j (%s)', async (prefix) => {
    await expect(storage.deletePrefix(prefix)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(all(storage.list(prefix))).rejects.toBeInstanceOf(InvalidStorageKeyError);
  });

  it('refuses bad keys in copy', async () => {
    await put(storage, `copy-${name}/ok.txt`);
    await expect(storage.copy('../x', `copy-${name}/y`)).rejects.toBeInstanceOf(
      InvalidStorageKeyError,
    );
    await expect(storage.copy(`copy-${name}/ok.txt`, '../y')).rejects.toBeInstanceOf(
      InvalidStorageKeyError,
    );
  });
});

describe('local driver', () => {
  it('lists only what a key can name, and deletePrefix removes the whole directory', async () => {
    const user = uid();
    const key = modelArtifactKey(user, uid(), 'model.npz');
    await put(local, key);
    const dir = path.join(local.root, 'users', user);
    await mkdir(path.join(dir, '.hidden'), { recursive: true });
    await writeFile(path.join(dir, '.DS_Store'), 'x');
    await writeFile(path.join(dir, '.hidden', 'x'), 'x');
    expect(await keysOf(local, userPrefix(user))).toEqual([key]);
    expect(await local.deletePrefix(userPrefix(user))).toBe(1);
    await expect(readdir(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('never lists the temp directory', async () => {
    await put(local, 'tmpcheck/a.txt');
    await mkdir(path.join(local.root, '.tmp'), { recursive: true });
    await writeFile(path.join(local.root, '.tmp', 'x.part'), 'x');
    expect(await keysOf(local, 'tmpcheck/')).toEqual(['tmpcheck/a.txt']);
  });
});
