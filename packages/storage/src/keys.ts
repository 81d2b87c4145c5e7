import { assertValidKey, InvalidStorageKeyError } from './storage.js';

// The one place storage keys are made. Everything that belongs to a person lives under
// `users/{user_id}/`, so deleting a person is deleting one prefix (`Storage.deletePrefix`).
//
//   users/{user}/photos/{session}/{photo}/original.{ext} | optimized.jpg | thumbnail.jpg
//   users/{user}/models/{model}/{file}                     (model.npz, preview.jpg, ...)
//   users/{user}/generations/{generation}/{file}
//   users/{user}/exports/{export}.zip

/** Ids are server-made (UUIDs in practice): letters, digits and `-`, at most 64 characters. */
const ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
/** One safe path segment: starts with a letter or digit, then letters, digits, `.`, `_`, `-`. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const EXTENSION = /^[a-z0-9]{1,10}$/;

export class InvalidKeyPartError extends InvalidStorageKeyError {
  override name = 'InvalidKeyPartError';
  constructor(what: string, value: unknown, reason: string) {
    super(String(value), `the ${what} ${reason}`);
  }
}

function id(what: string, value: string): string {
  if (typeof value !== 'string' || !ID.test(value)) {
    throw new InvalidKeyPartError(
      what,
      value,
      'must be an id: letters, digits and "-", starting with a letter or digit, at most 64 characters',
    );
  }
  return value;
}

function fileName(value: string): string {
  if (typeof value !== 'string' || !FILE_NAME.test(value) || value.includes('..')) {
    throw new InvalidKeyPartError(
      'file name',
      value,
      'must be one segment: letters, digits, ".", "_" and "-", starting with a letter or digit, no "..", at most 128 characters',
    );
  }
  return value;
}

function checked(key: string): string {
  assertValidKey(key);
  return key;
}

/** `users/{userId}/`: every object of this person, and nothing else, starts with it. */
export function userPrefix(userId: string): string {
  return `users/${id('user id', userId)}/`;
}

export interface PhotoKeys {
  original: string;
  optimized: string;
  thumbnail: string;
}

/**
 * The three objects of one uploaded photo: the original as uploaded (`original.{ext}`, its
 * extension from the detected type, `jpg` by default), the optimised 1024 px JPEG and the
 * thumbnail, under `users/{u}/photos/{session}/{photo}/`.
 */
export function photoKeys(
  userId: string,
  sessionId: string,
  photoId: string,
  originalExtension = 'jpg',
): PhotoKeys {
  if (typeof originalExtension !== 'string' || !EXTENSION.test(originalExtension)) {
    throw new InvalidKeyPartError(
      'extension',
      originalExtension,
      'must be 1 to 10 lowercase letters or digits',
    );
  }
  const base = `${photoSetPrefix(userId, sessionId)}${id('photo id', photoId)}`;
  return {
    original: checked(`${base}/original.${originalExtension}`),
    optimized: checked(`${base}/optimized.jpg`),
    thumbnail: checked(`${base}/thumbnail.jpg`),
  };
}

/** `users/{u}/photos/{sessionId}/`: every file of one upload session's photos. */
export function photoSetPrefix(userId: string, sessionId: string): string {
  return `${userPrefix(userId)}photos/${id('session id', sessionId)}/`;
}

/** `users/{u}/models/{modelId}/`: every file of one model (artifact, preview, checkpoint). */
export function modelPrefix(userId: string, modelId: string): string {
  return `${userPrefix(userId)}models/${id('model id', modelId)}/`;
}

/** `users/{u}/generations/{generationId}/`: a generation's images and thumbnails. */
export function generationPrefix(userId: string, generationId: string): string {
  return `${userPrefix(userId)}generations/${id('generation id', generationId)}/`;
}

/** `users/{u}/models/{modelId}/{fileName}`, e.g. `model.npz`, `preview.jpg`. */
export function modelArtifactKey(userId: string, modelId: string, file: string): string {
  return checked(`${modelPrefix(userId, modelId)}${fileName(file)}`);
}

/** `users/{u}/generations/{generationId}/{fileName}`. */
export function generationImageKey(userId: string, generationId: string, file: string): string {
  return checked(`${generationPrefix(userId, generationId)}${fileName(file)}`);
}

/** `users/{u}/exports/{exportId}.zip`. */
export function exportKey(userId: string, exportId: string): string {
  return checked(`${userPrefix(userId)}exports/${id('export id', exportId)}.zip`);
}

/** Whether a key is already in the per-person layout. */
export function isUserKey(key: string): boolean {
  return key.startsWith('users/');
}

/**
 * Where an object of the layout before `users/{u}/` now lives: `photos/{u}/{session}/{photo}/{file}`
 * and `models/{u}/{model}/{file}` move under `users/{u}/`, file names kept. Null for a key of
 * neither shape (including keys already under `users/`).
 */
export function legacyKeyToUserKey(key: string): string | null {
  const parts = key.split('/');
  try {
    if (parts[0] === 'photos' && parts.length === 5) {
      const [, user, session, photo, file] = parts as [string, string, string, string, string];
      return checked(
        `${userPrefix(user)}photos/${id('session id', session)}/${id('photo id', photo)}/${fileName(file)}`,
      );
    }
    if (parts[0] === 'models' && parts.length === 4) {
      const [, user, model, file] = parts as [string, string, string, string];
      return modelArtifactKey(user, model, file);
    }
  } catch (error) {
    if (error instanceof InvalidStorageKeyError) return null;
    throw error;
  }
  return null;
}

/** The prefixes of the layout before `users/{u}/`. */
export const LEGACY_PREFIXES = ['photos/', 'models/'] as const;
