import {
  MESSAGES,
  ZCompleteUploadResponseSchema,
  ZCreateUploadSessionResponseSchema,
  ZUploadedPhotoSchema,
  ZUploadSessionStatusSchema,
  ZUserSchema,
  type UploadedPhoto,
  type UploadSessionStatus,
  type User,
} from '@studioshot/contracts';
import type { z } from 'zod';
import { api } from '../../lib/api';
import { ApiError, CLIENT_ERROR_CODES } from '../../lib/api-client';
import { appStorage, STORAGE_KEYS, type KeyValueStorage } from '../../lib/storage';
import { UPLOAD_TIMEOUT_MS } from './constants';
import { sendMultipart, type MultipartRequest, type RawAnswer } from './transport';
import { isRecord } from '../../lib/is-record';

export type { UploadedPhoto, UploadSessionStatus };

/**
 * The upload calls of docs/spec/calls.md#73-upload and the profile update of
 * docs/spec/calls.md#72-profile, answers checked.
 */

/** The photo upload's own transport (it reports progress) parses its answer here. */
function parseOr<T>(schema: z.ZodType<T>, body: unknown, failure: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({ status: 0, code: CLIENT_ERROR_CODES.invalidResponse, detail: failure });
  }
  return parsed.data;
}

export async function createUploadSession(
  expectedFiles: number,
): Promise<{ session_id: string; expires_at: string }> {
  return api.post(
    '/api/v1/upload/create-session',
    { expected_files: expectedFiles, session_type: 'training' },
    { schema: ZCreateUploadSessionResponseSchema, invalid: MESSAGES.sessionCreateFailed },
  );
}

export async function fetchSessionStatus(
  sessionId: string,
  signal?: AbortSignal,
): Promise<UploadSessionStatus> {
  return api.get(`/api/v1/upload/session/${encodeURIComponent(sessionId)}/status`, {
    signal,
    schema: ZUploadSessionStatusSchema,
    invalid: MESSAGES.sessionStatusFailed,
  });
}

export async function completeUploadSession(
  sessionId: string,
): Promise<{ uploaded_files: number; usable_files: number; message: string }> {
  return api.post(`/api/v1/upload/complete/${encodeURIComponent(sessionId)}`, undefined, {
    schema: ZCompleteUploadResponseSchema,
    invalid: MESSAGES.sessionCompleteFailed,
  });
}

export async function deleteUploadedPhoto(photoId: string): Promise<void> {
  // 204: no body to parse.
  await api.delete(`/api/v1/upload/photos/${encodeURIComponent(photoId)}`);
}

/** "This is me": overrules the same-person check on one flagged photo; answers the photo. */
export async function confirmSamePerson(photoId: string): Promise<UploadedPhoto> {
  return api.post(
    `/api/v1/upload/photos/${encodeURIComponent(photoId)}/confirm-same-person`,
    undefined,
    { schema: ZUploadedPhotoSchema, invalid: CONFIRM_FAILED },
  );
}

export const CONFIRM_FAILED = 'Could not confirm this photo. Please try again.';

export async function updateProfile(changes: {
  gender: 'male' | 'female';
  age: number | null;
}): Promise<User> {
  return api.patch('/api/v1/users/profile', changes, {
    schema: ZUserSchema,
    invalid: MESSAGES.profileUpdateFailed,
  });
}

function answerError(answer: RawAnswer): ApiError {
  const body = isRecord(answer.body) ? answer.body : {};
  return new ApiError({
    status: answer.status,
    code: typeof body.code === 'string' ? body.code : `http_${answer.status}`,
    detail:
      typeof body.detail === 'string' && body.detail.trim()
        ? body.detail
        : answer.status === 413
          ? MESSAGES.fileTooLarge
          : undefined,
    body: answer.body,
  });
}

export interface PhotoUploaderDeps {
  baseUrl?: string;
  storage?: KeyValueStorage;
  send?: (request: MultipartRequest) => Promise<RawAnswer>;
  /** Renews the session; the app's single-flight refresh by default. */
  refresh?: () => Promise<string>;
}

/**
 * Uploads one photo as multipart field `file` with the 60 s timeout. A 401 is answered like every
 * other call's: one shared refresh, then one replay with the new token.
 */
export function createPhotoUploader(deps: PhotoUploaderDeps = {}) {
  const baseUrl = (deps.baseUrl ?? import.meta.env.VITE_API_BASE ?? '').replace(/\/+$/, '');
  const storage = deps.storage ?? appStorage;
  const send = deps.send ?? sendMultipart;
  const refresh = deps.refresh ?? (() => api.refreshSession());

  return async function uploadPhoto(
    sessionId: string,
    file: File,
    options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
  ): Promise<UploadedPhoto> {
    const attempt = (token: string | null) =>
      send({
        url: `${baseUrl}/api/v1/upload/file/${encodeURIComponent(sessionId)}`,
        file,
        filename: file.name,
        token,
        timeoutMs: UPLOAD_TIMEOUT_MS,
        signal: options.signal,
        onProgress: options.onProgress,
      });
    const firstToken = storage.getItem(STORAGE_KEYS.accessToken);
    if (!firstToken) {
      throw new ApiError({ status: 401, code: 'unauthorized', detail: MESSAGES.authRequired });
    }
    let answer = await attempt(firstToken);
    if (answer.status === 401) {
      // Another call may have renewed the session while this file was on its way.
      const current = storage.getItem(STORAGE_KEYS.accessToken);
      const token = current && current !== firstToken ? current : await refresh();
      answer = await attempt(token);
    }
    if (!answer.ok) throw answerError(answer);
    return parseOr(ZUploadedPhotoSchema, answer.body, MESSAGES.uploadFailed);
  };
}

export const uploadPhoto = createPhotoUploader();
