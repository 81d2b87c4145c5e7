import type { QueryKey } from '@tanstack/react-query';
import { queryClient } from '../../lib/query-client';
import type { TrainingJob } from './training-api';
import { observeJobs } from './tracker';
import { trainingKeys } from './query-keys';

function time(value: string): number {
  const t = Date.parse(value);
  return Number.isNaN(t) ? 0 : t;
}

/** Newest first, by creation time, as the server lists jobs. */
function newestFirst<T extends { created_at: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => time(b.created_at) - time(a.created_at));
}

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
  const views: QueryKey[] = [];
  for (const [key, data] of queryClient.getQueriesData<TrainingJob>({
    queryKey: trainingKeys.anyJob(),
  })) {
    const id = key[2];
    if (data && (id === job.id || (job.session_id !== null && id === job.session_id))) {
      views.push(key);
    }
  }
  // A read already on its way (the resync after a reconnect) may be older than this push: drop
  // it (the state reverts synchronously), the next poll reads again.
  if (queryClient.getQueryData(trainingKeys.jobs())) {
    void queryClient.cancelQueries({ queryKey: trainingKeys.jobs(), exact: true });
    queryClient.setQueryData<TrainingJob[]>(trainingKeys.jobs(), (list) =>
      list ? withJob(list, job) : list,
    );
  }
  for (const key of views) {
    void queryClient.cancelQueries({ queryKey: key, exact: true });
    queryClient.setQueryData(key, job);
  }
}
