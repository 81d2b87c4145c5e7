import type { QueryKey } from '@tanstack/react-query';
import { queryClient } from '../../lib/query-client';
import { newestFirst, type TrainingJob } from './training-api';
import { observeJobs } from './tracker';

/** Query keys of the training screens. */
export const TRAINING_KEY = ['training'] as const;
export const TRAINING_JOBS_KEY = ['training', 'jobs'] as const;
/** One job, by the id in the address: the job's own id or its upload session's. */
export const trainingJobKey = (id: string) => ['training', 'job', id] as const;
export const USER_MODELS_KEY = ['models', 'user'] as const;

/** Puts `job` in the jobs list (replacing its older self), newest first. */
export function withJob(list: readonly TrainingJob[], job: TrainingJob): TrainingJob[] {
  return newestFirst([job, ...list.filter((item) => item.id !== job.id)]);
}

/**
 * A job arrived outside a poll (a /ws push, the start answer): show it everywhere at once (the
 * jobs list and any single-job view addressed by its id or its session's id) and let the
 * tracker announce it.
 */
export function applyJobUpdate(job: TrainingJob): void {
  observeJobs([job]);
  const targets: QueryKey[] = [];
  if (queryClient.getQueryData(TRAINING_JOBS_KEY)) targets.push(TRAINING_JOBS_KEY);
  for (const [key, data] of queryClient.getQueriesData<TrainingJob>({
    queryKey: ['training', 'job'],
  })) {
    const id = key[2];
    if (data && (id === job.id || (job.session_id !== null && id === job.session_id))) {
      targets.push(key);
    }
  }
  for (const key of targets) {
    // A read already on its way (the resync after a reconnect) may be older than this push:
    // drop it (the state reverts synchronously), the next poll reads again.
    void queryClient.cancelQueries({ queryKey: key, exact: true });
    if (key === TRAINING_JOBS_KEY) {
      queryClient.setQueryData<TrainingJob[]>(key, (list) => (list ? withJob(list, job) : list));
    } else {
      queryClient.setQueryData(key, job);
    }
  }
}
