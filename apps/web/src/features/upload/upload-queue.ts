import { MESSAGES } from '@studioshot/contracts/messages';
import { ApiError, CLIENT_ERROR_CODES, errorMessage } from '../../lib/api-client';
import { UPLOAD_MAX_ATTEMPTS, UPLOAD_RETRY_DELAYS_MS } from './constants';

/** Upload progress (product spec, section 3). */
export type UploadStatus = 'uploading' | 'completed' | 'failed' | 'paused';

export interface UploadFileError {
  filename: string;
  error: string;
  /** Attempts made for the file before it was given up (the spec's "upload retries 3"). */
  retryCount: number;
  /**
   * The server refused this file for good (a 4xx that is neither a timeout nor rate limiting,
   * and not one that dooms the whole session): sending it again cannot succeed.
   */
  refused: boolean;
}

export interface UploadProgress {
  sessionId: string;
  totalFiles: number;
  uploadedFiles: number;
  failedFiles: number;
  /** Whole-queue progress, 0-100, counting the part of the current file already sent. */
  progress: number;
  status: UploadStatus;
  currentFile: string | null;
  /** How much of the current file has been sent, 0-100. */
  currentFileProgress: number;
  errors: UploadFileError[];
}

export interface UploadResult extends UploadProgress {
  status: 'completed' | 'failed';
  /** The run was cancelled; files not yet sent were left alone. */
  cancelled: boolean;
  /** A failure that ended the run early (an expired session, say). */
  fatalError: string | null;
}

export interface QueueItem {
  key: string;
  file: File;
  /** Shown in progress and errors; defaults to the file's name. */
  filename?: string;
}

export interface UploadQueueOptions<R> {
  sessionId: string;
  items: readonly QueueItem[];
  upload: (
    file: File,
    context: { signal: AbortSignal; onProgress: (fraction: number) => void },
  ) => Promise<R>;
  signal?: AbortSignal;
  /** Waits between attempts; injectable for tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Offline handling: the queue pauses until the connection is back. */
  isOnline?: () => boolean;
  waitUntilOnline?: (signal: AbortSignal) => Promise<void>;
  maxAttempts?: number;
  retryDelaysMs?: readonly number[];
  onProgress?: (progress: UploadProgress) => void;
  onFileStart?: (item: QueueItem) => void;
  onFileProgress?: (item: QueueItem, percent: number) => void;
  onFileUploaded?: (item: QueueItem, result: R) => void;
  onFileFailed?: (item: QueueItem, error: UploadFileError) => void;
}

/** Status is completed when nothing failed or at least one file went up; else failed. */
export function overallStatus(uploadedFiles: number, errorCount: number): 'completed' | 'failed' {
  return errorCount === 0 || uploadedFiles > 0 ? 'completed' : 'failed';
}

/** Errors another attempt might fix: no answer, a timeout, rate limiting, a server fault. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return !isAbort(error);
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** Errors that doom every later file too: the session is gone, expired or no longer ours. */
export function isFatal(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return (
    error.code === CLIENT_ERROR_CODES.sessionExpired ||
    error.status === 401 ||
    error.status === 410 ||
    (error.status === 404 && error.detail === MESSAGES.sessionNotFound) ||
    (error.status === 409 && error.detail === MESSAGES.sessionAlreadyComplete)
  );
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function abortError(): DOMException {
  return new DOMException(MESSAGES.uploadCancelled, 'AbortError');
}

export function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function browserIsOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

function browserWaitUntilOnline(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const done = () => {
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      window.removeEventListener('online', done);
      reject(abortError());
    };
    window.addEventListener('online', done);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends files one after another (docs/spec/calls.md#73-upload). A failed file is tried up to 3
 * times, waiting
 * 1 s then 2 s; errors that another try cannot fix (a refused type, a duplicate) are not retried
 * and are marked refused.
 * A file given up is listed with its filename, error and attempts, and the queue moves on.
 */
export async function runUploadQueue<R>(options: UploadQueueOptions<R>): Promise<UploadResult> {
  const sleep = options.sleep ?? defaultSleep;
  const isOnline = options.isOnline ?? browserIsOnline;
  const waitUntilOnline = options.waitUntilOnline ?? browserWaitUntilOnline;
  const maxAttempts = options.maxAttempts ?? UPLOAD_MAX_ATTEMPTS;
  const delays = options.retryDelaysMs ?? UPLOAD_RETRY_DELAYS_MS;
  const controller = new AbortController();
  const forwardAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', forwardAbort, { once: true });
  const signal = controller.signal;

  const total = options.items.length;
  const state: UploadProgress = {
    sessionId: options.sessionId,
    totalFiles: total,
    uploadedFiles: 0,
    failedFiles: 0,
    progress: 0,
    status: 'uploading',
    currentFile: null,
    currentFileProgress: 0,
    errors: [],
  };
  const publish = (changes: Partial<UploadProgress>) => {
    Object.assign(state, changes);
    const finished = state.uploadedFiles + state.failedFiles;
    const partial = state.currentFile ? state.currentFileProgress / 100 : 0;
    state.progress = total === 0 ? 100 : Math.min(100, ((finished + partial) / total) * 100);
    options.onProgress?.({ ...state, errors: [...state.errors] });
  };

  let cancelled = false;
  let fatalError: string | null = null;

  const fail = (item: QueueItem, error: string, attempts: number, refused = false) => {
    const entry: UploadFileError = {
      filename: item.filename ?? item.file.name,
      error,
      retryCount: attempts,
      refused,
    };
    state.errors.push(entry);
    options.onFileFailed?.(item, entry);
    publish({ failedFiles: state.failedFiles + 1, currentFile: null, currentFileProgress: 0 });
  };

  try {
    publish({});
    for (const item of options.items) {
      const filename = item.filename ?? item.file.name;
      if (fatalError) {
        fail(item, fatalError, 0);
        continue;
      }
      options.onFileStart?.(item);
      for (let attempt = 1; ; attempt++) {
        if (!isOnline()) {
          publish({ status: 'paused', currentFile: filename, currentFileProgress: 0 });
          await waitUntilOnline(signal);
        }
        publish({ status: 'uploading', currentFile: filename, currentFileProgress: 0 });
        try {
          const result = await options.upload(item.file, {
            signal,
            onProgress: (fraction) => {
              const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
              options.onFileProgress?.(item, percent);
              publish({ currentFileProgress: percent });
            },
          });
          options.onFileUploaded?.(item, result);
          publish({
            uploadedFiles: state.uploadedFiles + 1,
            currentFile: null,
            currentFileProgress: 0,
          });
          break;
        } catch (error) {
          if (signal.aborted || isAbort(error)) throw abortError();
          const message = errorMessage(error, MESSAGES.uploadFailed);
          if (isFatal(error)) {
            fatalError = message;
            fail(item, message, attempt);
            break;
          }
          if (!isRetryable(error)) {
            fail(item, message, attempt, true);
            break;
          }
          if (attempt >= maxAttempts) {
            fail(item, message, attempt);
            break;
          }
          publish({ currentFileProgress: 0 });
          await sleep(delays[attempt - 1] ?? delays[delays.length - 1] ?? 0, signal);
        }
      }
    }
  } catch (error) {
    if (!isAbort(error) && !signal.aborted) throw error;
    cancelled = true;
  } finally {
    options.signal?.removeEventListener('abort', forwardAbort);
  }

  const status = overallStatus(state.uploadedFiles, state.errors.length);
  publish({ status, currentFile: null, currentFileProgress: 0 });
  return { ...state, errors: [...state.errors], status, cancelled, fatalError };
}

/** Holds the one upload that may run at a time ('Upload already in progress'). */
export class UploadRunner {
  private controller: AbortController | null = null;

  get running(): boolean {
    return this.controller !== null;
  }

  async run<R>(options: Omit<UploadQueueOptions<R>, 'signal'>): Promise<UploadResult> {
    if (this.controller) throw new Error(MESSAGES.uploadInProgress);
    const controller = new AbortController();
    this.controller = controller;
    try {
      return await runUploadQueue({ ...options, signal: controller.signal });
    } finally {
      this.controller = null;
    }
  }

  cancel(): void {
    this.controller?.abort();
  }
}
