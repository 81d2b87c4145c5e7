import { describe, expect, it } from 'vitest';
import {
  approximateDuration,
  durationPhrase,
  expectedSeconds,
  remainingLabel,
  resultsEstimate,
  toWaitEstimate,
  trainingSecondsLeft,
  type Duration,
  type WaitEstimate,
} from './durations';

const estimate = (medianSeconds: number, waitSeconds: number | null = 0): WaitEstimate => ({
  jobsAhead: 0,
  workers: waitSeconds === null ? 0 : 1,
  workerConnected: waitSeconds !== null,
  medianSeconds,
  engineKind: 'studio',
  waitSeconds,
});

/** Nothing measured yet, with a worker connected (and, when `ahead`, tasks waiting). */
const unmeasured = (ahead = false): Duration => ({
  medianSeconds: null,
  waitSeconds: ahead ? null : 0,
  workerConnected: true,
});

describe('reading the queue estimate', () => {
  it('takes the API answer (ZWaitTimeEstimateSchema)', () => {
    expect(
      toWaitEstimate({
        task_type: 'training',
        priority: 'normal',
        engine_kind: 'flux',
        jobs_ahead: 2,
        workers: 1,
        median_duration_seconds: 14,
        estimated_wait_seconds: 28,
      }),
    ).toEqual({
      jobsAhead: 2,
      workers: 1,
      workerConnected: true,
      medianSeconds: 14,
      engineKind: 'flux',
      waitSeconds: 28,
    });
  });

  it('has no wait while no worker is connected: nothing would run the task', () => {
    const read = toWaitEstimate({
      jobs_ahead: 0,
      workers: 0,
      median_duration_seconds: 14,
      estimated_wait_seconds: null,
    });
    expect(read?.waitSeconds).toBeNull();
    expect(expectedSeconds(read)).toBeNull();
  });

  it('is null for an answer without the figures (nothing measured yet: no promise)', () => {
    expect(toWaitEstimate(undefined)).toBeNull();
    expect(
      toWaitEstimate({ workers: 1, median_duration_seconds: null, sample_size: 0 }),
    ).toBeNull();
    expect(toWaitEstimate({ workers: 1 })).toBeNull();
    expect(toWaitEstimate({ workers: 1, median_duration_seconds: 'soon' })).toBeNull();
  });

  it('expects the wait plus a typical run', () => {
    expect(expectedSeconds(estimate(14, 28))).toBe(42);
    expect(expectedSeconds(undefined)).toBeNull();
    expect(expectedSeconds(unmeasured())).toBeNull();
  });
});

describe('phrases: the spec’s words where they are true, else the figure', () => {
  it.each([
    // A studio-engine training takes seconds: no spec phrase fits.
    ['training', 14, 'about 15 seconds'],
    ['training', 4, 'a few seconds'],
    ['training', 4 * 60, 'about 4 minutes'],
    ['training', 12 * 60, '10-15 minutes'],
    ['training', 15 * 60, '10-15 minutes'],
    ['training', 22 * 60, '15-30 minutes'],
    ['training', 45 * 60, 'about 45 minutes'],
    ['training', 2 * 3600, 'about 2 hours'],
    ['training', 4 * 3600, 'about 4 hours'],
    ['generation', 2, 'a few seconds'],
    ['generation', 12, '10-30 seconds'],
    ['generation', 30, '10-30 seconds'],
    ['generation', 45, 'about 45 seconds'],
    ['generation', 3 * 60, '2-5 minutes'],
    ['generation', 9 * 60, 'about 9 minutes'],
  ] as const)('%s of %i s: %s', (task, seconds, phrase) => {
    expect(durationPhrase(task, seconds)).toBe(phrase);
  });

  it('promises nothing without a figure', () => {
    expect(durationPhrase('training', null)).toBeNull();
  });

  it.each([
    [0, 'a few seconds'],
    [12, 'about 10 seconds'],
    [53, 'about 55 seconds'],
    [58, 'about 1 minute'],
    [89, 'about 1 minute'],
    [91, 'about 2 minutes'],
    [59 * 60, 'about 59 minutes'],
    [3600, 'about 1 hour'],
    [5400, 'about 1.5 hours'],
  ])('approximately %i s is %s', (seconds, phrase) => {
    expect(approximateDuration(seconds)).toBe(phrase);
  });
});

describe('the landing page’s time to results', () => {
  it('says "under 10 minutes" when a training and a generation now take less', () => {
    expect(resultsEstimate(estimate(14), estimate(2))).toEqual({
      phrase: 'under 10 minutes',
      short: '< 10 min',
    });
  });

  it('says the figure when they take longer (a queue, a slow engine)', () => {
    expect(resultsEstimate(estimate(15 * 60, 10 * 60), estimate(3 * 60))).toEqual({
      phrase: 'about 28 minutes',
      short: '~28 min',
    });
  });

  it('keeps the spec’s words before anything is measured, unless what is measured takes longer', () => {
    const claim = { phrase: 'under 10 minutes', short: '< 10 min' };
    expect(resultsEstimate(unmeasured(), unmeasured())).toEqual(claim);
    expect(resultsEstimate(unmeasured(true), unmeasured())).toEqual(claim);
    expect(resultsEstimate(estimate(14), unmeasured())).toEqual(claim);
    expect(resultsEstimate(estimate(20 * 60), unmeasured())).toBeNull();
  });

  it('promises nothing while either is unknown or no worker is connected', () => {
    expect(resultsEstimate(undefined, estimate(2))).toBeNull();
    expect(resultsEstimate(estimate(14, null), estimate(2))).toBeNull();
    expect(resultsEstimate(unmeasured(), { ...unmeasured(), workerConnected: false })).toBeNull();
  });
});

describe('a training’s time remaining', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');

  it('is the API’s extrapolation of the job’s own progress when it has one', () => {
    const job = {
      status: 'training',
      progress: 40,
      estimated_completion: '2026-11-25T12:00:09Z',
    };
    expect(trainingSecondsLeft(job, now, estimate(600))).toBe(9);
    expect(remainingLabel(9, 40)).toBe('A few seconds remaining');
  });

  it('else the part of a measured typical run still to go', () => {
    const job = { status: 'training', progress: 40, estimated_completion: null };
    expect(trainingSecondsLeft(job, now, estimate(20 * 60))).toBe(12 * 60);
    expect(remainingLabel(12 * 60, 40)).toBe('About 12 minutes remaining');
  });

  it('adds the queue’s wait while the job is pending', () => {
    const job = { status: 'pending', progress: 0, estimated_completion: null };
    expect(trainingSecondsLeft(job, now, estimate(14, 28))).toBe(42);
  });

  it('is unknown without either, and finishing at 100%', () => {
    const job = { status: 'training', progress: 40, estimated_completion: null };
    expect(trainingSecondsLeft(job, now, undefined)).toBeNull();
    expect(remainingLabel(null, 40)).toBe('Working out the time left...');
    expect(remainingLabel(3, 100)).toBe('Finishing up');
  });

  it('never goes below zero when the estimate has passed', () => {
    const job = { status: 'training', progress: 90, estimated_completion: '2026-11-25T11:59:00Z' };
    expect(trainingSecondsLeft(job, now, undefined)).toBe(0);
    expect(remainingLabel(0, 90)).toBe('Finishing up');
  });
});
