import { z } from 'zod';

/**
 * Bump when the analysis changes meaning (model, scale, sharpness recipe): stored facts are then
 * stale. 2: the descriptor is of the levelled face and its mirror image (analyze-photo.ts). 3: the
 * faces after the largest are described too (`otherFaceDescriptors`). 4: each described face's
 * `landmarkSpan`.
 */
export const PHOTO_ANALYSIS_VERSION = 4;

const ZDescriptorSchema = z.array(z.number()).length(128);

/** A detected face, in pixels of the photo as displayed (after EXIF orientation). */
export const ZFaceBoxSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number().positive(),
  height: z.number().positive(),
  /** Detector confidence, 0..1. */
  score: z.number().min(0).max(1),
  /**
   * Described faces only: the width of the frame the landmarks align the face to, over the box's
   * width. Landmarks that fit a face give 0.8-1.6; on a face seen from above or in profile they can
   * collapse onto one eye (0.3-0.78), and its descriptor is then of an eyelid.
   */
  landmarkSpan: z.number().positive().optional(),
});
export type FaceBox = z.infer<typeof ZFaceBoxSchema>;

/**
 * The facts measured on one photo by `analyzePhoto`. Plain JSON (the descriptor is a number array),
 * so a job can store it per photo and `checkPhotoSet` can judge the whole set later from storage.
 */
export const ZPhotoAnalysisSchema = z.object({
  version: z.literal(PHOTO_ANALYSIS_VERSION),
  /** Size of the photo as displayed (EXIF orientation applied), in pixels. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Every face the detector is confident about, largest first. `faces[0]` is the main face. */
  faces: z.array(ZFaceBoxSchema),
  /** Main face height / photo height; null without a face. */
  largestFaceRatio: z.number().min(0).nullable(),
  /**
   * Variance of the Laplacian over the main face, resampled to a fixed size in normalised
   * greyscale (see sharpness.ts); null without a face.
   */
  sharpness: z.number().min(0).nullable(),
  /** 128-d face descriptor of the main face (euclidean space, same person < ~0.6); null without a face. */
  descriptor: ZDescriptorSchema.nullable(),
  /**
   * Descriptors of `faces[1]`, `faces[2]`, … (at most MAX_DESCRIBED_FACES - 1 of them), null where
   * that face's landmarks were not found. The largest box is not always the person: on a mirrored,
   * turned and cropped photo the detector can frame the clothes below the face, bigger than the face.
   */
  otherFaceDescriptors: z.array(ZDescriptorSchema.nullable()),
});
export type PhotoAnalysis = z.infer<typeof ZPhotoAnalysisSchema>;
