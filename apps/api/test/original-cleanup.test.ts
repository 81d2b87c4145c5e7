// The one-time cleaning of stored originals (services/original-cleanup.ts): originals stored before
// uploads were kept without metadata still carry the phone's EXIF, GPS position included. On a real
// database and both storage drivers (local, and S3 against the test server of scripts/lib.sh).
import { CreateBucketCommand, DeleteBucketCommand } from '@aws-sdk/client-s3';
import { createDb, type Db } from '@studioshot/db';
import { createTestDatabase, type TestDatabase } from '@studioshot/db/testing';
import { LocalStorage, photoKeys, S3Storage, type Storage } from '@studioshot/storage';
import exifReader from 'exif-reader';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  inject,
  it,
  vi,
} from 'vitest';
import { cleanStoredOriginals } from '../src/services/original-cleanup.js';
import { PhotoProcessingService } from '../src/services/photo-processing.js';
import type { LayoutLogger } from '../src/services/storage-layout.js';
import { GPS_EXIF, makeSplitImage } from './fixtures/images.js';

const S3_ENDPOINT = process.env.S3_TEST_ENDPOINT;
const RUN = randomBytes(4).toString('hex');
let scratch: string;
const photos = new PhotoProcessingService();

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
  scratch = await mkdtemp(path.join(tmpdir(), 'original-cleanup-test-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

let stores = 0;
const drivers: Record<string, () => Promise<{ storage: Storage; drop(): Promise<void> }>> = {
  local: async () => {
    stores += 1;
    const storage = new LocalStorage(path.join(scratch, `root-${stores}`));
    return { storage, drop: () => rm(storage.root, { recursive: true, force: true }) };
  },
  s3: async () => {
    stores += 1;
    const storage = new S3Storage({
      bucket: `studioshot-originals-${RUN}-${stores}`,
      region: 'us-east-1',
      endpoint: S3_ENDPOINT,
      forcePathStyle: true,
      tmpDir: scratch,
    });
    await storage.client.send(new CreateBucketCommand({ Bucket: storage.bucket }));
    return {
      storage,
      async drop() {
        await storage.deletePrefix('users/');
        await storage.client.send(new DeleteBucketCommand({ Bucket: storage.bucket }));
        await storage.close();
      },
    };
  },
};

const silent: LayoutLogger = { info: () => undefined, warn: () => undefined };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(Object.keys(drivers))('on %s storage', (driver) => {
  let database: TestDatabase;
  let db: Db;
  let storage: Storage;
  let drop: () => Promise<void>;
  let userId: string;
  let sessionId: string;

  beforeEach(async () => {
    database = await createTestDatabase(inject('pgAdminUrl'), inject('pgTemplate'));
    db = createDb(database.url, { max: 3 });
    ({ storage, drop } = await drivers[driver]!());
    const user = await db
      .insertInto('users')
      .values({ email: `${randomUUID()}@example.com`, password_hash: 'x', name: 'Old uploads' })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = user.id;
    const session = await db
      .insertInto('upload_sessions')
      .values({
        user_id: userId,
        session_type: 'training',
        expected_files: 10,
        status: 'completed',
        expires_at: new Date(Date.now() + 3600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    sessionId = session.id;
  });
  afterEach(async () => {
    await db.destroy();
    await database.drop();
    await drop();
  });

  /** A photo row as the API stored it before originals were cleaned, its original `bytes`. */
  async function oldPhoto(
    bytes: Buffer | undefined,
    options: { extension?: string; clean?: boolean } = {},
  ) {
    const id = randomUUID();
    const extension = options.extension ?? 'jpg';
    const keys = photoKeys(userId, sessionId, id, extension);
    if (bytes) {
      const file = path.join(scratch, `${id}.${extension}`);
      await writeFile(file, bytes);
      await storage.putFile(keys.original, file);
    }
    await db
      .insertInto('photos')
      .values({
        id,
        session_id: sessionId,
        user_id: userId,
        original_filename: `selfie.${extension}`,
        original_key: keys.original,
        optimized_key: keys.optimized,
        thumbnail_key: keys.thumbnail,
        mime_type: extension === 'png' ? 'image/png' : 'image/jpeg',
        width: 400,
        height: 600,
        size_bytes: bytes?.length ?? 0,
        content_hash: randomUUID(),
        ...(options.clean === undefined ? {} : { original_clean: options.clean }),
      })
      .execute();
    return { id, key: keys.original };
  }

  /** A phone photo: 600 x 400 stored, EXIF orientation 6 (shown upright as 400 x 600, red on top), GPS. */
  async function phonePhoto(): Promise<Buffer> {
    const file = path.join(scratch, `${randomUUID()}.jpg`);
    await makeSplitImage(file, { width: 600, height: 400, exif: GPS_EXIF, orientation: 6 });
    const bytes = await readFile(file);
    expect(exifReader((await sharp(bytes).metadata()).exif!).GPSInfo?.GPSLatitude).toEqual([
      48, 51, 29.59,
    ]);
    return bytes;
  }

  const stored = async (key: string) => buffer(await storage.get(key));
  const marker = async (id: string) =>
    (
      await db
        .selectFrom('photos')
        .select('original_clean')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).original_clean;

  it('rewrites each old original upright and without metadata, once', async () => {
    const gps = await oldPhoto(await phonePhoto());
    const png = await oldPhoto(
      await sharp({ create: { width: 64, height: 48, channels: 4, background: '#3366ffcc' } })
        .withExif(GPS_EXIF)
        .png()
        .toBuffer(),
      { extension: 'png' },
    );
    const missing = await oldPhoto(undefined);
    // Uploaded since originals are cleaned on the way in: marked, and never read.
    const alreadyClean = await oldPhoto(await phonePhoto(), { clean: true });
    const alreadyCleanBytes = await stored(alreadyClean.key);

    const report = await cleanStoredOriginals(db, storage, photos, silent, { batchSize: 2 });
    expect(report).toEqual({ ran: true, cleaned: 2, missing: 1, failed: 0 });

    const cleaned = await stored(gps.key);
    const meta = await sharp(cleaned).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 400, height: 600 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(cleaned.includes('GPS')).toBe(false);
    expect(cleaned.includes('FixtureCam')).toBe(false);
    // Orientation 6 applied to the pixels: the red half is now on top.
    const { data } = await sharp(cleaned)
      .extract({ left: 200, top: 100, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(150);
    expect(data[2]).toBeLessThan(100);

    const pngMeta = await sharp(await stored(png.key)).metadata();
    expect(pngMeta).toMatchObject({ format: 'png', width: 64, height: 48, hasAlpha: true });
    expect(pngMeta.exif).toBeUndefined();

    for (const photo of [gps, png, missing, alreadyClean])
      expect(await marker(photo.id)).toBe(true);
    expect(sha256(await stored(alreadyClean.key))).toBe(sha256(alreadyCleanBytes));

    // Runs once: a second run finds nothing, and rewrites nothing.
    const gpsDigest = sha256(cleaned);
    expect(await cleanStoredOriginals(db, storage, photos, silent)).toEqual({
      ran: true,
      cleaned: 0,
      missing: 0,
      failed: 0,
    });
    expect(sha256(await stored(gps.key))).toBe(gpsDigest);
  });

  it('leaves an original it cannot read for the next run, and says so', async () => {
    const broken = await oldPhoto(Buffer.from('not an image at all'));
    const good = await oldPhoto(await phonePhoto());
    const warnings: string[] = [];
    const logger: LayoutLogger = { info: () => undefined, warn: (_obj, msg) => warnings.push(msg) };
    expect(await cleanStoredOriginals(db, storage, photos, logger)).toEqual({
      ran: true,
      cleaned: 1,
      missing: 0,
      failed: 1,
    });
    expect(await marker(broken.id)).toBe(false);
    expect(await marker(good.id)).toBe(true);
    expect(warnings.some((w) => /could not clean an original/.test(w))).toBe(true);
  });

  it('writes nothing back for a photo deleted while its original was being cleaned', async () => {
    const photo = await oldPhoto(await phonePhoto());
    // The user deletes the photo (row, then files) just as its cleaned copy is ready.
    const deleting: Pick<PhotoProcessingService, 'cleanOriginal'> = {
      cleanOriginal: async (input, output, format) => {
        const info = await photos.cleanOriginal(input, output, format);
        await db.deleteFrom('photos').where('id', '=', photo.id).execute();
        await storage.delete(photo.key);
        return info;
      },
    };
    const report = await cleanStoredOriginals(db, storage, deleting, silent);
    expect(report).toEqual({ ran: true, cleaned: 0, missing: 0, failed: 0 });
    expect(await storage.exists(photo.key)).toBe(false);
  });
});
