/**
 * Variance of the Laplacian: the classic focus measure (Pech-Pacheco et al., 2000). A sharp image
 * has strong, varied second derivatives at edges; blur smooths them towards zero.
 *
 * `pixels` is one 8-bit grey channel, row by row. The 4-neighbour kernel [0 1 0; 1 -4 1; 0 1 0] is
 * applied to the interior pixels (no padding, so borders add no fake edges).
 */
export function laplacianVariance(pixels: Uint8Array, width: number, height: number): number {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 3 || height < 3) {
    throw new RangeError(`laplacianVariance needs at least 3x3 pixels, got ${width}x${height}`);
  }
  if (pixels.length !== width * height) {
    throw new RangeError(`expected ${width * height} grey pixels, got ${pixels.length}`);
  }
  let sum = 0;
  let sumOfSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      // Indices are in range by construction; `?? 0` only satisfies noUncheckedIndexedAccess.
      const value =
        (pixels[i - width] ?? 0) +
        (pixels[i + width] ?? 0) +
        (pixels[i - 1] ?? 0) +
        (pixels[i + 1] ?? 0) -
        4 * (pixels[i] ?? 0);
      sum += value;
      sumOfSquares += value * value;
    }
  }
  const count = (width - 2) * (height - 2);
  const mean = sum / count;
  return sumOfSquares / count - mean * mean;
}
