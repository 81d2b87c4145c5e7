/**
 * Upload constants of docs/spec/constants.md (Timing, Photos); the photo limits come from
 * contracts.
 */
export {
  ACCEPTED_PHOTO_TYPES,
  MAX_PHOTO_BYTES,
  MAX_PHOTOS,
  MIN_PHOTOS,
  RECOMMENDED_MIN_PX,
} from '@studioshot/contracts';

/** Optimisation: fit within 1024x1024, re-encoded as JPEG. */
export const OPTIMIZE_MAX_SIDE = 1024;
export const OPTIMIZE_QUALITY = 0.85;
export const OPTIMIZE_QUALITY_MOBILE = 0.8;
/** Files under this size are uploaded as they are. */
export const OPTIMIZE_SKIP_BYTES = 800 * 1024;
export const OPTIMIZE_SKIP_BYTES_MOBILE = 600 * 1024;
export const OPTIMIZED_SUFFIX = '_optimized';

/** One file upload may take up to 60 s. */
export const UPLOAD_TIMEOUT_MS = 60_000;
/** Attempts per file, and the waits before the second and third. */
export const UPLOAD_MAX_ATTEMPTS = 3;
export const UPLOAD_RETRY_DELAYS_MS = [1000, 2000] as const;

/** Photo checks finish within seconds: poll the session while any is pending. */
export const CHECKS_POLL_MS = 1500;

/** The profile setup form (product spec, section 5). */
export const MIN_AGE = 18;
export const MAX_AGE = 100;
