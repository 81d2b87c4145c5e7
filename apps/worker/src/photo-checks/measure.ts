/**
 * Timing of the photo checks: not a test (no assertions), a measurement to re-run on the target
 * machine. Prints model load time and per-photo times over a set of 20 photos at the size the
 * upload optimiser produces (1024 px long side, JPEG), and the CPU-seconds per photo, whole and
 * step by step (decode, detector, landmarks, levelling, descriptors, sharpness), with the detector's
 * kernels by share (CPU time moves much less than wall time on a busy machine).
 *
 *   pnpm --filter @studioshot/worker exec tsx src/photo-checks/measure.ts
 */
import { createRequire } from 'node:module';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TfjsCore from '@tensorflow/tfjs';
import type * as FaceApi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import sharp from 'sharp';
import { checkPhotoSet, countUsable } from './check-photo-set.js';
import { laplacianVariance } from './sharpness.js';

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
const { createPhotoAnalyzer, faceDetector } = await import('./analyze-photo.js');
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
// Where a check's CPU goes: analyzePhoto's steps one by one, with the same calls, on the same
// photos (the detector on every photo; the landmarks and descriptors where it found a face).
const faceapi = await import('@vladmandic/face-api/dist/face-api.node-wasm.js');
const { tf } = faceapi;
const stageCpu = new Map<string, number>();
async function stage<T>(name: string, step: () => Promise<T> | T): Promise<T> {
  const start = cpuSeconds();
  const result = await step();
  stageCpu.set(name, (stageCpu.get(name) ?? 0) + cpuSeconds() - start);
  return result;
}
const detectorOptions = new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5, maxResults: 10 });
let withFace = 0;
for (const file of photos) {
  const { data, info } = await stage('decode (sharp, 1024 px)', () =>
    sharp(file, { autoOrient: true })
      .resize(1024, 1024, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const input = tf.tensor3d(
    new Uint8Array(data.buffer, data.byteOffset, data.length),
    [info.height, info.width, 3],
    'int32',
  );
  const held: FaceApi.tf.Tensor[] = [input];
  try {
    const [face] = (
      await stage('face detector (SSD MobileNet)', () =>
        faceDetector.locateFaces(input, detectorOptions),
      )
    ).sort((a, b) => b.box.area - a.box.area);
    if (!face) continue;
    withFace += 1;
    const landmarks = async (image: FaceApi.tf.Tensor3D) =>
      (await new faceapi.DetectSingleFaceLandmarksTask(
        Promise.resolve({ detection: face }),
        image,
        false,
      ))!.landmarks;
    const found = await stage('landmarks x2', () => landmarks(input));
    const eyes = [found.getLeftEye(), found.getRightEye()].map((points) => ({
      x: points.reduce((sum, p) => sum + p.x, 0) / points.length,
      y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
    }));
    const [left, right] = eyes as [{ x: number; y: number }, { x: number; y: number }];
    const level = await stage('levelling (whole photo turned)', () =>
      tf.tidy(
        () =>
          tf.reshape(
            tf.image.rotateWithOffset(
              tf.cast(tf.expandDims(input, 0), 'float32') as FaceApi.tf.Tensor4D,
              Math.atan2(right.y - left.y, right.x - left.x),
              0,
              [(left.x + right.x) / 2 / info.width, (left.y + right.y) / 2 / info.height],
            ),
            [info.height, info.width, 3],
          ) as FaceApi.tf.Tensor3D,
      ),
    );
    held.push(level);
    const levelled = await stage('landmarks x2', () => landmarks(level));
    const chips = await stage('face chip and its mirror', async () => {
      const [chip] = await faceapi.extractFaceTensors(level, [
        levelled.align(null, { useDlibAlignment: true }),
      ]);
      const mirror = tf.tidy(() =>
        tf.reshape(
          tf.image.flipLeftRight(tf.expandDims(chip!, 0) as FaceApi.tf.Tensor4D),
          chip!.shape,
        ),
      ) as FaceApi.tf.Tensor3D;
      return [chip!, mirror];
    });
    held.push(...chips);
    for (const chip of chips)
      await stage('descriptor x2 (ResNet-34)', () => faceapi.computeFaceDescriptor(chip));
    await stage('sharpness (sharp + Laplacian)', async () => {
      const box = face.box;
      const leftEdge = Math.max(0, Math.floor(box.x));
      const topEdge = Math.max(0, Math.floor(box.y));
      const grey = await sharp(data, {
        raw: { width: info.width, height: info.height, channels: 3 },
      })
        .extract({
          left: leftEdge,
          top: topEdge,
          width: Math.max(3, Math.min(info.width, Math.ceil(box.x + box.width)) - leftEdge),
          height: Math.max(3, Math.min(info.height, Math.ceil(box.y + box.height)) - topEdge),
        })
        .greyscale()
        .resize(128, 128, { fit: 'fill' })
        .normalise()
        .raw()
        .toBuffer();
      return laplacianVariance(new Uint8Array(grey.buffer, grey.byteOffset, grey.length), 128, 128);
    });
  } finally {
    for (const tensor of held) tensor.dispose();
  }
}
// Inside the detector: its kernels' share of the time (TensorFlow.js's own profiler, wall time).
const profiled = tf.tensor3d(new Uint8Array(1024 * 768 * 3).fill(128), [768, 1024, 3], 'int32');
const kernels = new Map<string, number>();
for (const kernel of (
  await (tf as unknown as Pick<typeof TfjsCore, 'profile'>).profile(async () => {
    await faceDetector.locateFaces(profiled, detectorOptions);
  })
).kernels) {
  const ms = typeof kernel.kernelTimeMs === 'number' ? kernel.kernelTimeMs : 0;
  kernels.set(kernel.name, (kernels.get(kernel.name) ?? 0) + ms);
}
profiled.dispose();
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
const load = os
  .loadavg()
  .map((v) => v.toFixed(1))
  .join(' ');
console.log(`CPU          ${cpuPerPhoto.toFixed(3)} CPU-s per photo (load average ${load})`);
console.log(`steps        CPU-s per photo, ${photos.length} photos, ${withFace} with a face:`);
for (const [name, seconds] of stageCpu) {
  const perPhoto =
    seconds /
    (name.startsWith('decode') || name.startsWith('face detector')
      ? photos.length
      : Math.max(1, withFace));
  console.log(`  ${name.padEnd(34)} ${perPhoto.toFixed(3)}`);
}
const kernelTotal = [...kernels.values()].reduce((a, b) => a + b, 0);
console.log(
  `detector     kernels by share: ${[...kernels]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([name, ms]) => `${name} ${((100 * ms) / kernelTotal).toFixed(0)}%`)
    .join(', ')}`,
);
