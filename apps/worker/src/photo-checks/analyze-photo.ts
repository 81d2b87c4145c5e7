/**
 * The model-running half of the photo checks: decode a photo with sharp, find faces and describe the
 * largest ones with face-api (TensorFlow.js on its WASM backend, CPU only), measure sharpness.
 *
 * Everything loads from node_modules: the WASM binaries ship in @tensorflow/tfjs-backend-wasm/dist,
 * the model weights in @vladmandic/face-api/model. Nothing is fetched at run time.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import type * as TfjsCore from '@tensorflow/tfjs';
import type * as TfjsWasm from '@tensorflow/tfjs-backend-wasm';
import sharp from 'sharp';
import { FusedSsdMobilenetv1 } from './face-detector.js';
import { laplacianVariance } from './sharpness.js';
import {
  ANALYSIS_MAX_SIDE,
  MAX_DESCRIBED_FACES,
  MAX_DETECTED_FACES,
  MIN_DETECTION_SCORE,
  SHARPNESS_SAMPLE_SIZE,
} from './thresholds.js';
import { PHOTO_ANALYSIS_VERSION, type FaceBox, type PhotoAnalysis } from './types.js';

/**
 * face-api's bundled typings only describe the ops it uses itself; at run time `faceapi.tf` is the
 * whole of @tensorflow/tfjs plus the WASM backend's exports (face-api.node-wasm.js re-exports both).
 */
type TfRuntime = Pick<typeof TfjsCore, 'setBackend' | 'ready' | 'getBackend' | 'memory' | 'env'> &
  Pick<typeof TfjsWasm, 'setWasmPaths'>;
const tf = faceapi.tf as unknown as TfRuntime;

const require = createRequire(import.meta.url);

export class PhotoUnreadableError extends Error {
  readonly code = 'photo_unreadable';
  constructor(file: string, options?: { cause?: unknown }) {
    super(`Could not read an image from ${path.basename(file)}`, options);
    this.name = 'PhotoUnreadableError';
  }
}

export interface PhotoAnalyzer {
  /** Measures one photo. Throws PhotoUnreadableError when the file is not a decodable image. */
  analyzePhoto(file: string): Promise<PhotoAnalysis>;
  /** Tensors alive in TensorFlow.js: constant between photos (the model weights), else a leak. */
  tensorsInUse(): number;
  /** What was loaded, for logs. */
  readonly info: { backend: string; faceApiVersion: string; modelDir: string; wasmDir: string };
}

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

export const modelDir = path.join(packageDir('@vladmandic/face-api'), 'model');
const wasmDir = path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');

/** The face detector: face-api's SSD MobileNet v1 weights, run fused (face-detector.ts). */
export const faceDetector = new FusedSsdMobilenetv1();

let loading: Promise<PhotoAnalyzer> | undefined;

/**
 * Loads the WASM backend and the three models (SSD MobileNet v1 detector, 68-point landmarks for
 * alignment, the ResNet-34 face descriptor) once per process; later calls share them. The
 * backend and the model weights are process-wide in TensorFlow.js, hence one analyzer per process.
 */
export function createPhotoAnalyzer(): Promise<PhotoAnalyzer> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<PhotoAnalyzer> {
  for (const file of ['tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm.wasm']) {
    if (!existsSync(path.join(wasmDir, file))) {
      throw new Error(`TensorFlow.js WASM binary missing: ${path.join(wasmDir, file)}`);
    }
  }
  // A local folder, never a URL: the binaries are read from disk.
  tf.setWasmPaths(`${wasmDir}${path.sep}`);
  if (!(await tf.setBackend('wasm'))) {
    throw new Error('TensorFlow.js could not start its WASM backend');
  }
  await tf.ready();
  await faceDetector.loadFromDisk(modelDir);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(modelDir);
  const analyzer: PhotoAnalyzer = {
    analyzePhoto,
    tensorsInUse: () => tf.memory().numTensors,
    info: { backend: tf.getBackend(), faceApiVersion: faceapi.version, modelDir, wasmDir },
  };
  // The first inference compiles kernels and allocates; pay for it here, not in the first job.
  await warmUp();
  return analyzer;
}

async function warmUp(): Promise<void> {
  const blank = faceapi.tf.zeros([160, 160, 3], 'int32') as faceapi.tf.Tensor3D;
  try {
    await faceDetector.locateFaces(blank, detectorOptions());
  } finally {
    blank.dispose();
  }
}

function detectorOptions() {
  return new faceapi.SsdMobilenetv1Options({
    minConfidence: MIN_DETECTION_SCORE,
    maxResults: MAX_DETECTED_FACES,
  });
}

export interface DecodedPhoto {
  /** Size as displayed (EXIF orientation applied), full resolution. */
  width: number;
  height: number;
  /** sRGB pixels at most ANALYSIS_MAX_SIDE on the long side. */
  rgb: Buffer;
  analysisWidth: number;
  analysisHeight: number;
}

/** The photo as the checks read it; also the face detector test's input. */
export async function decodePhoto(file: string): Promise<DecodedPhoto> {
  try {
    const image = sharp(file, { autoOrient: true });
    const meta = await image.metadata();
    const { data, info } = await image
      .resize(ANALYSIS_MAX_SIDE, ANALYSIS_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
    return {
      width: meta.autoOrient.width,
      height: meta.autoOrient.height,
      rgb: data,
      analysisWidth: info.width,
      analysisHeight: info.height,
    };
  } catch (error) {
    throw new PhotoUnreadableError(file, { cause: error });
  }
}

/** The decoded pixels as the detector's input tensor (the caller disposes it). */
export function photoTensor(photo: DecodedPhoto): faceapi.tf.Tensor3D {
  return faceapi.tf.tensor3d(
    new Uint8Array(photo.rgb.buffer, photo.rgb.byteOffset, photo.rgb.length),
    [photo.analysisHeight, photo.analysisWidth, 3],
    'int32',
  );
}

/** Variance of the Laplacian over the face box, resampled to a fixed square in normalised grey. */
async function faceSharpness(photo: DecodedPhoto, box: faceapi.Box): Promise<number> {
  // SSD boxes may poke out of the frame; measure the part inside it (at least 3x3 pixels).
  const left = clamp(Math.floor(box.x), 0, photo.analysisWidth - 3);
  const top = clamp(Math.floor(box.y), 0, photo.analysisHeight - 3);
  const right = clamp(Math.ceil(box.x + box.width), left + 3, photo.analysisWidth);
  const bottom = clamp(Math.ceil(box.y + box.height), top + 3, photo.analysisHeight);
  const grey = await sharp(photo.rgb, {
    raw: { width: photo.analysisWidth, height: photo.analysisHeight, channels: 3 },
  })
    .extract({ left, top, width: right - left, height: bottom - top })
    .greyscale()
    .resize(SHARPNESS_SAMPLE_SIZE, SHARPNESS_SAMPLE_SIZE, { fit: 'fill' })
    .normalise()
    .raw()
    .toBuffer();
  return laplacianVariance(
    new Uint8Array(grey.buffer, grey.byteOffset, grey.length),
    SHARPNESS_SAMPLE_SIZE,
    SHARPNESS_SAMPLE_SIZE,
  );
}

async function detectIn(input: faceapi.tf.Tensor3D): Promise<faceapi.FaceDetection[]> {
  return (await faceDetector.locateFaces(input, detectorOptions()))
    .filter((d) => d.score >= MIN_DETECTION_SCORE)
    .sort((a, b) => b.box.area - a.box.area);
}

/**
 * The faces of the photo, largest first. An out-of-focus face can be missed at the detector's
 * scale; shown smaller (the photo in the middle of a wider grey frame, which the detector shrinks
 * as a whole) its blur shrinks too and it is found. Its box is mapped back to the photo, so the
 * sharpness check then says the photo is blurry rather than that it has no face.
 */
async function detectFaces(
  input: faceapi.tf.Tensor3D,
  photo: DecodedPhoto,
): Promise<faceapi.FaceDetection[]> {
  const found = await detectIn(input);
  if (found.length > 0) return found;
  const width = photo.analysisWidth;
  const height = photo.analysisHeight;
  for (const frame of SMALLER_FACE_FRAMES) {
    const padX = Math.round((width * (frame - 1)) / 2);
    const padY = Math.round((height * (frame - 1)) / 2);
    const framed = faceapi.tf.pad(
      input,
      [
        [padY, padY],
        [padX, padX],
        [0, 0],
      ],
      128,
    );
    let detections: faceapi.FaceDetection[];
    try {
      detections = await detectIn(framed);
    } finally {
      framed.dispose();
    }
    const inPhoto = detections.flatMap((d) => {
      const left = Math.max(0, d.box.x - padX);
      const top = Math.max(0, d.box.y - padY);
      const right = Math.min(width, d.box.x + d.box.width - padX);
      const bottom = Math.min(height, d.box.y + d.box.height - padY);
      if (right - left < 3 || bottom - top < 3) return [];
      return [
        new faceapi.FaceDetection(
          d.score,
          new faceapi.Rect(
            left / width,
            top / height,
            (right - left) / width,
            (bottom - top) / height,
          ),
          { width, height },
        ),
      ];
    });
    if (inPhoto.length > 0) return inPhoto;
  }
  return [];
}

/** How much wider than the photo the grey frames are in which a missed face is looked for again. */
const SMALLER_FACE_FRAMES = [2, 3] as const;

async function analyzePhoto(file: string): Promise<PhotoAnalysis> {
  const photo = await decodePhoto(file);
  const input = photoTensor(photo);
  try {
    const detections = await detectFaces(input, photo);
    // Boxes back to full-resolution pixels of the displayed photo.
    const scaleX = photo.width / photo.analysisWidth;
    const scaleY = photo.height / photo.analysisHeight;
    const faces: FaceBox[] = detections.map((d) => ({
      x: round(d.box.x * scaleX),
      y: round(d.box.y * scaleY),
      width: round(d.box.width * scaleX),
      height: round(d.box.height * scaleY),
      score: round(d.score, 3),
    }));
    const main = detections[0];
    const mainFace = faces[0];
    if (!main || !mainFace) {
      return base(photo, faces, {
        largestFaceRatio: null,
        sharpness: null,
        descriptor: null,
        otherFaceDescriptors: [],
      });
    }
    // The largest faces are all described: the largest box may be a false one over the clothes,
    // and the same-person check then finds the person's face among the others (check-photo-set.ts).
    const descriptors: (number[] | null)[] = [];
    for (const [i, detection] of detections.slice(0, MAX_DESCRIBED_FACES).entries()) {
      const described = await describeFace(input, detection);
      descriptors.push(described ? Array.from(described.descriptor, (v) => round(v, 6)) : null);
      if (described) faces[i]!.landmarkSpan = round(described.landmarkSpan, 3);
    }
    return base(photo, faces, {
      largestFaceRatio: round(mainFace.height / photo.height, 4),
      sharpness: round(await faceSharpness(photo, main.box), 1),
      descriptor: descriptors[0] ?? null,
      otherFaceDescriptors: descriptors.slice(1),
    });
  } finally {
    input.dispose();
  }
}

/**
 * The identity descriptor of a detected face, aligned the way the model (dlib's ResNet) was trained
 * and mirror-symmetric. face-api alone cuts out the face box as it lies, so a head tilted a few
 * degrees, or the same photo turned or mirrored, is described noticeably differently: variants of
 * one portrait ended up flagged as someone else (bench/same-person.ts measures it). So:
 *  - the photo is turned about the eyes until they are level (dlib's face chip does the same), and
 *    the face is located again from landmarks found on the levelled photo;
 *  - the descriptors of that face and of its mirror image are averaged: a face and its mirror are
 *    the same person, and averaging the two views also halves the noise of either.
 * Null when the landmarks cannot be found. `landmarkSpan` says how well they fit (FaceBox).
 */
async function describeFace(
  input: faceapi.tf.Tensor3D,
  detection: faceapi.FaceDetection,
): Promise<{ descriptor: Float32Array; landmarkSpan: number } | null> {
  const found = await landmarksOf(input, detection);
  if (!found) return null;
  const left = centre(found.getLeftEye());
  const right = centre(found.getRightEye());
  const roll = Math.atan2(right.y - left.y, right.x - left.x);
  const [height, width] = input.shape;
  const { tf } = faceapi;
  const level = tf.tidy(() => {
    const batch = tf.cast(tf.expandDims(input, 0), 'float32') as faceapi.tf.Tensor4D;
    const turned = tf.image.rotateWithOffset(batch, roll, 0, [
      (left.x + right.x) / 2 / width,
      (left.y + right.y) / 2 / height,
    ]);
    return tf.reshape(turned, [height, width, 3]) as faceapi.tf.Tensor3D;
  });
  const chips: faceapi.tf.Tensor3D[] = [];
  try {
    // Turned about the eyes, the face barely moves: the detector's box still frames it.
    const levelled = await landmarksOf(level, detection);
    if (!levelled) return null;
    const aligned = levelled.align(null, { useDlibAlignment: true });
    chips.push(...(await faceapi.extractFaceTensors(level, [aligned])));
    const chip = chips[0];
    if (!chip) return null;
    chips.push(
      tf.tidy(
        () =>
          tf.reshape(
            tf.image.flipLeftRight(tf.expandDims(chip, 0) as faceapi.tf.Tensor4D),
            chip.shape,
          ) as faceapi.tf.Tensor3D,
      ),
    );
    const seen = (await faceapi.computeFaceDescriptor(chip)) as Float32Array;
    const mirrored = (await faceapi.computeFaceDescriptor(chips[1]!)) as Float32Array;
    return {
      descriptor: seen.map((value, i) => (value + mirrored[i]!) / 2),
      landmarkSpan: aligned.width / detection.box.width,
    };
  } finally {
    level.dispose();
    for (const chip of chips) chip.dispose();
  }
}

async function landmarksOf(
  input: faceapi.tf.Tensor3D,
  detection: faceapi.FaceDetection,
): Promise<faceapi.FaceLandmarks68 | undefined> {
  const found = await new faceapi.DetectSingleFaceLandmarksTask(
    Promise.resolve({ detection }),
    input,
    false,
  );
  return found?.landmarks;
}

function centre(points: faceapi.Point[]): { x: number; y: number } {
  const sum = points.reduce((acc, p) => ({ x: acc.x + p.x, y: acc.y + p.y }), { x: 0, y: 0 });
  return { x: sum.x / points.length, y: sum.y / points.length };
}

function base(
  photo: DecodedPhoto,
  faces: FaceBox[],
  rest: Pick<
    PhotoAnalysis,
    'largestFaceRatio' | 'sharpness' | 'descriptor' | 'otherFaceDescriptors'
  >,
): PhotoAnalysis {
  return {
    version: PHOTO_ANALYSIS_VERSION,
    width: photo.width,
    height: photo.height,
    faces,
    ...rest,
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
