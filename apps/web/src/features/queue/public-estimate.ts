import { api } from '../../lib/api';
import { resultsEstimate, type Duration, type ResultsEstimate } from './durations';

/**
 * The public wait-time estimate (GET /api/v1/queue/estimate/public, no sign-in): a training and
 * a generation submitted now by a new visitor.
 */

export const PUBLIC_ESTIMATE_PATH = '/api/v1/queue/estimate/public';

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** One kind of work of the answer; null when it is not there. */
export function toPublicDuration(body: unknown): Duration | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  if (typeof record.worker_connected !== 'boolean') return null;
  return {
    medianSeconds: num(record.median_duration_seconds),
    waitSeconds: record.worker_connected ? num(record.estimated_wait_seconds) : null,
    workerConnected: record.worker_connected,
  };
}

/** The landing page's time to results from the public answer (see resultsEstimate). */
export function toPublicResultsEstimate(body: unknown): ResultsEstimate | null {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return resultsEstimate(toPublicDuration(record.training), toPublicDuration(record.generation));
}

export async function fetchPublicResultsEstimate(
  signal?: AbortSignal,
): Promise<ResultsEstimate | null> {
  // The same answer for everyone: no token, so any cache may keep it.
  return toPublicResultsEstimate(await api.get(PUBLIC_ESTIMATE_PATH, { signal, anonymous: true }));
}
