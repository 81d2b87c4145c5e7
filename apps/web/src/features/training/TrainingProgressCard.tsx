import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ProgressBar } from '../../components/ProgressBar';
import { Spinner } from '../../components/PageState';
import { buttonClass, cardClass } from '../../components/ui';
import { formatGpuTime, remainingLabel, trainingSecondsLeft } from '../queue/durations';
import { useWaitEstimate } from '../queue/use-durations';
import { ConnectionIndicator } from './ConnectionIndicator';
import { StatusBadge } from './StatusBadge';
import type { TrainingJob } from './training-api';
import {
  clampProgress,
  displayName,
  lowerOf,
  MIN_BAR_PERCENT,
  type ConnectionState,
} from './training-logic';

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="min-w-0 rounded-xl bg-stone-50 px-4 py-3">
      <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">{label}</dt>
      <dd className="mt-1 font-medium break-words text-stone-900 tabular-nums">{value}</dd>
    </div>
  );
}

function startedLabel(job: TrainingJob): string {
  if (!job.started_at) return job.status === 'pending' ? 'Waiting to start' : '—';
  const date = new Date(job.started_at);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

/** What the engine is doing, or what to expect before it starts. */
function stepMessage(job: TrainingJob): string {
  if (job.message?.trim()) return job.message.trim();
  return job.status === 'pending'
    ? 'Waiting for a free GPU. Training starts in a moment.'
    : 'Training your personal model...';
}

/** The clock, once a second: the time left counts down between progress updates. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Live training status (product spec, /training/start and /training/{id}): progress bar
 * (at least 5% wide), percent, current step, photo count, time remaining, connection
 * indicator and Go to Dashboard. The time remaining is the API's extrapolation of this job's
 * progress, else the measured median of recent trainings (durations.ts), never a fixed rate.
 */
export function TrainingProgressCard({
  job,
  connection,
  children,
}: {
  job: TrainingJob;
  connection: ConnectionState;
  /** Extra actions after Go to Dashboard. */
  children?: ReactNode;
}) {
  const progress = clampProgress(job.progress);
  const name = displayName(job);
  const estimate = useWaitEstimate('training', !job.estimated_completion);
  const now = useNow();
  const secondsLeft = useNeverRising(
    job.id,
    trainingSecondsLeft({ ...job, progress }, now, estimate.data),
  );
  return (
    <section aria-labelledby="training-progress-title" className={`${cardClass} p-6 sm:p-8`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase">
            {job.status === 'pending' ? 'Queued' : 'Training in progress'}
          </p>
          <h2
            id="training-progress-title"
            className="mt-1 font-display text-2xl font-semibold break-words text-stone-950 sm:text-3xl"
          >
            {name}
          </h2>
        </div>
        <div className="flex items-center gap-2">
          <StatusBadge status={job.status} />
          <ConnectionIndicator state={connection} />
        </div>
      </div>

      <div className="mt-6 flex items-end justify-between gap-4">
        <p className="font-display text-5xl font-semibold text-stone-950 tabular-nums">
          {progress}%
        </p>
        <p className="pb-1.5 text-right text-sm text-stone-600">
          {remainingLabel(secondsLeft, progress)}
        </p>
      </div>
      <ProgressBar
        className="mt-3"
        size="lg"
        value={progress}
        minVisible={MIN_BAR_PERCENT}
        label="Training progress"
        valueText={`${progress}% complete`}
      />
      <p className="mt-3 flex items-center gap-2 text-sm text-stone-700" aria-live="polite">
        <Spinner className="size-4 shrink-0 text-accent-600" />
        <span className="min-w-0 break-words">{stepMessage(job)}</span>
      </p>

      <dl className="mt-6 grid gap-3 sm:grid-cols-3">
        <Stat
          label="Photos"
          value={
            job.training_photos > 0
              ? `${job.training_photos} ${job.training_photos === 1 ? 'photo' : 'photos'}`
              : '—'
          }
        />
        <Stat
          label="Time remaining"
          value={progress >= 100 ? 'Finishing up' : formatGpuTime(secondsLeft)}
        />
        <Stat label="Started" value={startedLabel(job)} />
      </dl>

      <p className="mt-6 text-sm text-stone-600">
        Training cannot be stopped once started. You can leave this page: we will let you know when
        your model is ready.
      </p>

      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <Link to="/dashboard" className={buttonClass('primary')}>
          Go to Dashboard
        </Link>
        {children}
      </div>
    </section>
  );
}

/**
 * The time remaining as a countdown: the estimate is extrapolated afresh on each update and can
 * come out a little higher than a moment before (0 s, then 1 s); the card shows the lowest seen
 * for this job instead, so it never goes up.
 */
function useNeverRising(jobId: string, seconds: number | null): number | null {
  const [lowest, setLowest] = useState<{ jobId: string; seconds: number } | null>(null);
  const shown = lowerOf(lowest?.jobId === jobId ? lowest.seconds : null, seconds);
  useEffect(() => {
    if (shown !== null && (lowest?.jobId !== jobId || shown < lowest.seconds)) {
      setLowest({ jobId, seconds: shown });
    }
  }, [jobId, lowest, shown]);
  return shown;
}
