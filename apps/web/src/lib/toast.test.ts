import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  TOAST_DURATION_MS,
  TOAST_FADE_MS,
  dismissToast,
  getToasts,
  pauseToast,
  resetToasts,
  resumeToast,
  toast,
} from './toast';

beforeEach(() => {
  vi.useFakeTimers();
  resetToasts();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('toasts', () => {
  it('uses the spec timings', () => {
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(TOAST_FADE_MS).toBe(300);
  });

  it('fades after 5000 ms and is gone 300 ms later', () => {
    toast.success('Saved');
    expect(getToasts()).toMatchObject([{ message: 'Saved', kind: 'success', leaving: false }]);

    vi.advanceTimersByTime(4999);
    expect(getToasts()[0]?.leaving).toBe(false);
    vi.advanceTimersByTime(1);
    expect(getToasts()[0]?.leaving).toBe(true);
    vi.advanceTimersByTime(299);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });

  it('can be dismissed early and honours a custom duration', () => {
    const first = toast.error('Failed', 1000);
    toast.info('Hello');
    dismissToast(first);
    vi.advanceTimersByTime(TOAST_FADE_MS);
    expect(getToasts().map((t) => t.message)).toEqual(['Hello']);
  });

  it('holds while hovered or focused, then goes on with the time it had left', () => {
    const id = toast.info('Uploaded 3 photos');
    vi.advanceTimersByTime(4000);
    pauseToast(id);
    vi.advanceTimersByTime(60_000);
    expect(getToasts()[0]?.leaving).toBe(false);
    resumeToast(id);
    vi.advanceTimersByTime(999);
    expect(getToasts()[0]?.leaving).toBe(false);
    vi.advanceTimersByTime(1);
    expect(getToasts()[0]?.leaving).toBe(true);
  });
});
