import { useQuery } from '@tanstack/react-query';
import { useSession } from '../auth/session-store';
import {
  durationPhrase,
  expectedSeconds,
  fetchWaitEstimate,
  type EstimatedTask,
} from './durations';
import { queueKeys } from './query-keys';

/** The queue moves: an estimate is kept half a minute and refreshed every minute on screen. */
const ESTIMATE_STALE_MS = 30_000;
const ESTIMATE_REFRESH_MS = 60_000;

/**
 * The queue's wait-time estimate for a `task` submitted now. The call needs a signed-in user;
 * pages for anyone read the public estimate instead (use-public-estimate.ts).
 */
export function useWaitEstimate(task: EstimatedTask, enabled = true) {
  const { status } = useSession();
  return useQuery({
    queryKey: queueKeys.waitEstimate(task),
    queryFn: ({ signal }) => fetchWaitEstimate(task, signal),
    enabled: enabled && status === 'authenticated',
    staleTime: ESTIMATE_STALE_MS,
    refetchInterval: ESTIMATE_REFRESH_MS,
    retry: false,
  });
}

/**
 * How long a `task` submitted now takes until done (queue wait plus a typical run), in the spec's
 * words when they are true; null while unknown or while no worker is connected.
 */
export function useExpectedDuration(task: EstimatedTask): string | null {
  const estimate = useWaitEstimate(task);
  return durationPhrase(task, expectedSeconds(estimate.data));
}

/**
 * How long a generation asked for now takes, for the generation pages: 'Usually ready in 10-30
 * seconds' when that is what the queue and the engine give; null while unknown.
 */
export function useGenerationExpectation(): string | null {
  const phrase = useExpectedDuration('generation');
  return phrase ? `Usually ready in ${phrase}` : null;
}
