import exifReader from 'exif-reader';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalStorage, type Storage } from '@studioshot/storage';
import {
  PHOTO_MESSAGES,
  PhotoProcessingService,
  PhotoRejectedError,
  type PhotoRejection,
} from '../src/services/photo-processing.js';
import {
  GPS_EXIF,
  makeCameraPhoto,
  makeLyingPngHeader,
  makePixelBombPng,
  makeSplitImage,
} from './fixtures/images.js';

let dir: string; // inputs
let work: string; // the service's temp directory: must be empty after every call
let service: PhotoProcessingService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'photo-test-in-'));
  work = await mkdtemp(path.join(tmpdir(), 'photo-test-work-'));
  service = new PhotoProcessingService({ tmpDir: work });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

beforeEach(async () => {
  expect(await readdir(work)).toEqual([]);
});

const file = (name: string) => path.join(dir, name);
const sha256 = async (p: string) =>
  createHash('sha256')
    .update(await readFile(p))
    .digest('hex');

async function expectRejected(
  input: string,
  reason: PhotoRejection,
  detail: string | RegExp,
  status: number,
): Promise<PhotoRejectedError> {
  const error = await service.process(input).then(
    () => {
      throw new Error(`${path.basename(input)} was accepted`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PhotoRejectedError);
  const rejected = error as PhotoRejectedError;
  expect(rejected.reason).toBe(reason);
  if (typeof detail === 'string') expect(rejected.detail).toBe(detail);
  else expect(rejected.detail).toMatch(detail);
  expect(rejected.status).toBe(status);
  expect(await readdir(work)).toEqual([]); // nothing left behind on failure
  return rejected;
}

/** Red or blue at (x, y) of a decoded image. */
async function colourAt(image: string, x: number, y: number): Promise<'red' | 'blue' | 'white'> {
  const { data, info } = await sharp(image)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [r = 0, g = 0, b = 0] = data;
  expect(info.channels).toBe(3);
  if (r > 200 && g > 200 && b > 200) return 'white';
  if (r > 150 && b < 100) return 'red';
  if (b > 150 && r < 100) return 'blue';
  throw new Error(`unexpected colour ${r},${g},${b}`);
}

// libjpeg's standard luminance table; quality q scales it (jcparam.c, jpeg_quality_scaling).
const STD_LUMINANCE = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
  14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113,
  92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

/** The libjpeg quality a JPEG was saved with, read from its first quantisation table. */
function jpegQuality(jpeg: Buffer): number | undefined {
  const at = jpeg.indexOf(Buffer.from([0xff, 0xdb]));
  if (at < 0 || jpeg[at + 4] !== 0) return undefined; // table 0, 8-bit precision
  const table = [...jpeg.subarray(at + 5, at + 5 + 64)].sort((a, b) => a - b).join();
  for (let q = 1; q <= 100; q += 1) {
    const scale = q < 50 ? Math.floor(5000 / q) : 200 - 2 * q;
    const expected = STD_LUMINANCE.map((v) =>
      Math.min(255, Math.max(1, Math.floor((v * scale + 50) / 100))),
    );
    if (expected.sort((a, b) => a - b).join() === table) return q;
  }
  return undefined;
}

describe('accepted photos', () => {
  it.each([
    ['jpeg', 'image/jpeg', 'jpg'],
    ['png', 'image/png', 'png'],
    ['webp', 'image/webp', 'webp'],
  ] as const)(
    '%s: optimised to 1024 px JPEG q85 with a 256 px thumbnail',
    async (format, mime, ext) => {
      const input = file(`photo.${ext}`);
      await makeSplitImage(input, { width: 3000, height: 2000, format });
      const before = await sha256(input);

      const photo = await service.process(input);
      try {
        expect(photo).toMatchObject({
          mimeType: mime,
          extension: ext,
          width: 3000,
          height: 2000,
          sizeBytes: (await readFile(input)).length,
          contentHash: before,
          original: { format, contentType: mime, width: 3000, height: 2000 },
          optimized: { format: 'jpeg', contentType: 'image/jpeg', width: 1024, height: 683 },
          thumbnail: { format: 'jpeg', contentType: 'image/jpeg', width: 256, height: 171 },
        });
        // The original is kept re-encoded (full size, its own format), never the upload itself.
        expect(photo.files.original).not.toBe(input);
        expect(await sharp(photo.files.original).metadata()).toMatchObject({
          format,
          width: 3000,
          height: 2000,
        });
        expect(photo.original.bytes).toBe((await readFile(photo.files.original)).length);

        const optimized = await sharp(photo.files.optimized).metadata();
        expect(optimized).toMatchObject({ format: 'jpeg', width: 1024, height: 683 });
        expect(photo.optimized.bytes).toBe((await readFile(photo.files.optimized)).length);
        expect(jpegQuality(await readFile(photo.files.optimized))).toBe(85);
        expect(jpegQuality(await readFile(photo.files.thumbnail))).toBe(80);

        const thumb = await sharp(photo.files.thumbnail).metadata();
        expect(thumb).toMatchObject({ format: 'jpeg', width: 256, height: 171 });
        expect(photo.thumbnail.bytes).toBe((await readFile(photo.files.thumbnail)).length);

        expect(await sha256(input)).toBe(before); // the caller's upload is left as it was
      } finally {
        await photo.cleanup();
        await photo.cleanup(); // twice is fine
      }
    },
  );

  it('never enlarges a small photo', async () => {
    const input = file('small.png');
    await makeSplitImage(input, { width: 600, height: 400, format: 'png' });
    const photo = await service.process(input);
    expect(photo.optimized).toMatchObject({ width: 600, height: 400 });
    expect(photo.thumbnail).toMatchObject({ width: 256, height: 171 });
    await photo.cleanup();
  });

  it('fits portrait photos inside 1024 x 1024 too', async () => {
    const input = file('portrait.webp');
    await makeSplitImage(input, { width: 1500, height: 3000, format: 'webp' });
    const photo = await service.process(input);
    expect(photo.optimized).toMatchObject({ width: 512, height: 1024 });
    expect(photo.thumbnail).toMatchObject({ width: 128, height: 256 });
    await photo.cleanup();
  });

  it('goes by magic bytes, not by the file name', async () => {
    const input = file('really-a-jpeg.png');
    await makeSplitImage(input, { width: 300, height: 200, format: 'jpeg' });
    const photo = await service.process(input);
    expect(photo).toMatchObject({ mimeType: 'image/jpeg', extension: 'jpg' });
    await photo.cleanup();
  });

  it('turns the photo upright by its EXIF orientation', async () => {
    // Stored 600 x 400, left half red; orientation 6 = shown rotated 90° clockwise, so the
    // viewer sees 400 x 600 with red on top.
    const input = file('rotated.jpg');
    await makeSplitImage(input, { width: 600, height: 400, orientation: 6 });
    expect((await sharp(input).metadata()).orientation).toBe(6);

    const photo = await service.process(input);
    try {
      expect(photo).toMatchObject({ width: 400, height: 600 });
      // The kept original is upright too, with the orientation applied rather than recorded.
      expect(photo.original).toMatchObject({ width: 400, height: 600, orientation: 6 });
      expect(await sharp(photo.files.original).metadata()).toMatchObject({
        width: 400,
        height: 600,
      });
      expect((await sharp(photo.files.original).metadata()).orientation).toBeUndefined();
      expect(await colourAt(photo.files.original, 200, 100)).toBe('red');
      expect(await colourAt(photo.files.original, 200, 500)).toBe('blue');
      expect(photo.optimized).toMatchObject({ width: 400, height: 600 });
      const meta = await sharp(photo.files.optimized).metadata();
      expect(meta.orientation).toBeUndefined(); // no tag left to rotate it a second time
      expect(await colourAt(photo.files.optimized, 200, 100)).toBe('red');
      expect(await colourAt(photo.files.optimized, 200, 500)).toBe('blue');
      expect(await colourAt(photo.files.thumbnail, 85, 30)).toBe('red');
    } finally {
      await photo.cleanup();
    }
  });

  it('strips every piece of metadata: no GPS position survives', async () => {
    const input = file('gps.jpg');
    await makeSplitImage(input, { width: 1600, height: 1200, exif: GPS_EXIF, orientation: 3 });
    // The fixture really carries a GPS position (and an ICC profile from withMetadata).
    const source = await sharp(input).metadata();
    expect(source.exif).toBeDefined();
    const tags = exifReader(source.exif!);
    expect(tags.GPSInfo?.GPSLatitude).toEqual([48, 51, 29.59]);
    expect(tags.Image?.Make).toBe('FixtureCam');

    const photo = await service.process(input);
    try {
      for (const output of [photo.files.original, photo.files.optimized, photo.files.thumbnail]) {
        const meta = await sharp(output).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.iptc).toBeUndefined();
        expect(meta.icc).toBeUndefined();
        expect(meta.orientation).toBeUndefined();
        const bytes = await readFile(output);
        expect(bytes.includes('Exif\0')).toBe(false);
        expect(bytes.includes('FixtureCam')).toBe(false);
        expect(bytes.includes('GPS')).toBe(false);
      }
      // Orientation 3 (upside down) was applied before the EXIF went: red is now on the right.
      expect(await colourAt(photo.files.optimized, 900, 400)).toBe('red');
      expect(await colourAt(photo.files.original, 1400, 600)).toBe('red');
      expect(photo.original).toMatchObject({ format: 'jpeg', width: 1600, height: 1200 });
    } finally {
      await photo.cleanup();
    }
  });

  it('flattens transparency onto white', async () => {
    const input = file('alpha.png');
    await makeSplitImage(input, { width: 400, height: 200, format: 'png', alpha: true });
    const photo = await service.process(input);
    expect(await colourAt(photo.files.optimized, 50, 100)).toBe('red');
    expect(await colourAt(photo.files.optimized, 350, 100)).toBe('white');
    await photo.cleanup();
  });

  it('processes a 12 MP camera-sized JPEG of about 8 MB', async () => {
    const input = file('camera.jpg');
    const { bytes } = await makeCameraPhoto(input, { orientation: 6 });
    expect(bytes).toBeGreaterThan(6_000_000);
    const photo = await service.process(input);
    expect(photo).toMatchObject({ width: 3000, height: 4000, sizeBytes: bytes });
    expect(photo.optimized).toMatchObject({ width: 768, height: 1024 });
    await photo.cleanup();
  });
});

describe('refused files', () => {
  it('refuses an empty file', async () => {
    const input = file('empty.jpg');
    await writeFile(input, '');
    await expectRejected(input, 'empty', PHOTO_MESSAGES.empty, 422);
  });

  it('refuses a file over 50 MB before reading it', async () => {
    const input = file('huge.jpg');
    await makeSplitImage(input, { width: 100, height: 100 });
    await truncate(input, 50 * 1024 * 1024 + 1); // sparse: a valid JPEG start, then zeros
    await expectRejected(input, 'too_large', 'File too large (max 50MB)', 413);
    // Exactly 50 MB is allowed (bytes after a JPEG's end marker are ignored by decoders).
    await truncate(input, 50 * 1024 * 1024);
    const photo = await service.process(input);
    expect(photo).toMatchObject({ sizeBytes: 50 * 1024 * 1024, width: 100, height: 100 });
    await photo.cleanup();
  });

  it.each([
    ['notes.jpg', Buffer.from('just some text, named like a photo\n'.repeat(20))],
    ['script.png', Buffer.from('#!/bin/sh\necho hello\n')],
    ['doc.webp', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n')],
    ['random.jpeg', createHash('sha512').update('seed').digest()],
  ])('refuses a renamed non-image (%s)', async (name, content) => {
    const input = file(name);
    await writeFile(input, content);
    await expectRejected(
      input,
      'invalid_type',
      'Invalid file type. Only JPEG, PNG, and WebP are allowed.',
      415,
    );
  });

  it.each(['gif', 'tiff', 'avif'] as const)('refuses other image types (%s)', async (format) => {
    const input = file(`other.${format === 'gif' ? 'jpg' : 'png'}`);
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
      .toFormat(format)
      .toFile(input);
    await expectRejected(input, 'invalid_type', PHOTO_MESSAGES.invalidType, 415);
  });

  it.each(['jpeg', 'png', 'webp'] as const)('refuses a truncated %s', async (format) => {
    const whole = file(`whole.${format}`);
    const input = file(`truncated.${format}`);
    await makeCameraPhoto(whole, { width: 800, height: 600 });
    await sharp(whole).toFormat(format).toFile(`${whole}.out`);
    const bytes = await readFile(`${whole}.out`);
    await writeFile(input, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expectRejected(input, 'corrupt', PHOTO_MESSAGES.corrupt, 422);
  });

  it('refuses a JPEG cut inside its header', async () => {
    const whole = file('header.jpg');
    await makeSplitImage(whole, { width: 200, height: 200, exif: GPS_EXIF });
    await writeFile(file('header-cut.jpg'), (await readFile(whole)).subarray(0, 200));
    await expectRejected(file('header-cut.jpg'), 'corrupt', PHOTO_MESSAGES.corrupt, 422);
  });

  it('refuses a PNG whose header promises more pixels than its data holds', async () => {
    const input = file('lying.png');
    await makeLyingPngHeader(input, 3000, 2000);
    await expectRejected(input, 'corrupt', PHOTO_MESSAGES.corrupt, 422);
  });

  it('refuses more pixels than the limit from the header alone', async () => {
    const small = new PhotoProcessingService({ tmpDir: work, maxPixels: 200_000 });
    const input = file('over-limit.jpg');
    await makeSplitImage(input, { width: 600, height: 400 });
    await expect(small.process(input)).rejects.toMatchObject({
      reason: 'too_many_pixels',
      detail: 'The image is too large to process (600 x 400 pixels; the limit is 0.2 megapixels).',
    });
  });

  it('refuses progressive JPEGs and interlaced PNGs whose decoder buffer is too big', async () => {
    // These cannot be decoded in a stream; the limit is scaled down for a small test image.
    const tight = new PhotoProcessingService({ tmpDir: work, maxBufferedDecodeBytes: 1_000_000 });
    const baseline = file('baseline.jpg');
    const progressive = file('progressive.jpg');
    const interlaced = file('interlaced.png');
    const raw = { width: 1000, height: 1000, channels: 3 as const, background: '#456' };
    await sharp({ create: raw }).jpeg().toFile(baseline);
    await sharp({ create: raw }).jpeg({ progressive: true }).toFile(progressive);
    await sharp({ create: raw }).png({ progressive: true }).toFile(interlaced);
    const ok = await tight.process(baseline);
    await ok.cleanup();
    for (const input of [progressive, interlaced]) {
      await expect(tight.process(input)).rejects.toMatchObject({ reason: 'too_many_pixels' });
    }
    expect(await readdir(work)).toEqual([]);
  });
});

describe('decompression bomb', () => {
  let bomb: string;
  beforeAll(async () => {
    bomb = file('bomb.png');
    await makePixelBombPng(bomb); // 50,000 x 50,000, about 300 KB
  });

  it('refuses a 50,000 x 50,000 PNG of a few hundred KB in well under 100 ms, with no memory spike', async () => {
    const size = (await readFile(bomb)).length;
    expect(size).toBeLessThan(1_000_000);
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 50_000, height: 50_000 });

    // Warm the code path once (module loading), then time a fresh refusal.
    await service.process(bomb).catch(() => undefined);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const error = await expectRejected(
      bomb,
      'too_many_pixels',
      'The image is too large to process (50000 x 50000 pixels; the limit is 100 megapixels).',
      422,
    );
    const elapsed = performance.now() - started;
    const grew = process.memoryUsage().rss - rssBefore;
    expect(error.reason).toBe('too_many_pixels');
    expect(elapsed).toBeLessThan(100);
    expect(grew).toBeLessThan(20 * 1024 * 1024);
  });

  it('sharp itself refuses it too (limitInputPixels), were the header check bypassed', async () => {
    await expect(
      sharp(bomb, { limitInputPixels: 100_000_000 }).resize(100).jpeg().toBuffer(),
    ).rejects.toThrow(/pixel limit/);
  });
});

describe('processToStorage', () => {
  let root: string;
  let storage: LocalStorage;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'photo-test-store-'));
    storage = new LocalStorage(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('stores the original (without metadata), the optimised photo and the thumbnail', async () => {
    const input = file('to-store.png');
    await makeSplitImage(input, { width: 2048, height: 1024, format: 'png' });
    const stored = await service.processToStorage(input, storage, 'photos/u1/s1/p1');
    expect(stored).toMatchObject({
      contentHash: await sha256(input),
      original: { key: 'photos/u1/s1/p1/original.png', contentType: 'image/png', width: 2048 },
      optimized: { key: 'photos/u1/s1/p1/optimized.jpg', width: 1024, height: 512 },
      thumbnail: { key: 'photos/u1/s1/p1/thumbnail.jpg', width: 256, height: 128 },
    });
    const original = await sharp(storage.pathOf(stored.original.key)).metadata();
    expect(original).toMatchObject({ format: 'png', width: 2048, height: 1024 });
    expect(original.exif).toBeUndefined();
    expect(await colourAt(storage.pathOf(stored.original.key), 100, 500)).toBe('red');
    expect((await sharp(storage.pathOf(stored.optimized.key)).metadata()).format).toBe('jpeg');
    expect(stored.thumbnail.bytes).toBe(
      (await readFile(storage.pathOf(stored.thumbnail.key))).length,
    );
    expect(await readdir(work)).toEqual([]);
    expect(await readFile(input)).toBeTruthy(); // the caller's file is still there
  });

  it('removes what it stored and its temp files when a put fails', async () => {
    const input = file('store-fails.jpg');
    await makeSplitImage(input, { width: 800, height: 600 });
    let puts = 0;
    const failing: Storage = Object.assign(Object.create(storage) as LocalStorage, {
      putFile: (key: string, source: string) => {
        puts += 1;
        if (puts === 3) return Promise.reject(new Error('disk on fire'));
        return storage.putFile(key, source);
      },
    });
    await expect(service.processToStorage(input, failing, 'photos/u1/s1/p2')).rejects.toThrow(
      'disk on fire',
    );
    expect(await storage.exists('photos/u1/s1/p2/original.jpg')).toBe(false);
    expect(await storage.exists('photos/u1/s1/p2/optimized.jpg')).toBe(false);
    expect(await readdir(work)).toEqual([]);
  });

  it('stores nothing for a refused file', async () => {
    const input = file('refused.jpg');
    await writeFile(input, 'not an image');
    await expect(service.processToStorage(input, storage, 'photos/u1/s1/p3')).rejects.toThrow(
      PHOTO_MESSAGES.invalidType,
    );
    expect(await storage.exists('photos/u1/s1/p3/original.jpg')).toBe(false);
  });
});

describe('concurrency', () => {
  it('processes many photos at once, at most maxConcurrent at a time, and leaves no temp files', async () => {
    const gated = new PhotoProcessingService({ tmpDir: work, maxConcurrent: 2 });
    const inputs = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const input = file(`batch-${i}.jpg`);
        await makeSplitImage(input, { width: 1200 + i * 10, height: 900 });
        return input;
      }),
    );
    let peak = 0;
    const watcher = setInterval(() => (peak = Math.max(peak, gated.activeJobs)), 1);
    const results = await Promise.all(
      inputs.map(async (input, i) => {
        const photo = await gated.process(input);
        peak = Math.max(peak, gated.activeJobs);
        expect(photo.width).toBe(1200 + i * 10);
        await photo.cleanup();
        return photo;
      }),
    );
    clearInterval(watcher);
    expect(results).toHaveLength(6);
    expect(peak).toBeLessThanOrEqual(2);
    expect(gated.activeJobs).toBe(0);
    expect(await readdir(work)).toEqual([]);
  });
});
