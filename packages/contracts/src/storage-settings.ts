import { z } from 'zod';

/** A setting that is on or off: true, false, 1 or 0. */
const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * Where photos and images are kept: the settings the API and the worker both read (and the
 * migrate CLI before the rest of the API's configuration), one definition for all three. Not in
 * the package's index: the web app has no use for them.
 */
export const STORAGE_SETTINGS = {
  /** A local directory (default) or an S3 bucket. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  /** Root of the local driver; `<repo>/.local/storage` when unset. */
  STORAGE_DIR: z.string().optional(),
  /** S3 driver; credentials come from the standard AWS_* variables (the SDK's default chain). */
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  /** An S3-compatible endpoint (MinIO, R2, a local test server); AWS itself when unset. */
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
};
export const ZStorageSettingsSchema = z.object(STORAGE_SETTINGS);
export type StorageSettings = z.infer<typeof ZStorageSettingsSchema>;
