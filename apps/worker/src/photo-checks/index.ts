/**
 * Photo checks: is each uploaded photo fit to train on? Run by a worker job, never in the API.
 *
 *   const analyzer = await createPhotoAnalyzer();           // once per process (models, WASM)
 *   const analysis = await analyzer.analyzePhoto(file);     // per photo, as it arrives; store it
 *   const verdicts = checkPhotoSet(storedAnalysesOfTheSet); // pure; re-run for the whole set
 */
export { createPhotoAnalyzer, PhotoUnreadableError, type PhotoAnalyzer } from './analyze-photo.js';
export {
  checkPhotoSet,
  countUsable,
  euclideanDistance,
  faceDescriptor,
  faceIsComparable,
  identityFaces,
  PHOTO_ADVICE,
} from './check-photo-set.js';
export * from './thresholds.js';
export * from './types.js';
