import type { TrainingStatus } from './training-api';

const BADGES: Record<TrainingStatus, { label: string; className: string }> = {
  completed: { label: 'Ready', className: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  training: { label: 'Training', className: 'bg-accent-50 text-accent-800 ring-accent-200' },
  pending: { label: 'Pending', className: 'bg-stone-100 text-stone-700 ring-stone-200' },
  failed: { label: 'Failed', className: 'bg-red-50 text-red-800 ring-red-200' },
};

/** A model's or job's status; completed reads as Ready (product spec, dashboard). */
export function StatusBadge({ status }: { status: TrainingStatus }) {
  const badge = BADGES[status];
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${badge.className}`}
    >
      {badge.label}
    </span>
  );
}
