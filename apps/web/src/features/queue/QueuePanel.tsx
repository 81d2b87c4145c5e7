import { MESSAGES } from '@studioshot/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../components/PageState';
import { cardClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import {
  fetchCostProjection,
  fetchQueueOverview,
  fetchUserQueueStatus,
  formatGpuTime,
  formatPercent,
  formatUsd,
  type EfficiencyRating,
} from './queue-api';

/** The queue panel refreshes every 30 s (api spec 9). */
export const QUEUE_REFRESH_MS = 30_000;

const RATING_LOOK: Record<EfficiencyRating, { label: string; className: string }> = {
  excellent: { label: 'Excellent', className: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  good: { label: 'Good', className: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  fair: { label: 'Fair', className: 'bg-amber-50 text-amber-800 ring-amber-200' },
  poor: { label: 'Poor', className: 'bg-red-50 text-red-800 ring-red-200' },
};

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
 * The dashboard's GPU cost / queue panel (api spec 7.7): the user's tasks, the projected monthly
 * GPU cost against an always-on GPU, and the shared queue, refreshed every 30 s.
 */
export function QueuePanel({ className = '' }: { className?: string }) {
  const options = { refetchInterval: QUEUE_REFRESH_MS, staleTime: 10_000 } as const;
  const tasks = useQuery({
    queryKey: ['queue', 'user'],
    queryFn: ({ signal }) => fetchUserQueueStatus(signal),
    ...options,
  });
  const cost = useQuery({
    queryKey: ['queue', 'cost'],
    queryFn: ({ signal }) => fetchCostProjection(signal),
    ...options,
  });
  const overview = useQuery({
    queryKey: ['queue', 'overview'],
    queryFn: ({ signal }) => fetchQueueOverview(signal),
    ...options,
    retry: false,
  });

  const loading = tasks.isPending && cost.isPending;
  const rating = cost.data?.efficiency_rating ? RATING_LOOK[cost.data.efficiency_rating] : null;
  const queue = overview.data;
  const queueParts = queue
    ? [
        queue.waiting !== null ? `${queue.waiting} waiting` : null,
        queue.running !== null ? `${queue.running} training now` : null,
        queue.workers !== null
          ? `${queue.workers} ${queue.workers === 1 ? 'GPU worker' : 'GPU workers'} online`
          : null,
        queue.estimated_wait_seconds !== null
          ? `wait for a new training about ${formatGpuTime(queue.estimated_wait_seconds)}`
          : null,
      ].filter((part): part is string => part !== null)
    : [];

  return (
    <section
      aria-labelledby="queue-panel-heading"
      aria-busy={loading || undefined}
      className={`${cardClass} p-6 ${className}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="queue-panel-heading" className="font-display text-xl font-semibold text-stone-950">
          GPU Cost &amp; Queue
        </h2>
        {rating && (
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${rating.className}`}
          >
            Efficiency: {rating.label}
          </span>
        )}
      </div>

      {loading ? (
        <p className="mt-4 flex items-center gap-2 text-sm text-stone-600">
          <Spinner className="size-4" /> Loading queue status...
        </p>
      ) : (
        <>
          <h3 className="mt-4 text-xs font-semibold tracking-[0.14em] text-stone-500 uppercase">
            Your tasks
          </h3>
          {tasks.data ? (
            <dl className="mt-2 grid grid-cols-3 gap-2">
              <Count label="Pending" value={tasks.data.pending_tasks} />
              <Count label="Running" value={tasks.data.running_tasks} />
              <Count label="Total" value={tasks.data.total_tasks} />
            </dl>
          ) : tasks.isError ? (
            <Trouble error={tasks.error} onRetry={() => void tasks.refetch()} />
          ) : null}

          <h3 className="mt-5 text-xs font-semibold tracking-[0.14em] text-stone-500 uppercase">
            Projected monthly GPU cost
          </h3>
          {cost.data ? (
            <div className="mt-2">
              <p className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-display text-3xl font-semibold text-stone-950 tabular-nums">
                  {formatUsd(cost.data.projected_monthly_cost)}
                </span>
                <span className="text-sm text-stone-600">
                  vs {formatUsd(cost.data.always_on_cost)} always-on
                </span>
              </p>
              <p className="mt-1 text-sm font-medium text-emerald-800">
                {formatPercent(cost.data.savings_percent)} saved with on-demand GPUs
              </p>
              <p className="mt-2 text-xs text-stone-500">
                GPU time, last 30 days: {formatGpuTime(cost.data.gpu_seconds_last_30_days)}
                {cost.data.gpu_hourly_rate !== null &&
                  ` · ${formatUsd(cost.data.gpu_hourly_rate)}/GPU hour`}
              </p>
            </div>
          ) : cost.isError ? (
            <Trouble error={cost.error} onRetry={() => void cost.refetch()} />
          ) : null}

          {queueParts.length > 0 && (
            <p className="mt-4 border-t border-stone-100 pt-3 text-xs text-stone-600">
              Training queue: {queueParts.join(' · ')}
            </p>
          )}
        </>
      )}
    </section>
  );
}
