/**
 * The fused detector against face-api's own, on the same weights and the same photos: the same
 * faces, boxes and scores up to float rounding. Real models on the WASM backend, real photos.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createPhotoAnalyzer,
  decodePhoto,
  faceDetector,
  modelDir,
  photoTensor,
} from './analyze-photo.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');
const photos = readdirSync(fixtures).filter((name) => name.endsWith('.jpg'));

const pixels = async (name: string) => photoTensor(await decodePhoto(path.join(fixtures, name)));

const options = new faceapi.SsdMobilenetv1Options({ minConfidence: 0.2, maxResults: 10 });

describe('the fused face detector', () => {
  beforeAll(async () => {
    await createPhotoAnalyzer();
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
  }, 300_000);

  it.each(photos)('finds what face-api finds in %s', async (name) => {
    const input = await pixels(name);
    try {
      const stock = await faceapi.nets.ssdMobilenetv1.locateFaces(input, options);
      const fused = await faceDetector.locateFaces(input, options);
      expect(fused.map((d) => d.box.width > 0)).toEqual(stock.map((d) => d.box.width > 0));
      fused.forEach((detection, i) => {
        const reference = stock[i]!;
        expect(detection.score).toBeCloseTo(reference.score, 3);
        for (const side of ['x', 'y', 'width', 'height'] as const) {
          expect(Math.abs(detection.relativeBox[side] - reference.relativeBox[side])).toBeLessThan(
            1e-3,
          );
        }
      });
    } finally {
      input.dispose();
    }
  });

  it('finds the faces it should, so the comparison above compares something', async () => {
    const input = await pixels('two-faces.jpg');
    try {
      expect((await faceDetector.locateFaces(input, options)).length).toBeGreaterThanOrEqual(2);
    } finally {
      input.dispose();
    }
  });
});
