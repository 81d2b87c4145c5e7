import { describe, expect, it } from 'vitest';
import { laplacianVariance } from './sharpness.js';

function image(width: number, height: number, pixel: (x: number, y: number) => number) {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels[y * width + x] = pixel(x, y);
  }
  return pixels;
}

describe('laplacianVariance', () => {
  it('is zero on a flat image and on a linear ramp (no second derivative)', () => {
    expect(
      laplacianVariance(
        image(8, 8, () => 128),
        8,
        8,
      ),
    ).toBe(0);
    expect(
      laplacianVariance(
        image(8, 8, (x) => 10 * x),
        8,
        8,
      ),
    ).toBe(0);
  });

  it('matches a hand-computed value on a checkerboard', () => {
    // Every interior pixel's Laplacian is +-4*255: mean 0 over an even interior, variance 1020^2.
    const board = image(6, 6, (x, y) => ((x + y) % 2) * 255);
    expect(laplacianVariance(board, 6, 6)).toBe(1020 * 1020);
  });

  it('drops when the same edges are smoothed', () => {
    const hard = image(32, 32, (x) => (x < 16 ? 0 : 255));
    const soft = image(32, 32, (x) => Math.round(255 / (1 + Math.exp(-(x - 15.5) / 2))));
    expect(laplacianVariance(soft, 32, 32)).toBeLessThan(laplacianVariance(hard, 32, 32) / 4);
  });

  it('rejects sizes that do not match the pixels', () => {
    expect(() => laplacianVariance(new Uint8Array(4), 2, 2)).toThrow(RangeError);
    expect(() => laplacianVariance(new Uint8Array(9), 3, 4)).toThrow(RangeError);
  });
});
