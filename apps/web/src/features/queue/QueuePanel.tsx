import { MESSAGES } from '@studioshot/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../components/PageState';
import { cardClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import {
  fetchQueueOverview,
  fetchUserQueueStatus,
  formatGpuTime,
  trainingQueue,
} from './queue-api';
import { queueKeys } from './query-keys';

/** The queue panel refreshes every 30 s (docs/spec/constants.md). */
export const QUEUE_REFRESH_MS = 30_000;

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex flex-col rounded-xl bg-stone-50 px-3 py-2.5 text-center">
      <dt className="order-2 text-xs text-stone-600">{label}</dt>
      <dd className="order-1 font-display text-xl font-semibold text-stone-950 tabular-nums">
        {value}
      </dd>
    </div>
  );
}

function Trouble({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="mt-3 flex flex-wrap items-center justify-between gap-2 rounded-xl border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <span>{errorMessage(error, MESSAGES.queueInitializing)}</span>
      <button type="button" onClick={onRetry} className="font-medium underline underline-offset-4">
        Retry
      </button>
    </div>
  );
}

/**
 * The dashboard's queue panel (docs/spec/calls.md#77-queue) as its user needs it: their own tasks,
 * and how long
 * a training started now waits, refreshed every 30 s. The fleet's cost projection is an
 * operator's figure and stays off this page (GET /api/v1/queue/cost/projection still serves it).
 */
export function QueuePanel({ className = '' }: { className?: string }) {
  const options = { refetchInterval: QUEUE_REFRESH_MS, staleTime: 10_000 } as const;
  const tasks = useQuery({
    queryKey: queueKeys.user(),
    queryFn: ({ signal }) => fetchUserQueueStatus(signal),
    ...options,
  });
  const overview = useQuery({
    queryKey: queueKeys.overview(),
    queryFn: ({ signal }) => fetchQueueOverview(signal),
    select: trainingQueue,
    ...options,
    retry: false,
  });

  const queue = overview.data;
  const wait =
    queue?.workers === 0
      ? 'No training worker is connected right now: a new training waits until one is.'
      : queue?.estimated_wait_seconds != null
        ? queue.estimated_wait_seconds < 60
          ? 'A training started now begins within a minute.'
          : `A training started now begins in about ${formatGpuTime(queue.estimated_wait_seconds)}.`
        : null;

  return (
    <section
      aria-labelledby="queue-panel-heading"
      aria-busy={tasks.isPending || undefined}
      className={`${cardClass} p-6 ${className}`}
    >
      <h2 id="queue-panel-heading" className="font-display text-xl font-semibold text-stone-950">
        Your tasks
      </h2>
      {tasks.isPending ? (
        <p className="mt-4 flex items-center gap-2 text-sm text-stone-600">
          <Spinner className="size-4" /> Loading your tasks...
        </p>
      ) : tasks.data ? (
        <dl className="mt-4 grid grid-cols-3 gap-2">
          <Count label="Waiting" value={tasks.data.pending_tasks} />
          <Count label="Running" value={tasks.data.running_tasks} />
          <Count label="Total" value={tasks.data.total_tasks} />
        </dl>
      ) : (
        <Trouble error={tasks.error} onRetry={() => void tasks.refetch()} />
      )}
      {wait && <p className="mt-4 text-sm text-stone-600">{wait}</p>}
    </section>
  );
}
