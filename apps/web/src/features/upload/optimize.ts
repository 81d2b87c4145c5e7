import {
  OPTIMIZE_MAX_SIDE,
  OPTIMIZE_QUALITY,
  OPTIMIZE_QUALITY_MOBILE,
  OPTIMIZE_SKIP_BYTES,
  OPTIMIZE_SKIP_BYTES_MOBILE,
  OPTIMIZED_SUFFIX,
} from './constants';

/**
 * Client-side photo optimisation (api spec, section 9 Photos): photos of 800KB or more (600KB on
 * mobile) are scaled to fit 1024x1024, upright as their EXIF orientation says, and re-encoded as
 * JPEG at quality 0.85 (0.8 on mobile) under the name `<name>_optimized.jpg`.
 */
export interface OptimizeSettings {
  maxSide: number;
  quality: number;
  skipBelowBytes: number;
}

export function optimizeSettings(mobile: boolean): OptimizeSettings {
  return {
    maxSide: OPTIMIZE_MAX_SIDE,
    quality: mobile ? OPTIMIZE_QUALITY_MOBILE : OPTIMIZE_QUALITY,
    skipBelowBytes: mobile ? OPTIMIZE_SKIP_BYTES_MOBILE : OPTIMIZE_SKIP_BYTES,
  };
}

/** Phones and tablets (iPadOS reports itself as a Mac with a touch screen). */
export function isMobileDevice(
  nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> | undefined = globalThis.navigator,
): boolean {
  if (!nav) return false;
  const ua = nav.userAgent ?? '';
  if (/Android|iPhone|iPad|iPod|Mobile|Silk|Kindle|BlackBerry|Opera Mini|IEMobile/i.test(ua)) {
    return true;
  }
  return /Macintosh/.test(ua) && (nav.maxTouchPoints ?? 0) > 1;
}

/** Small files go up as they are. */
export function needsOptimization(file: Pick<File, 'size'>, settings: OptimizeSettings): boolean {
  return file.size >= settings.skipBelowBytes;
}

/** The largest size with the same proportions that fits the box; never enlarged. */
export function fitWithin(
  width: number,
  height: number,
  maxSide: number,
): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, maxSide / width, maxSide / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** `portrait.PNG` -> `portrait_optimized.jpg`. */
export function optimizedName(name: string): string {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  return `${base || 'photo'}${OPTIMIZED_SUFFIX}.jpg`;
}

/** A decoded picture, already turned upright. */
export interface DecodedImage {
  width: number;
  height: number;
  source: CanvasImageSource;
  close(): void;
}

/** Decoding and encoding, injectable so the decisions can be tested without a browser. */
export interface ImageCodec {
  decode(file: Blob): Promise<DecodedImage>;
  encode(image: DecodedImage, width: number, height: number, quality: number): Promise<Blob>;
}

export interface OptimizedFile {
  file: File;
  /** True when the file was re-encoded; false when the original is kept. */
  optimized: boolean;
}

export async function optimizeFile(
  file: File,
  settings: OptimizeSettings,
  codec: ImageCodec = browserCodec,
): Promise<OptimizedFile> {
  if (!needsOptimization(file, settings)) return { file, optimized: false };
  const image = await codec.decode(file);
  try {
    const target = fitWithin(image.width, image.height, settings.maxSide);
    if (target.width === 0) throw new Error('The image has no pixels');
    const blob = await codec.encode(image, target.width, target.height, settings.quality);
    const resized = target.width !== image.width || target.height !== image.height;
    // A photo already small enough that re-encoding only makes bigger stays as it is.
    if (!resized && blob.size >= file.size) return { file, optimized: false };
    return {
      file: new File([blob], optimizedName(file.name), {
        type: 'image/jpeg',
        lastModified: file.lastModified,
      }),
      optimized: true,
    };
  } finally {
    image.close();
  }
}

export interface OptimizeOutcome extends OptimizedFile {
  /** The original, as picked. */
  original: File;
  /** Decoding or encoding failed: the original is uploaded and the server judges it. */
  failed: boolean;
}

/**
 * Optimises a pick one file at a time (a phone holds one decoded photo in memory, not twenty),
 * reporting after each. A file that cannot be optimised keeps its original.
 */
export async function optimizeFiles(
  files: readonly File[],
  options: {
    settings: OptimizeSettings;
    codec?: ImageCodec;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<OptimizeOutcome[]> {
  const outcomes: OptimizeOutcome[] = [];
  options.onProgress?.(0, files.length);
  for (const file of files) {
    try {
      const result = await optimizeFile(file, options.settings, options.codec);
      outcomes.push({ ...result, original: file, failed: false });
    } catch {
      outcomes.push({ file, optimized: false, original: file, failed: true });
    }
    options.onProgress?.(outcomes.length, files.length);
  }
  return outcomes;
}

// --- The browser codec -------------------------------------------------------------------------

async function decodeWithBitmap(file: Blob): Promise<DecodedImage> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch (error) {
    // Browsers that predate the 'from-image' value reject the option; their default already
    // applies the EXIF orientation.
    if (!(error instanceof TypeError)) throw error;
    bitmap = await createImageBitmap(file);
  }
  return {
    width: bitmap.width,
    height: bitmap.height,
    source: bitmap,
    close: () => bitmap.close(),
  };
}

async function decodeWithImageElement(file: Blob): Promise<DecodedImage> {
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    // <img> honours EXIF orientation by default (CSS image-orientation: from-image).
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    return {
      width: img.naturalWidth,
      height: img.naturalHeight,
      source: img,
      close: () => URL.revokeObjectURL(url),
    };
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
}

export const browserCodec: ImageCodec = {
  async decode(file) {
    if (typeof createImageBitmap === 'function') {
      try {
        return await decodeWithBitmap(file);
      } catch {
        // Some engines cannot make bitmaps from every blob; an <img> still can.
      }
    }
    return decodeWithImageElement(file);
  },
  encode(image, width, height, quality) {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) return Promise.reject(new Error('Canvas is not available'));
    // JPEG has no transparency: flatten PNG and WebP alpha onto white, not black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(image.source, 0, 0, width, height);
    return new Promise((resolve, reject) => {
      canvas.toBlob(
        (blob) => {
          canvas.width = 0;
          canvas.height = 0;
          if (blob) resolve(blob);
          else reject(new Error('The image could not be encoded'));
        },
        'image/jpeg',
        quality,
      );
    });
  },
};
