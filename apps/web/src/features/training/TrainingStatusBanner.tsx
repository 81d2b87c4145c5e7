import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { ProgressBar } from '../../components/ProgressBar';
import { appStorage } from '../../lib/storage';
import { useTrainingJobs } from './hooks';
import {
  AlertIcon,
  ArrowRightIcon,
  CheckCircleIcon,
  CrossIcon,
  SparkIcon,
} from '../../components/icons';
import { holdTrainingRealtime } from './realtime';
import type { TrainingJob } from './training-api';
import {
  announcementKey,
  bannerJob,
  clampProgress,
  displayName,
  MIN_BAR_PERCENT,
} from './training-logic';

const DISMISSED_KEY = 'trainingBannerDismissed';
const DISMISSED_KEPT = 100;

function readDismissed(): Set<string> {
  try {
    const parsed: unknown = JSON.parse(appStorage.getItem(DISMISSED_KEY) ?? '[]');
    return new Set(
      Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [],
    );
  } catch {
    return new Set();
  }
}

/** Dismissals, per job and status, kept across reloads (a new status shows again). */
function useDismissed() {
  const [dismissed, setDismissed] = useState(readDismissed);
  const dismiss = useCallback((job: TrainingJob) => {
    const next = new Set(readDismissed());
    next.add(announcementKey(job.id, job.status));
    try {
      appStorage.setItem(DISMISSED_KEY, JSON.stringify([...next].slice(-DISMISSED_KEPT)));
    } catch {
      // Blocked storage: dismissed for this page view only.
    }
    setDismissed(next);
  }, []);
  return [dismissed, dismiss] as const;
}

const TONES = {
  training: 'border-accent-200 bg-accent-50 text-accent-800',
  completed: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  failed: 'border-red-200 bg-red-50 text-red-900',
} as const;

/** The pages with a Generate button. */
const GENERATE_PAGES = new Set(['/generate', '/generate-trained']);

/**
 * Global status banner (product spec): training shows the model name, percent and a bar;
 * completed reads '{name} ready! Click to generate'; failed '{name} failed. Click to retry'.
 * Training and completed lead to /generate, failed to /upload. Dismissible per job and status.
 * It sits in the shell's status area at the bottom of the screen; the signed-in footer keeps room
 * for it.
 */
export function TrainingStatusBanner() {
  const jobs = useTrainingJobs();
  const location = useLocation();
  const [dismissed, dismiss] = useDismissed();
  const job = bannerJob(jobs.data ?? [], dismissed);

  // The training pages show the full status themselves.
  if (!job || location.pathname.startsWith('/training/')) return null;

  const name = displayName(job);
  const progress = clampProgress(job.progress);
  const kind = job.status === 'completed' || job.status === 'failed' ? job.status : 'training';
  // Where the user can already generate, "ready! Click to generate" has nothing to offer.
  if (kind === 'completed' && GENERATE_PAGES.has(location.pathname)) return null;
  const to = kind === 'failed' ? '/upload' : '/generate';
  const rest = kind === 'completed' ? 'ready! Click to generate' : 'failed. Click to retry';

  return (
    // In the shell's status area, fixed to the bottom of the screen (AppShell).
    <aside
      aria-label="Training status"
      className={`border-t shadow-[0_-4px_16px_rgb(28_25_23/0.08)] ${TONES[kind]}`}
    >
      <div className="mx-auto flex max-w-6xl items-center gap-2 px-4 py-2 sm:gap-3 sm:px-6">
        <Link
          to={to}
          // The words shown, as one phrase (the name and the rest are two boxes on screen).
          aria-label={kind === 'training' ? undefined : `${name} ${rest}`}
          // Only the training line wraps (its bar goes below on a phone); the others keep to one.
          className={`flex min-w-0 flex-1 items-center gap-x-3 gap-y-1.5 rounded-lg py-1 text-sm font-medium hover:underline hover:underline-offset-4 ${
            kind === 'training' ? 'flex-wrap sm:flex-nowrap' : 'flex-nowrap'
          }`}
        >
          {kind === 'training' ? (
            <SparkIcon className="size-5 shrink-0 animate-pulse" />
          ) : kind === 'completed' ? (
            <CheckCircleIcon className="size-5 shrink-0" />
          ) : (
            <AlertIcon className="size-5 shrink-0" />
          )}
          {kind === 'training' ? (
            <>
              <span className="min-w-0 flex-1 truncate sm:flex-initial">
                Training {name}
                {job.status === 'pending' ? ' (queued)' : ''}
              </span>
              <span className="shrink-0 tabular-nums">{progress}%</span>
              <ProgressBar
                className="order-last basis-full sm:order-none sm:w-32 sm:shrink-0 sm:basis-auto md:w-44"
                size="sm"
                value={progress}
                minVisible={MIN_BAR_PERCENT}
                label={`Training ${name}`}
              />
            </>
          ) : (
            <OneLine name={name} rest={rest} />
          )}
          <ArrowRightIcon className="size-4 shrink-0" />
        </Link>
        <button
          type="button"
          onClick={() => dismiss(job)}
          aria-label="Dismiss training status"
          className="-mr-1 shrink-0 rounded-lg p-1.5 opacity-70 hover:bg-stone-900/5 hover:opacity-100"
        >
          <CrossIcon />
        </button>
      </div>
    </aside>
  );
}

/** '{name} {rest}' on one line: a long name is cut short, never what it asks the user to do. */
function OneLine({ name, rest }: { name: string; rest: string }) {
  return (
    <span className="flex min-w-0 flex-1 sm:flex-initial">
      <span className="min-w-0 truncate">{name}</span>
      <span className="shrink-0 whitespace-pre">{` ${rest}`}</span>
    </span>
  );
}

/**
 * Mounted by the shell while signed in: holds the realtime channel and the 5 s jobs poll (via
 * the banner), so every page gets training pushes, toasts and trainingStatusChanged.
 */
export function TrainingGlobal() {
  useEffect(() => holdTrainingRealtime(), []);
  return <TrainingStatusBanner />;
}
