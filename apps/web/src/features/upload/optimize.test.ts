import { describe, expect, it, vi } from 'vitest';
import {
  fitWithin,
  isMobileDevice,
  needsOptimization,
  optimizedName,
  optimizeFile,
  optimizeFiles,
  optimizeSettings,
  type DecodedImage,
  type ImageCodec,
} from './optimize';

const KB = 1024;

function sized(name: string, size: number, type = 'image/jpeg'): File {
  const f = new File(['x'], name, { type, lastModified: 42 });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

/** A codec that "decodes" to the given size and encodes to a blob of the given length. */
function fakeCodec(width: number, height: number, encodedBytes = 100 * KB) {
  const close = vi.fn();
  const encode = vi.fn(
    async (_image: DecodedImage, _w: number, _h: number, _quality: number) =>
      new Blob([new Uint8Array(encodedBytes)], { type: 'image/jpeg' }),
  );
  const codec: ImageCodec = {
    decode: vi.fn(async () => ({ width, height, source: {} as CanvasImageSource, close })),
    encode,
  };
  return { codec, encode, close };
}

describe('photo optimisation settings', () => {
  it('uses 1024 px, quality 0.85 and an 800KB threshold; 0.8 and 600KB on mobile', () => {
    expect(optimizeSettings(false)).toEqual({
      maxSide: 1024,
      quality: 0.85,
      skipBelowBytes: 800 * KB,
    });
    expect(optimizeSettings(true)).toEqual({
      maxSide: 1024,
      quality: 0.8,
      skipBelowBytes: 600 * KB,
    });
  });

  it('recognises phones and tablets', () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';
    const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36';
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15';
    expect(isMobileDevice({ userAgent: iphone, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ userAgent: android, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ userAgent: mac, maxTouchPoints: 0 })).toBe(false);
    // iPadOS presents itself as a Mac with a touch screen.
    expect(isMobileDevice({ userAgent: mac, maxTouchPoints: 5 })).toBe(true);
  });

  it('skips files under the threshold', () => {
    const desktop = optimizeSettings(false);
    const mobile = optimizeSettings(true);
    expect(needsOptimization({ size: 800 * KB - 1 }, desktop)).toBe(false);
    expect(needsOptimization({ size: 800 * KB }, desktop)).toBe(true);
    expect(needsOptimization({ size: 700 * KB }, mobile)).toBe(true);
    expect(needsOptimization({ size: 599 * KB }, mobile)).toBe(false);
  });

  it('fits within 1024x1024 keeping proportions, never enlarging', () => {
    expect(fitWithin(4032, 3024, 1024)).toEqual({ width: 1024, height: 768 });
    expect(fitWithin(3024, 4032, 1024)).toEqual({ width: 768, height: 1024 });
    expect(fitWithin(2000, 2000, 1024)).toEqual({ width: 1024, height: 1024 });
    expect(fitWithin(800, 600, 1024)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(10000, 10, 1024)).toEqual({ width: 1024, height: 1 });
  });

  it('names the output with the _optimized suffix as a .jpg', () => {
    expect(optimizedName('IMG_0042.HEIC.png')).toBe('IMG_0042.HEIC_optimized.jpg');
    expect(optimizedName('selfie.jpeg')).toBe('selfie_optimized.jpg');
    expect(optimizedName('noext')).toBe('noext_optimized.jpg');
    expect(optimizedName('.hidden')).toBe('.hidden_optimized.jpg');
  });
});

describe('optimizeFile', () => {
  it('leaves a small file alone without decoding it', async () => {
    const { codec } = fakeCodec(4000, 3000);
    const small = sized('small.png', 500 * KB, 'image/png');
    const result = await optimizeFile(small, optimizeSettings(false), codec);
    expect(result).toEqual({ file: small, optimized: false });
    expect(codec.decode).not.toHaveBeenCalled();
  });

  it('scales a big photo to 1024 px as JPEG at the desktop quality', async () => {
    const { codec, encode, close } = fakeCodec(4032, 3024, 300 * KB);
    const big = sized('portrait.png', 5000 * KB, 'image/png');
    const result = await optimizeFile(big, optimizeSettings(false), codec);
    expect(result.optimized).toBe(true);
    expect(result.file.name).toBe('portrait_optimized.jpg');
    expect(result.file.type).toBe('image/jpeg');
    expect(result.file.size).toBe(300 * KB);
    expect(encode).toHaveBeenCalledWith(expect.anything(), 1024, 768, 0.85);
    expect(close).toHaveBeenCalled();
  });

  it('uses the mobile quality on phones', async () => {
    const { codec, encode } = fakeCodec(3000, 4000);
    await optimizeFile(sized('a.jpg', 700 * KB), optimizeSettings(true), codec);
    expect(encode).toHaveBeenCalledWith(expect.anything(), 768, 1024, 0.8);
  });

  it('keeps the original when re-encoding a photo that needs no resize would grow it', async () => {
    const { codec } = fakeCodec(1000, 800, 900 * KB);
    const original = sized('already-small.jpg', 850 * KB);
    const result = await optimizeFile(original, optimizeSettings(false), codec);
    expect(result).toEqual({ file: original, optimized: false });
  });

  it('optimises a pick one by one, reporting progress, keeping originals that fail', async () => {
    const { codec } = fakeCodec(2048, 2048);
    const broken: ImageCodec = {
      decode: vi.fn(async (file: Blob) => {
        if ((file as File).name === 'broken.jpg') throw new Error('cannot decode');
        return codec.decode(file);
      }),
      encode: codec.encode,
    };
    const files = [sized('a.jpg', 2000 * KB), sized('broken.jpg', 2000 * KB), sized('c.jpg', 10)];
    const progress: [number, number][] = [];
    const outcomes = await optimizeFiles(files, {
      settings: optimizeSettings(false),
      codec: broken,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(progress).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(outcomes.map((o) => [o.file.name, o.optimized, o.failed])).toEqual([
      ['a_optimized.jpg', true, false],
      ['broken.jpg', false, true],
      ['c.jpg', false, false],
    ]);
  });
});
