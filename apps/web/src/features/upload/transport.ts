import { MESSAGES } from '@studioshot/contracts/messages';
import { ApiError, CLIENT_ERROR_CODES } from '../../lib/api-client';
import { abortError } from './upload-queue';

export interface MultipartRequest {
  url: string;
  file: Blob;
  filename: string;
  /** The multipart field name; the API reads `file`. */
  field?: string;
  token: string | null;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Fraction of the body sent, 0-1. */
  onProgress?: (fraction: number) => void;
}

export interface RawAnswer {
  status: number;
  ok: boolean;
  body: unknown;
}

/**
 * One multipart POST through XMLHttpRequest, which (unlike fetch) reports upload progress.
 * No answer rejects with an ApiError of status 0 (network or timeout); cancelling rejects with an
 * AbortError; any HTTP answer resolves, parsed as JSON when it is JSON.
 */
export function sendMultipart(request: MultipartRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    form.append(request.field ?? 'file', request.file, request.filename);

    const onAbortSignal = () => xhr.abort();
    const cleanup = () => request.signal?.removeEventListener('abort', onAbortSignal);

    xhr.open('POST', request.url);
    xhr.timeout = request.timeoutMs;
    xhr.setRequestHeader('Accept', 'application/json');
    if (request.token) xhr.setRequestHeader('Authorization', `Bearer ${request.token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        request.onProgress?.(event.loaded / event.total);
      }
    };
    xhr.onload = () => {
      cleanup();
      let body: unknown = undefined;
      const text = typeof xhr.responseText === 'string' ? xhr.responseText : '';
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      if (xhr.status >= 200 && xhr.status < 300) request.onProgress?.(1);
      resolve({ status: xhr.status, ok: xhr.status >= 200 && xhr.status < 300, body });
    };
    xhr.onerror = () => {
      cleanup();
      reject(
        new ApiError({ status: 0, code: CLIENT_ERROR_CODES.network, detail: MESSAGES.network }),
      );
    };
    xhr.ontimeout = () => {
      cleanup();
      reject(
        new ApiError({ status: 0, code: CLIENT_ERROR_CODES.timeout, detail: MESSAGES.network }),
      );
    };
    xhr.onabort = () => {
      cleanup();
      reject(abortError());
    };
    request.signal?.addEventListener('abort', onAbortSignal, { once: true });
    xhr.send(form);
  });
}
