import { useQuery } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { ApiError } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { useRealtimeState } from '../../lib/realtime';
import {
  fetchTrainingJob,
  fetchTrainingJobs,
  fetchUserModels,
  type TrainingJob,
} from './training-api';
import { withJob } from './training-cache';
import {
  connectionState,
  isFinalStatus,
  STATUS_CHANGED_EVENT,
  TRAINING_POLL_MS,
  type ConnectionState,
} from './training-logic';
import { observeJobs } from './tracker';
import { trainingKeys } from './query-keys';

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * The jobs call (docs/spec/calls.md#74-training): every 5 s and on window focus. A 401 clears the
 * status; a 404
 * clears it and counts as connected; other failures keep the last answer and mark the poll
 * disconnected (the query's error state).
 */
async function loadJobs({ signal }: { signal: AbortSignal }): Promise<TrainingJob[]> {
  try {
    const jobs = await fetchTrainingJobs(signal);
    observeJobs(jobs);
    return jobs;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return [];
    throw error;
  }
}

export function useTrainingJobs({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: trainingKeys.jobs(),
    queryFn: loadJobs,
    enabled,
    refetchInterval: TRAINING_POLL_MS,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
    // The next poll is the retry.
    retry: false,
  });
}

/**
 * One job by its id or its upload session's id, polled every 5 s until it finishes; pushes for
 * it land here too (applyJobUpdate). A 404 is final: 'Training model not found'.
 */
export function useTrainingJob(id: string | null | undefined) {
  return useQuery({
    queryKey: trainingKeys.job(id ?? ''),
    queryFn: async ({ signal }) => {
      const job = await fetchTrainingJob(id ?? '', signal);
      observeJobs([job]);
      queryClient.setQueryData<TrainingJob[]>(trainingKeys.jobs(), (list) =>
        list ? withJob(list, job) : list,
      );
      return job;
    },
    enabled: Boolean(id),
    refetchInterval: (query) => {
      const job = query.state.data;
      if (isNotFound(query.state.error)) return false;
      return job && isFinalStatus(job.status) ? false : TRAINING_POLL_MS;
    },
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
}

/** GET /api/v1/upload/user-models, refreshed as often as the caller asks. */
export function useUserModels({ refetchInterval }: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: trainingKeys.userModels(),
    queryFn: ({ signal }) => fetchUserModels(signal),
    refetchInterval,
  });
}

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const readOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, readOnline, readOnline);
}

/** The connection indicator for a view whose own poll is (or is not) answering. */
export function useConnectionState(pollOk: boolean): ConnectionState {
  const realtime = useRealtimeState();
  const online = useOnline();
  return connectionState({ realtime, pollOk, online });
}

/** Runs `listener` on trainingStatusChanged (1 s after a job completes or fails). */
export function useTrainingStatusChanged(listener: () => void): void {
  useEffect(() => {
    window.addEventListener(STATUS_CHANGED_EVENT, listener);
    return () => window.removeEventListener(STATUS_CHANGED_EVENT, listener);
  }, [listener]);
}
