// Both storage drivers against the same contract: the local one on a temp directory, the S3 one
// against a real S3-compatible server (moto, started by `npm test`; see scripts/lib.sh), each
// run in a bucket of its own.
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../src/env.js';
import {
  createStorage,
  defaultStorageDir,
  InvalidStorageKeyError,
  LocalStorage,
  ObjectNotFoundError,
  S3Storage,
  type Storage,
} from '@studioshot/storage';

const S3_ENDPOINT = process.env.S3_TEST_ENDPOINT;
const RUN = randomBytes(4).toString('hex');
const BUCKET = `studioshot-test-${RUN}`;
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let scratch: string; // source files for puts, and a sentinel outside the storage root
let localRoot: string;
let local: LocalStorage;
let s3: S3Storage;

beforeAll(async () => {
  if (!S3_ENDPOINT) {
    throw new Error(
      'S3_TEST_ENDPOINT is not set: the S3 storage tests need a local S3-compatible server. ' +
        'Run them with `npm test` (scripts/lib.sh ensure_s3_test_server starts moto on ' +
        '127.0.0.1:59000), or start one yourself and export S3_TEST_ENDPOINT=http://127.0.0.1:59000.',
    );
  }
  // moto accepts any credentials; the SDK still wants some from its default chain.
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'studioshot-test');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'studioshot-test-secret');
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
  scratch = await mkdtemp(path.join(tmpdir(), 'storage-test-'));
  localRoot = path.join(scratch, 'root');
  local = new LocalStorage(localRoot);
  s3 = new S3Storage({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: S3_ENDPOINT,
    forcePathStyle: true,
    tmpDir: scratch,
  });
  await s3.client.send(new CreateBucketCommand({ Bucket: BUCKET }));
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

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function sourceFile(name: string, data: Buffer | string): Promise<string> {
  const file = path.join(scratch, name);
  await writeFile(file, data);
  return file;
}

/** A stream that yields some bytes, then fails. */
function failingStream(bytesBefore: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(bytesBefore));
      } else {
        this.destroy(new Error('client went away'));
      }
    },
  });
}

const drivers: [string, () => Storage][] = [
  ['local', () => local],
  ['s3', () => s3],
];

describe.each(drivers)('%s driver', (name, get) => {
  let storage: Storage;
  let prefix: string;
  beforeAll(() => {
    storage = get();
    prefix = `contract/${name}`;
  });

  it('puts a file and gets the same bytes back', async () => {
    const data = randomBytes(200_000);
    const key = `${prefix}/photos/u1/p1/original.jpg`;
    const stored = await storage.putFile(key, await sourceFile(`${name}-a.bin`, data), {
      contentType: 'image/jpeg',
    });
    expect(stored).toEqual({ key, size: data.length });
    expect(await storage.exists(key)).toBe(true);
    expect(sha(await readAll(await storage.get(key)))).toBe(sha(data));
    // the source file is left alone
    expect(sha(await readFile(path.join(scratch, `${name}-a.bin`)))).toBe(sha(data));
  });

  it('puts a stream', async () => {
    const key = `${prefix}/stream.txt`;
    const stored = await storage.putStream(key, Readable.from(['hello ', 'storage ', 'world']));
    expect(stored).toEqual({ key, size: 19 });
    expect(await text(await storage.get(key))).toBe('hello storage world');
  });

  it('round-trips large objects (multipart on S3) from a file and from a stream', async () => {
    const data = randomBytes(12 * 1024 * 1024 + 123);
    const fromFile = `${prefix}/large/file.bin`;
    const fromStream = `${prefix}/large/stream.bin`;
    const file = await sourceFile(`${name}-large.bin`, data);
    expect((await storage.putFile(fromFile, file)).size).toBe(data.length);
    const chunks = Array.from({ length: 13 }, (_, i) =>
      data.subarray(i * 1048576, (i + 1) * 1048576),
    );
    expect((await storage.putStream(fromStream, Readable.from(chunks))).size).toBe(data.length);
    for (const key of [fromFile, fromStream]) {
      expect(sha(await readAll(await storage.get(key)))).toBe(sha(data));
    }
  });

  it('replaces an object put twice', async () => {
    const key = `${prefix}/twice.txt`;
    await storage.putStream(key, Readable.from(['first version']));
    await storage.putStream(key, Readable.from(['second']));
    expect(await text(await storage.get(key))).toBe('second');
  });

  it.each([
    ['small', 1000],
    ['multipart-sized', 6 * 1024 * 1024],
  ])('stores nothing when the stream fails (%s)', async (_label, size) => {
    const key = `${prefix}/failed-${size}.bin`;
    await expect(storage.putStream(key, failingStream(size))).rejects.toThrow('client went away');
    expect(await storage.exists(key)).toBe(false);
    await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('stores nothing when the source file does not exist', async () => {
    const key = `${prefix}/no-source.bin`;
    await expect(storage.putFile(key, path.join(scratch, 'missing.bin'))).rejects.toThrow(/ENOENT/);
    expect(await storage.exists(key)).toBe(false);
  });

  it('reports missing objects', async () => {
    const key = `${prefix}/never/stored.jpg`;
    expect(await storage.exists(key)).toBe(false);
    const error = await storage.get(key).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ObjectNotFoundError);
    expect((error as ObjectNotFoundError).key).toBe(key);
    await expect(storage.localFile(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.delete(key)).resolves.toBeUndefined(); // deleting nothing is fine
  });

  it('does not take a "directory" of other objects for an object', async () => {
    await storage.putStream(`${prefix}/dir/inside.txt`, Readable.from(['x']));
    expect(await storage.exists(`${prefix}/dir`)).toBe(false);
    await expect(storage.get(`${prefix}/dir`)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await storage.delete(`${prefix}/dir`);
    expect(await storage.exists(`${prefix}/dir/inside.txt`)).toBe(true);
  });

  it('deletes', async () => {
    const key = `${prefix}/to-delete.txt`;
    await storage.putStream(key, Readable.from(['bye']));
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    await storage.delete(key);
  });

  it('hands out a local file path and cleans up after it', async () => {
    const data = randomBytes(50_000);
    const key = `${prefix}/for-engine/photo.jpg`;
    await storage.putFile(key, await sourceFile(`${name}-engine.bin`, data));
    const file = await storage.localFile(key);
    expect(path.isAbsolute(file.path)).toBe(true);
    expect(sha(await readFile(file.path))).toBe(sha(data));
    await file.release();
    await file.release(); // twice is fine
    if (name === 's3') {
      expect(existsSync(file.path)).toBe(false); // the temporary copy is gone
      expect((await readdir(scratch)).filter((f) => f.startsWith('studioshot-s3-'))).toEqual([]);
    } else {
      expect(file.path).toBe(path.join(localRoot, ...key.split('/'))); // the object itself
      expect(await storage.exists(key)).toBe(true);
    }
  });

  it.each([
    ['', 'empty'],
    ['../escape.txt', 'parent'],
    ['a/../../escape.txt', 'parent inside'],
    ['/etc/passwd', 'absolute'],
    ['a//b', 'empty segment'],
    ['a/b/', 'trailing slash'],
    ['./a', 'dot segment'],
    ['a/./b', 'inner dot segment'],
    ['.hidden', 'hidden name'],
    ['.tmp/x', 'the temp directory'],
    ['a\\..\\..\\escape', 'backslashes'],
    ['C:/windows', 'drive letter'],
    ['a b.jpg', 'space'],
    ['a\0b', 'NUL'],
    ['%2e%2e/escape', 'URL escapes'],
    ['x'.repeat(513), 'too long'],
  ])('refuses the key %j (%s) in every method', async (key) => {
    const src = await sourceFile(`${name}-bad.bin`, 'bad');
    const calls = [
      () => storage.putFile(key, src),
      () => storage.putStream(key, Readable.from(['bad'])),
      () => storage.get(key),
      () => storage.exists(key),
      () => storage.delete(key),
      () => storage.localFile(key),
    ];
    for (const call of calls) await expect(call()).rejects.toBeInstanceOf(InvalidStorageKeyError);
  });
});

describe('local driver', () => {
  it('never writes outside its root', async () => {
    const outside = path.join(scratch, 'escape.txt');
    await writeFile(outside, 'untouched');
    const src = await sourceFile('overwrite.bin', 'overwritten');
    await expect(local.putFile('../escape.txt', src)).rejects.toThrow(InvalidStorageKeyError);
    await expect(local.delete('../escape.txt')).rejects.toThrow(InvalidStorageKeyError);
    expect(await readFile(outside, 'utf8')).toBe('untouched');
    expect(() => local.pathOf('../escape.txt')).toThrow(InvalidStorageKeyError);
  });

  it('leaves no partial files behind after failed writes', async () => {
    for (let i = 0; i < 20; i += 1) {
      // Failing at once as well as after some data: the temp file must never outlive the put.
      const failsAtOnce = new Readable({
        read() {
          this.destroy(new Error('client went away'));
        },
      });
      await expect(local.putStream(`partial/${i}.bin`, failsAtOnce)).rejects.toThrow();
      await expect(local.putStream(`partial/${i}.bin`, failingStream(100_000))).rejects.toThrow();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await readdir(path.join(localRoot, '.tmp'))).toEqual([]);
    expect(existsSync(path.join(localRoot, 'partial'))).toBe(false);
  });

  it('creates its root on first write', async () => {
    const root = path.join(scratch, 'fresh', 'nested');
    const fresh = new LocalStorage(root);
    await fresh.putStream('a/b.txt', Readable.from(['x']));
    expect(await readFile(path.join(root, 'a', 'b.txt'), 'utf8')).toBe('x');
  });
});

describe('s3 driver', () => {
  it('records the content type', async () => {
    const key = 'meta/photo.png';
    await s3.putStream(key, Readable.from([Buffer.from('png-ish')]), { contentType: 'image/png' });
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head.ContentType).toBe('image/png');
    expect(head.ContentLength).toBe(7);
  });

  it('aborts the multipart upload of a failed stream (no orphaned parts)', async () => {
    await expect(s3.putStream('orphans/x.bin', failingStream(11 * 1024 * 1024))).rejects.toThrow();
    const uploads = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
    expect(uploads.Uploads ?? []).toEqual([]);
  });

  it('fails clearly when the bucket does not exist', async () => {
    const missing = new S3Storage({
      bucket: `${BUCKET}-missing`,
      region: 'us-east-1',
      endpoint: S3_ENDPOINT,
      forcePathStyle: true,
    });
    await expect(missing.putStream('x.txt', Readable.from(['x']))).rejects.toThrow(/bucket/i);
    await missing.close();
  });
});

describe('createStorage', () => {
  const base = {
    DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
    REDIS_URL: 'redis://127.0.0.1:6379',
    JWT_SECRET: 'x'.repeat(32),
  };

  it('defaults to the local driver under <repo>/.local/storage', () => {
    const env = loadEnv(base);
    expect(env.STORAGE_DRIVER).toBe('local');
    expect(defaultStorageDir()).toBe(path.join(REPO, '.local', 'storage'));
    const storage = createStorage(env);
    expect(storage).toBeInstanceOf(LocalStorage);
    expect((storage as LocalStorage).root).toBe(path.join(REPO, '.local', 'storage'));
  });

  it('uses STORAGE_DIR', async () => {
    const dir = path.join(scratch, 'configured');
    await mkdir(dir);
    const storage = createStorage(loadEnv({ ...base, STORAGE_DIR: dir }));
    expect((storage as LocalStorage).root).toBe(dir);
  });

  it('requires S3_BUCKET with STORAGE_DRIVER=s3', () => {
    expect(() => loadEnv({ ...base, STORAGE_DRIVER: 's3' })).toThrow(
      /S3_BUCKET: is required when STORAGE_DRIVER=s3/,
    );
    expect(() => loadEnv({ ...base, STORAGE_DRIVER: 'gcs' })).toThrow(/STORAGE_DRIVER/);
    expect(() => loadEnv({ ...base, S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT/);
  });

  it('builds a working S3 driver from the environment', async () => {
    const env = loadEnv({
      ...base,
      STORAGE_DRIVER: 's3',
      S3_BUCKET: BUCKET,
      S3_REGION: 'eu-west-3',
      S3_ENDPOINT: S3_ENDPOINT!,
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(env).toMatchObject({ S3_REGION: 'eu-west-3', S3_FORCE_PATH_STYLE: true });
    const storage = createStorage(env);
    expect(storage).toBeInstanceOf(S3Storage);
    try {
      await storage.putStream('from-env/hello.txt', Readable.from(['hi']));
      expect(await text(await s3.get('from-env/hello.txt'))).toBe('hi');
    } finally {
      await storage.close();
    }
  });
});
