import { describe, expect, it } from 'vitest';
import { toPublicDuration, toPublicResultsEstimate } from './public-estimate';

/** The public estimate's answer (ZPublicWaitEstimateSchema) for one kind of work. */
const work = (
  median: number | null,
  wait: number | null,
  connected = wait !== null,
): Record<string, unknown> => ({
  median_duration_seconds: median,
  sample_size: median === null ? 0 : 12,
  estimated_wait_seconds: wait,
  expected_seconds: median === null || wait === null ? null : median + wait,
  worker_connected: connected,
});

describe('reading the public estimate', () => {
  it('takes each kind of work’s median and wait', () => {
    expect(toPublicDuration(work(14, 28))).toEqual({
      medianSeconds: 14,
      waitSeconds: 28,
      workerConnected: true,
    });
    expect(toPublicDuration(work(null, 0))).toEqual({
      medianSeconds: null,
      waitSeconds: 0,
      workerConnected: true,
    });
  });

  it('has no wait while no worker is connected, and nothing for an answer without the figures', () => {
    expect(toPublicDuration({ ...work(14, 0), worker_connected: false })?.waitSeconds).toBeNull();
    expect(toPublicDuration(undefined)).toBeNull();
    expect(toPublicDuration({ median_duration_seconds: 14 })).toBeNull();
  });

  it('gives the landing page’s time to results', () => {
    expect(toPublicResultsEstimate({ training: work(14, 0), generation: work(2, 0) })).toEqual({
      phrase: 'under 10 minutes',
      short: '< 10 min',
    });
    expect(
      toPublicResultsEstimate({ training: work(20 * 60, 40 * 60), generation: work(180, 0) }),
    ).toEqual({ phrase: 'about 1 hour', short: '~1 h 3 min' });
    // Nothing measured: the spec's words.
    expect(
      toPublicResultsEstimate({ training: work(null, 0), generation: work(null, 0) })?.phrase,
    ).toBe('under 10 minutes');
    // No worker, or no answer: no promise.
    expect(
      toPublicResultsEstimate({ training: work(14, null), generation: work(2, 0) }),
    ).toBeNull();
    expect(toPublicResultsEstimate('nonsense')).toBeNull();
  });
});
