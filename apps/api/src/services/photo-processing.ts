import { fileTypeFromFile } from 'file-type';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { AppError } from '../errors.js';
import type { Storage, StoredObject } from '@studioshot/storage';

/**
 * Server-side checks and optimisation of every uploaded photo.
 *
 *   1. size: not empty, at most 50 MB;
 *   2. type by magic bytes (file-type): JPEG, PNG or WebP only, whatever the name or the declared
 *      type say;
 *   3. dimensions from the header alone (libvips reads no pixel data for metadata), so a
 *      decompression bomb is refused before any memory is spent on it;
 *   4. a full decode and re-encode with sharp: EXIF auto-rotation, every piece of metadata
 *      (EXIF, GPS, XMP, IPTC, ICC) dropped, colours converted to sRGB, transparency flattened onto
 *      white, fitted inside 1024 x 1024 without enlarging, JPEG quality 85 (the spec's
 *      optimisation), plus a 256 px JPEG thumbnail made from that output.
 *
 *   5. the original, kept at full size in its own format but re-encoded like the copies: upright,
 *      no metadata (a phone's EXIF carries where the photo was taken), sRGB.
 *
 * The SHA-256 of the file as received identifies it (the same upload twice is one photo).
 * Everything works from files on disk and streams: no whole file is ever read into memory
 * (except a photo that must be turned by 90 or 180 degrees: its decoded pixels are held to turn it).
 */

// The first two are the spec's (the same strings as MESSAGES.invalidFileType / fileTooLarge in
// @studioshot/contracts); the others are ours, for cases the spec has no message for.
export const PHOTO_MESSAGES = {
  invalidType: 'Invalid file type. Only JPEG, PNG, and WebP are allowed.',
  tooLarge: 'File too large (max 50MB)',
  empty: 'The file is empty.',
  corrupt: 'The image could not be read: the file is damaged or incomplete.',
  tooManyPixels: (width: number, height: number, limit: number) =>
    `The image is too large to process (${width} x ${height} pixels; the limit is ${formatMegapixels(limit)} megapixels).`,
} as const;

export type PhotoFormat = 'jpeg' | 'png' | 'webp';

const CONTENT_TYPES: Record<PhotoFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};
const EXTENSIONS: Record<PhotoFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };
/** JPEG and WebP quality of the kept original: visually lossless, a fraction of lossless size. */
const ORIGINAL_QUALITY = 95;
const FORMAT_BY_MIME = new Map<string, PhotoFormat>([
  ['image/jpeg', 'jpeg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
]);

export type PhotoRejection = 'empty' | 'too_large' | 'invalid_type' | 'too_many_pixels' | 'corrupt';

/** A photo refused by the checks; `detail` is the sentence to show the user. */
export class PhotoRejectedError extends AppError {
  override name = 'PhotoRejectedError';
  constructor(
    readonly reason: PhotoRejection,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      reason === 'invalid_type'
        ? 'unsupported_media_type'
        : reason === 'too_large'
          ? 'payload_too_large'
          : 'validation_error',
      detail,
    );
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export interface PhotoLimits {
  /** Largest accepted file, bytes: the spec's 50MB, as the client counts it (MiB). */
  maxBytes: number;
  /** Most pixels (width x height, as stored) of any input; also sharp's limitInputPixels. */
  maxPixels: number;
  /**
   * Progressive JPEGs and interlaced PNGs cannot be decoded in a stream: the decoder holds the
   * whole image (JPEG coefficients, PNG rows). Such inputs are refused when that buffer would
   * exceed this many bytes, which keeps the API inside its memory budget.
   */
  maxBufferedDecodeBytes: number;
}

export interface PhotoProcessingOptions extends Partial<PhotoLimits> {
  /** Longest side of the optimised photo. */
  maxDimension?: number;
  /** JPEG quality (1-100) of the optimised photo. */
  quality?: number;
  /** Longest side of the thumbnail. */
  thumbnailSize?: number;
  thumbnailQuality?: number;
  /** Parent of the per-photo working directories; the OS temp directory by default. */
  tmpDir?: string;
  /** Photos processed at once by this instance; more wait their turn (memory stays bounded). */
  maxConcurrent?: number;
}

export const DEFAULT_PHOTO_LIMITS: PhotoLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxPixels: 100_000_000,
  maxBufferedDecodeBytes: 120 * 1024 * 1024,
};

/** What the header says, before any pixel is decoded. */
export interface PhotoInspection {
  format: PhotoFormat;
  contentType: string;
  bytes: number;
  /** As stored in the file. */
  width: number;
  height: number;
  /** After EXIF orientation (what a viewer shows). */
  orientedWidth: number;
  orientedHeight: number;
  /** EXIF orientation 1-8, when present. */
  orientation?: number;
}

export interface PhotoFileInfo {
  format: PhotoFormat;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * One processed photo. The top-level fields describe the original (what the upload flow records);
 * `original`, `optimized` and `thumbnail` give each file's details, `files` their paths.
 */
export interface ProcessedPhoto {
  /** The original's type, from its magic bytes: image/jpeg, image/png or image/webp. */
  mimeType: string;
  /** File extension for that type, without the dot: jpg, png or webp. */
  extension: string;
  /** The original's dimensions as displayed, i.e. after EXIF orientation. */
  width: number;
  height: number;
  /** The size in bytes of the file as received. */
  sizeBytes: number;
  /** SHA-256 (hex) of the file as received. */
  contentHash: string;
  files: {
    /** The original to keep: upright, metadata-free, full size, its own format. In a temp directory. */
    original: string;
    /** Oriented, metadata-free, fitted inside maxDimension, JPEG. In a temp directory. */
    optimized: string;
    /** JPEG thumbnail, in the same temp directory. */
    thumbnail: string;
  };
  /**
   * The original to keep (upright, so `width`/`height` equal `orientedWidth`/`orientedHeight`);
   * `orientation` is the EXIF orientation the upload had, now applied to the pixels.
   */
  original: PhotoFileInfo & { orientedWidth: number; orientedHeight: number; orientation?: number };
  optimized: PhotoFileInfo;
  thumbnail: PhotoFileInfo;
  /** Removes the optimised photo and the thumbnail (their temp directory); safe to call twice. */
  cleanup(): Promise<void>;
}

export interface StoredPhotoFile extends PhotoFileInfo {
  key: string;
}

export interface StoredPhoto {
  contentHash: string;
  original: StoredPhotoFile & { orientedWidth: number; orientedHeight: number };
  optimized: StoredPhotoFile;
  thumbnail: StoredPhotoFile;
}

let sharpConfigured = false;
/**
 * Process-wide sharp settings, applied once. libvips' operation cache only helps when the same
 * image is processed repeatedly, which never happens here, and it holds up to 50 MB: off.
 * Threads per image: sharp already picks 1 on glibc without jemalloc (less heap fragmentation)
 * and the core count elsewhere; we cap it at 2 so a photo never takes over a small machine.
 */
function configureSharp(): void {
  if (sharpConfigured) return;
  sharpConfigured = true;
  sharp.cache(false);
  sharp.concurrency(Math.min(sharp.concurrency(), 2));
}

function formatMegapixels(pixels: number): string {
  return String(Math.round(pixels / 100_000) / 10);
}

/** Bytes the decoder must hold at once for inputs that cannot be streamed; 0 when streamed. */
export function bufferedDecodeBytes(meta: Metadata): number {
  if (!meta.isProgressive) return 0;
  const pixels = meta.width * meta.height;
  if (meta.format === 'jpeg') {
    // 16-bit DCT coefficients for every component; chroma planes are smaller when subsampled.
    const components =
      meta.chromaSubsampling === '4:2:0'
        ? 1.5
        : meta.chromaSubsampling === '4:2:2'
          ? 2
          : meta.channels;
    return pixels * components * 2;
  }
  if (meta.format === 'png') {
    return pixels * meta.channels * (meta.depth === 'ushort' ? 2 : 1);
  }
  return 0;
}

export class PhotoProcessingService {
  readonly limits: PhotoLimits;
  private readonly maxDimension: number;
  private readonly quality: number;
  private readonly thumbnailSize: number;
  private readonly thumbnailQuality: number;
  private readonly tmpDir: string;
  /** At most maxConcurrent photos in the pipeline at once; the rest wait their turn in order. */
  private readonly limit: LimitFunction;

  constructor(options: PhotoProcessingOptions = {}) {
    configureSharp();
    this.limits = {
      maxBytes: options.maxBytes ?? DEFAULT_PHOTO_LIMITS.maxBytes,
      maxPixels: options.maxPixels ?? DEFAULT_PHOTO_LIMITS.maxPixels,
      maxBufferedDecodeBytes:
        options.maxBufferedDecodeBytes ?? DEFAULT_PHOTO_LIMITS.maxBufferedDecodeBytes,
    };
    this.maxDimension = options.maxDimension ?? 1024;
    this.quality = options.quality ?? 85;
    this.thumbnailSize = options.thumbnailSize ?? 256;
    this.thumbnailQuality = options.thumbnailQuality ?? 80;
    this.tmpDir = options.tmpDir ?? tmpdir();
    this.limit = pLimit(options.maxConcurrent ?? 2);
  }

  /** Photos being processed right now (the rest of the callers are waiting their turn). */
  get activeJobs(): number {
    return this.limit.activeCount;
  }

  /**
   * Size, magic bytes and header dimensions; reads no pixel data. Throws PhotoRejectedError.
   */
  async inspect(filePath: string): Promise<PhotoInspection> {
    const info = await stat(filePath);
    if (!info.isFile()) throw new Error(`${filePath} is not a file`);
    if (info.size === 0) throw new PhotoRejectedError('empty', PHOTO_MESSAGES.empty);
    if (info.size > this.limits.maxBytes) {
      throw new PhotoRejectedError('too_large', PHOTO_MESSAGES.tooLarge);
    }

    const detected = await fileTypeFromFile(filePath);
    const format = detected && FORMAT_BY_MIME.get(detected.mime);
    if (!format) throw new PhotoRejectedError('invalid_type', PHOTO_MESSAGES.invalidType);

    let meta: Metadata;
    try {
      // Header only: libvips opens the image lazily and decodes nothing for metadata(). The pixel
      // limit is ours to check below (with a clear message), so sharp's is lifted for this call.
      meta = await sharp(filePath, { limitInputPixels: false }).metadata();
    } catch (error) {
      throw new PhotoRejectedError('corrupt', PHOTO_MESSAGES.corrupt, { cause: error });
    }
    if (meta.format !== format || !meta.width || !meta.height) {
      throw new PhotoRejectedError('corrupt', PHOTO_MESSAGES.corrupt);
    }
    const { width, height } = meta;
    if (width * height > this.limits.maxPixels) {
      throw new PhotoRejectedError(
        'too_many_pixels',
        PHOTO_MESSAGES.tooManyPixels(width, height, this.limits.maxPixels),
      );
    }
    const buffered = bufferedDecodeBytes(meta);
    if (buffered > this.limits.maxBufferedDecodeBytes) {
      const limit = Math.floor((width * height * this.limits.maxBufferedDecodeBytes) / buffered);
      throw new PhotoRejectedError(
        'too_many_pixels',
        PHOTO_MESSAGES.tooManyPixels(width, height, limit),
      );
    }
    return {
      format,
      contentType: CONTENT_TYPES[format],
      bytes: info.size,
      width,
      height,
      orientedWidth: meta.autoOrient.width,
      orientedHeight: meta.autoOrient.height,
      orientation: meta.orientation,
    };
  }

  /**
   * Checks, decodes and re-encodes one photo. On success the caller owns the result and must
   * call `cleanup()` (or use `processToStorage`, which does); on failure nothing is left behind.
   */
  async process(filePath: string): Promise<ProcessedPhoto> {
    return this.limit(async () => {
      const inspection = await this.inspect(filePath);
      const workDir = await mkdtemp(path.join(this.tmpDir, 'studioshot-photo-'));
      const cleanup = () => rm(workDir, { recursive: true, force: true });
      try {
        const optimizedPath = path.join(workDir, 'optimized.jpg');
        const thumbnailPath = path.join(workDir, 'thumbnail.jpg');
        const originalPath = path.join(workDir, `original.${EXTENSIONS[inspection.format]}`);
        const [contentHash, optimized, original] = await Promise.all([
          sha256File(filePath),
          this.optimize(filePath, optimizedPath),
          this.cleanOriginal(filePath, originalPath, inspection.format),
        ]);
        const thumbnail = await sharp(optimizedPath, { limitInputPixels: this.limits.maxPixels })
          .resize({
            width: this.thumbnailSize,
            height: this.thumbnailSize,
            fit: 'inside',
            withoutEnlargement: true,
          })
          .jpeg({ quality: this.thumbnailQuality, mozjpeg: false })
          .toFile(thumbnailPath);
        const jpeg = (info: OutputInfo): PhotoFileInfo => ({
          format: 'jpeg',
          contentType: CONTENT_TYPES.jpeg,
          width: info.width,
          height: info.height,
          bytes: info.size,
        });
        return {
          mimeType: inspection.contentType,
          extension: EXTENSIONS[inspection.format],
          width: inspection.orientedWidth,
          height: inspection.orientedHeight,
          sizeBytes: inspection.bytes,
          contentHash,
          files: { original: originalPath, optimized: optimizedPath, thumbnail: thumbnailPath },
          original: {
            format: inspection.format,
            contentType: inspection.contentType,
            width: original.width,
            height: original.height,
            bytes: original.size,
            orientedWidth: original.width,
            orientedHeight: original.height,
            orientation: inspection.orientation,
          },
          optimized: jpeg(optimized),
          thumbnail: jpeg(thumbnail),
          cleanup,
        };
      } catch (error) {
        await cleanup();
        throw error;
      }
    });
  }

  /**
   * `process`, then stores the original (upright, without metadata), the optimised photo and the thumbnail as
   * `<prefix>/original.<ext>`, `<prefix>/optimized.jpg` and `<prefix>/thumbnail.jpg`. Temporary
   * files are removed whatever happens; if a put fails, what was already stored is deleted. The
   * input file is not deleted: it belongs to the caller (multer's temp file).
   */
  async processToStorage(filePath: string, storage: Storage, prefix: string): Promise<StoredPhoto> {
    const photo = await this.process(filePath);
    const stored: StoredObject[] = [];
    try {
      const put = async (info: PhotoFileInfo, file: string, name: string) => {
        const object = await storage.putFile(`${prefix}/${name}`, file, {
          contentType: info.contentType,
        });
        stored.push(object);
        return { ...info, key: object.key };
      };
      const { orientation: _orientation, ...original } = photo.original;
      return {
        contentHash: photo.contentHash,
        original: {
          ...original,
          ...(await put(original, photo.files.original, `original.${photo.extension}`)),
        },
        optimized: await put(photo.optimized, photo.files.optimized, 'optimized.jpg'),
        thumbnail: await put(photo.thumbnail, photo.files.thumbnail, 'thumbnail.jpg'),
      };
    } catch (error) {
      await Promise.allSettled(stored.map((object) => storage.delete(object.key)));
      throw error;
    } finally {
      await photo.cleanup();
    }
  }

  /**
   * The original as it is kept: full size and its own format, but upright (EXIF orientation
   * applied to the pixels) and without any metadata: no EXIF (camera, time, GPS position), XMP,
   * IPTC or ICC profile (colours converted to sRGB). Near-lossless quality: this is the copy
   * training may read. Also cleans originals stored before this existed (original-cleanup.ts).
   */
  async cleanOriginal(input: string, output: string, format: PhotoFormat): Promise<OutputInfo> {
    return this.decodeFailsAsCorrupt(() => {
      const image = sharp(input, {
        limitInputPixels: this.limits.maxPixels,
        failOn: 'truncated',
        sequentialRead: true,
        autoOrient: true,
      });
      // Huffman optimisation would hold every coefficient of the image in memory: off, so the
      // re-encode streams (about 30 MB for 48 MP instead of about 300 MB).
      const encoded =
        format === 'jpeg'
          ? image.jpeg({ quality: ORIGINAL_QUALITY, optimiseCoding: false, mozjpeg: false })
          : format === 'png'
            ? image.png()
            : image.webp({ quality: ORIGINAL_QUALITY });
      return encoded.toFile(output);
    });
  }

  private async optimize(input: string, output: string): Promise<OutputInfo> {
    return this.decodeFailsAsCorrupt(() =>
      sharp(input, {
        // Defence in depth: the header was checked, but libvips enforces the limit too.
        limitInputPixels: this.limits.maxPixels,
        // Truncated or corrupt pixel data fails; harmless decoder warnings (common in camera
        // JPEGs, e.g. extraneous bytes before a marker) do not.
        failOn: 'truncated',
        sequentialRead: true,
        autoOrient: true,
      })
        .resize({
          width: this.maxDimension,
          height: this.maxDimension,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: this.quality, mozjpeg: false })
        .toFile(output),
    );
  }

  /** A decode that fails is the photo's fault (corrupt); failing to write is ours. */
  private async decodeFailsAsCorrupt(encode: () => Promise<OutputInfo>): Promise<OutputInfo> {
    try {
      return await encode();
    } catch (error) {
      // Our side failing to write (disk full, permissions) is not the photo's fault.
      if (error instanceof Error && /ENOSPC|EACCES|EROFS|No space left/i.test(error.message)) {
        throw error;
      }
      throw new PhotoRejectedError('corrupt', PHOTO_MESSAGES.corrupt, { cause: error });
    }
  }
}

async function sha256File(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
