import { api } from '../../lib/api';

/**
 * Every duration the app promises comes from here, computed from the queue's wait-time estimate
 * (GET /api/v1/queue/estimate/wait-time/{task_type}/{priority}, or the public one for anyone):
 * the tasks ahead, the workers connected, and the median run time of the type's recent tasks as
 * the engine really ran them. The spec's phrases ('15-30 minutes', '10-30 seconds'...) are used
 * when the figure falls in them; otherwise the figure itself, rounded. With no figure, nothing
 * is promised; before any run has been measured the landing page keeps the spec's own words.
 */

/** The tasks whose durations the pages talk about. */
export type EstimatedTask = 'training' | 'generation';

/** How long a task submitted now takes: what both estimates say. */
export interface Duration {
  /** Median run time of the type's recent completed tasks; null while none was measured. */
  medianSeconds: number | null;
  /** Until a task submitted now starts; null while no worker is connected or it cannot be told. */
  waitSeconds: number | null;
  /** Whether a worker that would run it is connected. */
  workerConnected: boolean;
}

export interface WaitEstimate extends Duration {
  /** Waiting tasks of equal or better priority: they run first. */
  jobsAhead: number;
  workers: number;
  medianSeconds: number;
  /** The engine kind the estimate is for (the one a task submitted now runs on). */
  engineKind: string | null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/**
 * Reads the signed-in estimate's answer; null when it lacks the figures (as before any run has
 * been measured: the pages then promise nothing).
 */
export function toWaitEstimate(body: unknown): WaitEstimate | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const medianSeconds = num(record.median_duration_seconds);
  const workers = num(record.workers);
  if (medianSeconds === null || workers === null) return null;
  return {
    jobsAhead: num(record.jobs_ahead) ?? 0,
    workers,
    workerConnected: workers > 0,
    medianSeconds,
    engineKind: typeof record.engine_kind === 'string' ? record.engine_kind : null,
    // Nothing would run a task while no worker is connected: no promise then.
    waitSeconds: workers === 0 ? null : num(record.estimated_wait_seconds),
  };
}

export async function fetchWaitEstimate(
  task: EstimatedTask,
  signal?: AbortSignal,
): Promise<WaitEstimate | null> {
  return toWaitEstimate(
    await api.get(`/api/v1/queue/estimate/wait-time/${task}/normal`, { signal }),
  );
}

/** From submitting a task now until it is done: the wait plus a typical run; null when unknown. */
export function expectedSeconds(estimate: Duration | null | undefined): number | null {
  if (!estimate || estimate.waitSeconds === null || estimate.medianSeconds === null) return null;
  return estimate.waitSeconds + estimate.medianSeconds;
}

/** The spec's phrases for each task, and the durations (seconds, inclusive) they are true for. */
export const SPEC_PHRASES: Record<EstimatedTask, { min: number; max: number; text: string }[]> = {
  training: [
    { min: 10 * 60, max: 15 * 60, text: '10-15 minutes' },
    { min: 15 * 60, max: 30 * 60, text: '15-30 minutes' },
    { min: 90 * 60, max: 150 * 60, text: 'about 2 hours' },
  ],
  generation: [
    { min: 10, max: 30, text: '10-30 seconds' },
    { min: 2 * 60, max: 5 * 60, text: '2-5 minutes' },
  ],
};

/** The landing page's claim (product spec: 'results in under 10 minutes'), used when true. */
export const RESULTS_CLAIM_SECONDS = 10 * 60;
export const RESULTS_CLAIM = { phrase: 'under 10 minutes', short: '< 10 min' } as const;

/** The time to results as the landing page and /auth say it. */
export interface ResultsEstimate {
  phrase: string;
  short: string;
}

/** 'a few seconds', 'about 40 seconds', 'about 4 minutes', 'about 1.5 hours'. */
export function approximateDuration(seconds: number): string {
  const s = Math.max(0, seconds);
  if (s < 10) return 'a few seconds';
  if (s < 55) return `about ${Math.max(10, Math.round(s / 5) * 5)} seconds`;
  const minutes = Math.max(1, Math.round(s / 60));
  if (minutes < 60) return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.round((s / 3600) * 2) / 2;
  return `about ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/** How long `seconds` of `task` is, in the spec's words when they are true. */
export function durationPhrase(task: EstimatedTask, seconds: number | null): string | null {
  if (seconds === null) return null;
  const spec = SPEC_PHRASES[task].find((p) => seconds >= p.min && seconds <= p.max);
  return spec ? spec.text : approximateDuration(seconds);
}

/**
 * Photos in to headshots out: a training and a generation submitted now. Measured: 'under 10
 * minutes' (the spec's claim) when that is what the queue and the engine give, else the figure.
 * Not yet measured: the spec's claim, unless what was measured already takes longer. No worker
 * connected for either, or no answer: null, nothing is promised.
 */
export function resultsEstimate(
  training: Duration | null | undefined,
  generation: Duration | null | undefined,
): ResultsEstimate | null {
  if (!training?.workerConnected || !generation?.workerConnected) return null;
  const train = expectedSeconds(training);
  const generate = expectedSeconds(generation);
  const known = (train ?? 0) + (generate ?? 0);
  if (known < RESULTS_CLAIM_SECONDS) return { ...RESULTS_CLAIM };
  if (train === null || generate === null) return null;
  return { phrase: approximateDuration(known), short: `~${formatGpuTime(known)}` };
}

/**
 * How long a training has left: the API's own extrapolation for a running job
 * (estimated_completion, from how long its progress so far took); else, from the measured
 * median, the part of a typical run still to go (plus the queue's wait while it is pending);
 * null when nothing is known.
 */
export function trainingSecondsLeft(
  job: {
    status: string;
    progress: number;
    estimated_completion: string | null;
  },
  now: number,
  estimate: WaitEstimate | null | undefined,
): number | null {
  if (job.status === 'completed' || job.status === 'failed') return 0;
  if (job.estimated_completion) {
    const at = Date.parse(job.estimated_completion);
    if (Number.isFinite(at)) return Math.max(0, (at - now) / 1000);
  }
  if (!estimate) return null;
  if (job.status === 'pending') return expectedSeconds(estimate);
  const left = Math.min(100, Math.max(0, 100 - job.progress)) / 100;
  return estimate.medianSeconds * left;
}

/** 'About 4 minutes remaining', 'A few seconds remaining', 'Finishing up'. */
export function remainingLabel(seconds: number | null, progress: number): string {
  if (progress >= 100 || seconds === 0) return 'Finishing up';
  if (seconds === null) return 'Working out the time left...';
  const phrase = approximateDuration(seconds);
  return `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)} remaining`;
}

/** "1 h 23 min", "4 min", "35 s". */
export function formatGpuTime(seconds: number | null): string {
  if (seconds === null || seconds < 0) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}
