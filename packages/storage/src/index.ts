import type { StorageSettings } from '@studioshot/contracts/storage-settings';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

export { LocalStorage } from './local-storage.js';
export { S3Storage, type S3StorageConfig } from './s3-storage.js';
export {
  exportKey,
  generationImageKey,
  generationPrefix,
  InvalidKeyPartError,
  isUserKey,
  LEGACY_PREFIXES,
  legacyKeyToUserKey,
  modelArtifactKey,
  modelPrefix,
  photoKeys,
  photoSetPrefix,
  userPrefix,
  type PhotoKeys,
} from './keys.js';
export {
  assertValidKey,
  assertValidPrefix,
  InvalidStorageKeyError,
  MAX_KEY_LENGTH,
  ObjectNotFoundError,
  type ListedObject,
  type LocalFile,
  type PutOptions,
  type Storage,
  type StoredObject,
} from './storage.js';

/**
 * `<repo>/.local/storage`: the workspace root is found by walking up from this module (source
 * or bundle) to `pnpm-workspace.yaml`; outside a checkout, `./.local/storage` under the working
 * directory. Deployments set STORAGE_DIR (or use S3).
 */
export function defaultStorageDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return path.join(dir, '.local/storage');
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('.local/storage');
    dir = parent;
  }
}

/** The configured storage driver: `local` (default) or `s3`. */
export function createStorage(env: StorageSettings): Storage {
  if (env.STORAGE_DRIVER === 's3') {
    if (!env.S3_BUCKET) throw new Error('S3_BUCKET is required when STORAGE_DRIVER=s3');
    return new S3Storage({
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalStorage(env.STORAGE_DIR ?? defaultStorageDir());
}
