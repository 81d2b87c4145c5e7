import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getToasts } from '../../lib/toast';
import { trainingJob } from './testing';
import { observeJobs, resetTrainingTracker } from './tracker';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const messages = () => getToasts().map((t) => [t.kind, t.message]);

describe('training tracker', () => {
  it('toasts a change to completed once and signals trainingStatusChanged after 1 s', () => {
    const events = vi.fn();
    window.addEventListener('trainingStatusChanged', events);
    try {
      observeJobs([trainingJob({ status: 'training', progress: 90 })]);
      expect(messages()).toEqual([]);

      const done = trainingJob({ status: 'completed', progress: 100 });
      observeJobs([done]);
      expect(messages()).toEqual([
        ['success', 'Ada Portraits is ready! You can generate headshots now.'],
      ]);
      expect(events).not.toHaveBeenCalled();
      vi.advanceTimersByTime(999);
      expect(events).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(events).toHaveBeenCalledTimes(1);

      // Later polls, pushes and the same answer again: nothing new.
      observeJobs([done]);
      observeJobs([done]);
      vi.advanceTimersByTime(3_000);
      expect(messages()).toHaveLength(1);
      expect(events).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('trainingStatusChanged', events);
    }
  });

  it('a job first seen finished is not news', () => {
    observeJobs([trainingJob({ status: 'completed' }), trainingJob({ id: 'f', status: 'failed' })]);
    expect(messages()).toEqual([]);
  });

  it('toasts a failure with its reason, or Unknown error', () => {
    observeJobs([trainingJob({ id: 'a' }), trainingJob({ id: 'b', status: 'pending' })]);
    observeJobs([
      trainingJob({ id: 'a', status: 'failed', error_message: 'No usable face' }),
      trainingJob({ id: 'b', status: 'failed', error_message: null }),
    ]);
    expect(messages()).toEqual([
      ['error', 'training failed: No usable face'],
      ['error', 'training failed: Unknown error'],
    ]);
  });

  it('remembers across a reload (sessionStorage) and never repeats an announcement', async () => {
    observeJobs([trainingJob({ status: 'training' })]);
    // A reload: every module starts afresh, sessionStorage and localStorage stay.
    vi.resetModules();
    const reloaded = await import('./tracker');
    const reloadedToasts = await import('../../lib/toast');
    reloaded.observeJobs([trainingJob({ status: 'completed' })]);
    expect(reloadedToasts.getToasts().map((t) => t.message)).toEqual([
      'Ada Portraits is ready! You can generate headshots now.',
    ]);
    reloadedToasts.resetToasts();

    // Another tab with its own memory sees the same change: the shared log stops a second toast.
    resetTrainingTracker();
    observeJobs([trainingJob({ status: 'training' })]);
    observeJobs([trainingJob({ status: 'completed' })]);
    expect(messages()).toEqual([]);
  });
});
