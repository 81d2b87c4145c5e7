/**
 * Timing of the photo checks: not a test (no assertions), a measurement to re-run on the target
 * machine. Prints model load time and per-photo times over a set of 20 photos at the size the
 * upload optimiser produces (1024 px long side, JPEG), and the CPU-seconds per photo, whole and
 * for the face detector alone (CPU time, unlike wall time, barely moves on a busy machine).
 *
 *   pnpm --filter @studioshot/worker exec tsx src/photo-checks/measure.ts
 */
import { createRequire } from 'node:module';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { checkPhotoSet, countUsable } from './check-photo-set.js';

const require = createRequire(import.meta.url);
const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');
const faceApiDemo = path.join(
  path.dirname(require.resolve('@vladmandic/face-api/package.json')),
  'demo',
);

const sources = [
  ...(await readdir(fixtures)).filter((n) => n.endsWith('.jpg')).map((n) => path.join(fixtures, n)),
  ...[1, 2, 3, 4].map((n) => path.join(faceApiDemo, `sample${n}.jpg`)),
].slice(0, 20);

const dir = await mkdtemp(path.join(os.tmpdir(), 'photo-checks-measure-'));
const photos: string[] = [];
for (const [i, source] of sources.entries()) {
  const file = path.join(dir, `${String(i).padStart(2, '0')}-${path.basename(source)}`);
  await sharp(source, { autoOrient: true })
    .resize(1024, 1024, { fit: 'inside' })
    .jpeg({ quality: 85 })
    .toFile(file);
  photos.push(file);
}

const importStart = performance.now();
// Imported here, not at the top, to time loading TensorFlow.js and face-api themselves.
const { createPhotoAnalyzer } = await import('./analyze-photo.js');
const loadStart = performance.now();
const analyzer = await createPhotoAnalyzer();
const loadMs = performance.now() - loadStart;
const importMs = loadStart - importStart;

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const times: number[] = [];
const analyses = [];
const setStart = performance.now();
const setCpuStart = cpuSeconds();
for (const file of photos) {
  const start = performance.now();
  analyses.push(await analyzer.analyzePhoto(file));
  times.push(performance.now() - start);
}
const cpuPerPhoto = (cpuSeconds() - setCpuStart) / photos.length;
// The SSD MobileNet detector alone, on the same decoded photos, as analyzePhoto runs it once.
const faceapi = await import('@vladmandic/face-api/dist/face-api.node-wasm.js');
let detectorCpu = 0;
for (const file of photos) {
  const { data, info } = await sharp(file, { autoOrient: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const input = faceapi.tf.tensor3d(
    new Uint8Array(data.buffer, data.byteOffset, data.length),
    [info.height, info.width, 3],
    'int32',
  );
  const start = cpuSeconds();
  await faceapi.ssdMobilenetv1(input, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 }));
  detectorCpu += cpuSeconds() - start;
  input.dispose();
}
const checkStart = performance.now();
const verdicts = checkPhotoSet(analyses);
const checkMs = performance.now() - checkStart;
const setMs = performance.now() - setStart;
await rm(dir, { recursive: true, force: true });

const sorted = [...times].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const median =
  sorted.length % 2
    ? at(0.5)
    : ((sorted[sorted.length / 2 - 1] ?? 0) + (sorted[sorted.length / 2] ?? 0)) / 2;
const ms = (value: number) => `${Math.round(value)} ms`;
const cpus = os.cpus();
console.log(
  `machine      ${cpus.length} x ${cpus[0]?.model ?? 'unknown CPU'}, node ${process.version}`,
);
console.log(`backend      ${analyzer.info.backend} (face-api ${analyzer.info.faceApiVersion})`);
console.log(`import       ${ms(importMs)} (TensorFlow.js, face-api, sharp)`);
console.log(`model load   ${ms(loadMs)} (WASM backend, 3 models, warm-up inference)`);
console.log(`photos       ${photos.length} at 1024 px long side, ${countUsable(verdicts)} usable`);
console.log(
  `per photo    median ${ms(median)}, p90 ${ms(at(0.9))}, min ${ms(at(0))}, max ${ms(at(1))}`,
);
console.log(`whole set    ${ms(setMs)} one after another (checkPhotoSet ${checkMs.toFixed(1)} ms)`);
console.log(
  `CPU          ${cpuPerPhoto.toFixed(3)} CPU-s per photo, of which the face detector ${(detectorCpu / photos.length).toFixed(3)} (load average ${os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')})`,
);
