import { MESSAGES } from '@studioshot/contracts/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import {
  defaultSleep,
  isFatal,
  isRetryable,
  overallStatus,
  runUploadQueue,
  UploadRunner,
  type QueueItem,
  type UploadProgress,
} from './upload-queue';

const items = (...names: string[]): QueueItem[] =>
  names.map((name) => ({ key: name, file: new File(['x'], name, { type: 'image/jpeg' }) }));

const networkError = () => new ApiError({ status: 0, code: 'network_error', detail: 'offline' });
const httpError = (status: number, detail: string) =>
  new ApiError({ status, code: `http_${status}`, detail });

/** Records the waits instead of waiting. */
function recordingSleep() {
  const waits: number[] = [];
  const sleep = vi.fn(async (ms: number) => {
    waits.push(ms);
  });
  return { waits, sleep };
}

describe('overall upload status', () => {
  it('is completed with no errors or at least one upload, else failed', () => {
    expect(overallStatus(0, 0)).toBe('completed');
    expect(overallStatus(3, 0)).toBe('completed');
    expect(overallStatus(1, 4)).toBe('completed');
    expect(overallStatus(0, 2)).toBe('failed');
  });
});

describe('error classification', () => {
  it('retries no answer, timeouts, rate limits and server faults only', () => {
    expect(isRetryable(networkError())).toBe(true);
    expect(isRetryable(httpError(500, 'x'))).toBe(true);
    expect(isRetryable(httpError(503, 'x'))).toBe(true);
    expect(isRetryable(httpError(429, 'x'))).toBe(true);
    expect(isRetryable(new TypeError('boom'))).toBe(true);
    expect(isRetryable(httpError(415, MESSAGES.invalidFileType))).toBe(false);
    expect(isRetryable(httpError(409, MESSAGES.duplicatePhoto))).toBe(false);
    expect(isRetryable(new DOMException('x', 'AbortError'))).toBe(false);
  });

  it('stops the queue when the session is expired, missing or closed', () => {
    expect(isFatal(httpError(410, MESSAGES.sessionExpired))).toBe(true);
    expect(isFatal(httpError(404, MESSAGES.sessionNotFound))).toBe(true);
    expect(isFatal(httpError(409, MESSAGES.sessionAlreadyComplete))).toBe(true);
    expect(isFatal(httpError(401, MESSAGES.authRequired))).toBe(true);
    expect(isFatal(httpError(409, MESSAGES.duplicatePhoto))).toBe(false);
    expect(isFatal(httpError(413, MESSAGES.fileTooLarge))).toBe(false);
  });
});

describe('upload queue', () => {
  it('uploads one file after another, never two at once', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const order: string[] = [];
    const result = await runUploadQueue({
      sessionId: 's1',
      items: items('a.jpg', 'b.jpg', 'c.jpg'),
      upload: async (file, { onProgress }) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        order.push(file.name);
        onProgress(0.5);
        await Promise.resolve();
        inFlight -= 1;
        return file.name;
      },
    });
    expect(order).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    expect(maxInFlight).toBe(1);
    expect(result).toMatchObject({
      sessionId: 's1',
      totalFiles: 3,
      uploadedFiles: 3,
      failedFiles: 0,
      progress: 100,
      status: 'completed',
      currentFile: null,
      errors: [],
      cancelled: false,
    });
  });

  it('tries a failing file 3 times, waiting 1 s then 2 s, then lists it and moves on', async () => {
    const { waits, sleep } = recordingSleep();
    const attempts: Record<string, number> = {};
    const failed = vi.fn();
    const result = await runUploadQueue({
      sessionId: 's1',
      items: items('flaky.jpg', 'bad.jpg', 'ok.jpg'),
      sleep,
      upload: async (file) => {
        attempts[file.name] = (attempts[file.name] ?? 0) + 1;
        if (file.name === 'flaky.jpg' && attempts[file.name]! < 3) throw networkError();
        if (file.name === 'bad.jpg') throw httpError(503, 'Service unavailable');
        return file.name;
      },
      onFileFailed: failed,
    });
    expect(attempts).toEqual({ 'flaky.jpg': 3, 'bad.jpg': 3, 'ok.jpg': 1 });
    expect(waits).toEqual([1000, 2000, 1000, 2000]);
    expect(result.errors).toEqual([
      { filename: 'bad.jpg', error: 'Service unavailable', retryCount: 3, refused: false },
    ]);
    expect(failed).toHaveBeenCalledWith(
      expect.objectContaining({ key: 'bad.jpg' }),
      result.errors[0],
    );
    expect(result).toMatchObject({ uploadedFiles: 2, failedFiles: 1, status: 'completed' });
  });

  it('waits 1 s then 2 s on the real clock', async () => {
    vi.useFakeTimers();
    try {
      const calls: number[] = [];
      const run = runUploadQueue({
        sessionId: 's1',
        items: items('a.jpg'),
        upload: async () => {
          calls.push(Date.now());
          throw networkError();
        },
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1999);
      expect(calls).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(3);
      const result = await run;
      expect(result.status).toBe('failed');
      expect(result.errors).toEqual([
        { filename: 'a.jpg', error: 'offline', retryCount: 3, refused: false },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not retry what another try cannot fix, and uses the server message', async () => {
    const { sleep } = recordingSleep();
    const upload = vi.fn(async (file: File) => {
      if (file.name === 'dup.jpg') throw httpError(409, MESSAGES.duplicatePhoto);
      throw new Error('unreadable answer');
    });
    const result = await runUploadQueue({
      sessionId: 's1',
      items: items('dup.jpg'),
      sleep,
      upload,
    });
    expect(upload).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
    expect(result.errors).toEqual([
      {
        filename: 'dup.jpg',
        error: 'This photo is already in your set.',
        retryCount: 1,
        refused: true,
      },
    ]);
    expect(result.status).toBe('failed');
  });

  it.each([
    [400, 'The file is not a readable image.', true],
    [413, 'File too large (max 50MB)', true],
    [415, 'Invalid file type. Only JPEG, PNG, and WebP are allowed.', true],
    [422, 'The image has too many pixels.', true],
    [408, 'Request timeout', false],
    [429, 'Too many requests', false],
    [502, 'Bad gateway', false],
  ])('a %i is refused for good: %s (%s)', async (status, detail, refused) => {
    const upload = vi.fn(async () => {
      throw httpError(status, detail);
    });
    const result = await runUploadQueue({
      sessionId: 's1',
      items: items('x.jpg'),
      sleep: vi.fn(async () => undefined),
      upload,
    });
    // Refused files are tried once; the rest up to the spec's 3 attempts.
    expect(upload).toHaveBeenCalledTimes(refused ? 1 : 3);
    expect(result.errors).toEqual([
      { filename: 'x.jpg', error: detail, retryCount: refused ? 1 : 3, refused },
    ]);
  });

  it('falls back to the catalogue message when the error has none', async () => {
    const { sleep } = recordingSleep();
    const result = await runUploadQueue({
      sessionId: 's1',
      items: [{ key: 'k', file: new File(['x'], 'a_optimized.jpg'), filename: 'a.png' }],
      sleep,
      upload: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(result.errors).toEqual([
      {
        filename: 'a.png',
        error: 'Upload failed. Please try again.',
        retryCount: 3,
        refused: false,
      },
    ]);
  });

  it('gives up on the rest once the session has expired', async () => {
    const upload = vi.fn(async (file: File) => {
      if (file.name === 'a.jpg') return 'ok';
      throw httpError(410, MESSAGES.sessionExpired);
    });
    const result = await runUploadQueue({
      sessionId: 's1',
      items: items('a.jpg', 'b.jpg', 'c.jpg'),
      sleep: vi.fn(async () => undefined),
      upload,
    });
    expect(upload).toHaveBeenCalledTimes(2);
    expect(result.fatalError).toBe(MESSAGES.sessionExpired);
    expect(result.errors).toEqual([
      { filename: 'b.jpg', error: MESSAGES.sessionExpired, retryCount: 1, refused: false },
      { filename: 'c.jpg', error: MESSAGES.sessionExpired, retryCount: 0, refused: false },
    ]);
    // One file went up, so the run counts as completed (spec rule).
    expect(result.status).toBe('completed');
  });

  it('reports progress per file and overall, with the current file', async () => {
    const seen: UploadProgress[] = [];
    await runUploadQueue({
      sessionId: 's1',
      items: items('a.jpg', 'b.jpg'),
      upload: async (_file, { onProgress }) => {
        onProgress(0.5);
        return 'ok';
      },
      onProgress: (p) => seen.push(p),
    });
    const half = seen.find((p) => p.currentFile === 'b.jpg' && p.currentFileProgress === 50);
    expect(half).toMatchObject({ uploadedFiles: 1, progress: 75, status: 'uploading' });
    expect(seen.at(-1)).toMatchObject({ progress: 100, status: 'completed', currentFile: null });
  });

  it('pauses while offline and carries on when the connection returns', async () => {
    let online = false;
    const statuses: string[] = [];
    let release: () => void = () => undefined;
    const run = runUploadQueue({
      sessionId: 's1',
      items: items('a.jpg'),
      isOnline: () => online,
      waitUntilOnline: () =>
        new Promise<void>((resolve) => {
          release = () => {
            online = true;
            resolve();
          };
        }),
      upload: async () => 'ok',
      onProgress: (p) => statuses.push(p.status),
    });
    await Promise.resolve();
    expect(statuses).toContain('paused');
    release();
    const result = await run;
    expect(result.status).toBe('completed');
    expect(statuses.at(-1)).toBe('completed');
  });
});

describe('UploadRunner', () => {
  let runner: UploadRunner;
  beforeEach(() => {
    runner = new UploadRunner();
  });
  afterEach(() => runner.cancel());

  it('runs one upload at a time: "Upload already in progress"', async () => {
    let finish: () => void = () => undefined;
    const first = runner.run({
      sessionId: 's1',
      items: items('a.jpg'),
      upload: () => new Promise<string>((resolve) => (finish = () => resolve('ok'))),
    });
    expect(runner.running).toBe(true);
    await expect(
      runner.run({ sessionId: 's1', items: items('b.jpg'), upload: async () => 'ok' }),
    ).rejects.toThrow('Upload already in progress');
    finish();
    await expect(first).resolves.toMatchObject({ status: 'completed' });
    expect(runner.running).toBe(false);
  });

  it('cancels: the file in flight is aborted and later files are not sent', async () => {
    const upload = vi.fn(
      (_file: File, { signal }: { signal: AbortSignal }) =>
        new Promise<string>((_resolve, reject) => {
          signal.addEventListener('abort', () =>
            reject(new DOMException('Upload cancelled', 'AbortError')),
          );
        }),
    );
    const run = runner.run({ sessionId: 's1', items: items('a.jpg', 'b.jpg'), upload });
    await Promise.resolve();
    runner.cancel();
    const result = await run;
    expect(upload).toHaveBeenCalledTimes(1);
    expect(result).toMatchObject({ cancelled: true, errors: [], uploadedFiles: 0 });
  });

  it('cancelling interrupts a wait between attempts', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const wait = defaultSleep(2000, controller.signal);
      controller.abort();
      await expect(wait).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      vi.useRealTimers();
    }
  });
});
