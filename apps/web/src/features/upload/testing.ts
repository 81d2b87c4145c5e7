import { vi } from 'vitest';

/** What a fake upload answers: a status and a JSON body, or a network failure. */
export type FakeUploadAnswer = [number, unknown] | 'network-error' | 'timeout' | 'hang';

export interface SentUpload {
  url: string;
  headers: Record<string, string>;
  file: File | null;
  timeout: number;
}

/**
 * Replaces XMLHttpRequest with a fake that answers each multipart upload through `answer`,
 * reporting upload progress at half and at the end.
 */
export function stubUploads(
  answer: (sent: SentUpload) => FakeUploadAnswer | Promise<FakeUploadAnswer>,
) {
  const sent: SentUpload[] = [];

  class FakeXMLHttpRequest {
    status = 0;
    responseText = '';
    timeout = 0;
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private url = '';
    private headers: Record<string, string> = {};
    private aborted = false;

    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    abort() {
      if (this.aborted) return;
      this.aborted = true;
      this.onabort?.();
    }
    send(body: FormData) {
      const request: SentUpload = {
        url: this.url,
        headers: this.headers,
        file: body.get('file') as File | null,
        timeout: this.timeout,
      };
      sent.push(request);
      void (async () => {
        const reply = await answer(request);
        if (this.aborted || reply === 'hang') return;
        const total = request.file?.size ?? 1;
        this.upload.onprogress?.({
          lengthComputable: true,
          loaded: total / 2,
          total,
        } as ProgressEvent);
        await Promise.resolve();
        if (this.aborted) return;
        if (reply === 'network-error') return this.onerror?.();
        if (reply === 'timeout') return this.ontimeout?.();
        this.upload.onprogress?.({ lengthComputable: true, loaded: total, total } as ProgressEvent);
        this.status = reply[0];
        this.responseText = reply[1] === undefined ? '' : JSON.stringify(reply[1]);
        this.onload?.();
      })();
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  return sent;
}

/** An UploadedPhoto as the API returns it. */
export function uploadedPhoto(
  n: number,
  overrides: Partial<{
    filename: string;
    check_status: 'pending' | 'done' | 'failed';
    usable: boolean | null;
    checks: { id: string; ok: boolean | null; message: string }[];
    advice: string[];
    same_person_confirmed_at: string | null;
  }> = {},
) {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    filename: `photo-${n}.jpg`,
    width: 512,
    height: 512,
    size_bytes: 40_000,
    thumbnail_url: `/api/v1/upload/photos/${id}/thumbnail?token=t${n}`,
    check_status: 'pending' as const,
    usable: null,
    checks: [],
    advice: [],
    same_person_confirmed_at: null,
    created_at: '2026-11-22T12:00:00.000Z',
    ...overrides,
  };
}

export const PASSING_CHECKS = [
  { id: 'face_found', ok: true, message: 'Face found' },
  { id: 'single_face', ok: true, message: 'Only one face' },
  { id: 'face_size', ok: true, message: 'Face is large enough' },
  { id: 'sharpness', ok: true, message: 'Sharp' },
  { id: 'resolution', ok: true, message: 'Resolution 512×512 px' },
  { id: 'same_person', ok: true, message: 'Matches your other photos' },
];

export const BLURRY_CHECKS = PASSING_CHECKS.map((check) =>
  check.id === 'sharpness' ? { ...check, ok: false, message: 'Blurry' } : check,
);

export const BLURRY_ADVICE =
  'This photo looks blurry. Use a sharp, in-focus photo: hold the camera steady and use good light.';

/** The checks of a photo the same-person check flagged, and nothing else. */
export const STRANGER_CHECKS = PASSING_CHECKS.map((check) =>
  check.id === 'same_person'
    ? { ...check, ok: false, message: 'Matches 2 of your 9 other photos' }
    : check,
);
