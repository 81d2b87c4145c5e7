import { MESSAGES } from '@studioshot/contracts/messages';
import type { KeyValueStorage } from '../../lib/storage';
import type { RealtimeState } from '../../lib/ws-client';
import type { TrainingJob, TrainingStatus, UserModel } from './training-api';

/**
 * Timing of the training screens (docs/spec/calls.md#74-training, docs/spec/constants.md#timing).
 */
export const TRAINING_POLL_MS = 5_000;
/** trainingStatusChanged goes out this long after a status becomes completed or failed. */
export const STATUS_EVENT_DELAY_MS = 1_000;
export const STATUS_CHANGED_EVENT = 'trainingStatusChanged';
/** /training/{id}: to the dashboard after completion; longer when opened from the model list. */
export const COMPLETED_REDIRECT_MS = 2_000;
export const COMPLETED_REDIRECT_FROM_LIST_MS = 3_000;
/** /training/start: to the dashboard after starting. */
export const STARTED_REDIRECT_MS = 3_000;
/** The smallest width the progress bar is drawn at (percent). */
export const MIN_BAR_PERCENT = 5;
export const MODEL_NAME_MAX = 80;

export const FINAL_STATUSES: readonly TrainingStatus[] = ['completed', 'failed'];

export function isActiveStatus(status: TrainingStatus): boolean {
  return status === 'pending' || status === 'training';
}

export function isFinalStatus(status: TrainingStatus): status is 'completed' | 'failed' {
  return status === 'completed' || status === 'failed';
}

export function clampProgress(progress: number | null | undefined): number {
  const value = typeof progress === 'number' && Number.isFinite(progress) ? progress : 0;
  return Math.round(Math.min(100, Math.max(0, value)));
}

/** The drawn width of a progress bar (docs/spec/constants.md): never under 5%. */
export function barWidth(progress: number | null | undefined): number {
  return Math.max(MIN_BAR_PERCENT, clampProgress(progress));
}

export function displayName(job: Pick<TrainingJob, 'name' | 'model_name'>): string {
  return job.name.trim() || job.model_name.trim() || 'Your model';
}

/** The error toast (error catalogue): 'training failed: {error_message or Unknown error}'. */
export function failureToastMessage(errorMessage: string | null | undefined): string {
  return MESSAGES.trainingFailedToast.replace(
    '{error_message}',
    errorMessage?.trim() || MESSAGES.unknownError,
  );
}

export function successToastMessage(name: string): string {
  return `${name} is ready! You can generate headshots now.`;
}

export interface StatusChange {
  job: TrainingJob;
  from: TrainingStatus;
  to: 'completed' | 'failed';
}

/**
 * The jobs whose status became completed or failed since last seen. A job seen for the first
 * time is no change: one that finished before we looked is not news.
 */
export function detectChanges(
  seen: ReadonlyMap<string, TrainingStatus>,
  jobs: readonly TrainingJob[],
): StatusChange[] {
  const changes: StatusChange[] = [];
  for (const job of jobs) {
    const from = seen.get(job.id);
    if (from === undefined || from === job.status || !isFinalStatus(job.status)) continue;
    changes.push({ job, from, to: job.status });
  }
  return changes;
}

/** A status that was announced, as stored: `${id}:${status}`. */
export function announcementKey(id: string, status: TrainingStatus): string {
  return `${id}:${status}`;
}

const ANNOUNCEMENTS_KEY = 'trainingAnnouncements';
const ANNOUNCEMENTS_KEPT = 200;

/**
 * The toasts already shown, shared by every tab and kept across reloads: a job's completion or
 * failure is announced once, whichever poll, push, page or tab sees it first.
 */
export function createAnnouncementLog(storage: KeyValueStorage, key: string = ANNOUNCEMENTS_KEY) {
  function read(): string[] {
    try {
      const parsed: unknown = JSON.parse(storage.getItem(key) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      return [];
    }
  }
  return {
    has(id: string, status: TrainingStatus): boolean {
      return read().includes(announcementKey(id, status));
    },
    /** Records the announcement; false when it had already been made. */
    claim(id: string, status: TrainingStatus): boolean {
      const entry = announcementKey(id, status);
      const entries = read();
      if (entries.includes(entry)) return false;
      entries.push(entry);
      try {
        storage.setItem(key, JSON.stringify(entries.slice(-ANNOUNCEMENTS_KEPT)));
      } catch {
        // Storage full or blocked: announce anyway, at worst twice.
      }
      return true;
    },
  };
}
export type AnnouncementLog = ReturnType<typeof createAnnouncementLog>;

/** The toast for a finished job, or null when it was announced already (or is not finished). */
export function announcementFor(
  job: TrainingJob,
  log: AnnouncementLog,
): { kind: 'success' | 'error'; message: string } | null {
  if (!isFinalStatus(job.status)) return null;
  if (!log.claim(job.id, job.status)) return null;
  return job.status === 'completed'
    ? { kind: 'success', message: successToastMessage(displayName(job)) }
    : { kind: 'error', message: failureToastMessage(job.error_message) };
}

export type ConnectionState = 'connected' | 'reconnecting' | 'offline';

/**
 * The connection indicator. Live when the realtime channel is up, or the 5 s poll is answering
 * (a 404 counts as connected); reconnecting while the channel is retrying; otherwise offline.
 */
export function connectionState(input: {
  realtime: RealtimeState;
  pollOk: boolean;
  online: boolean;
}): ConnectionState {
  if (!input.online) return 'offline';
  if (input.realtime === 'open' || input.pollOk) return 'connected';
  if (input.realtime === 'connecting' || input.realtime === 'reconnecting') return 'reconnecting';
  return 'offline';
}

/** Finished jobs stay in the global banner this long (unless dismissed). */
export const BANNER_RECENT_MS = 24 * 60 * 60 * 1000;

/**
 * The job the global status banner speaks of: the newest one in progress; else the newest job
 * if it finished recently. Dismissed job+status pairs are skipped.
 */
export function bannerJob(
  jobs: readonly TrainingJob[],
  dismissed: ReadonlySet<string>,
  now: number = Date.now(),
): TrainingJob | null {
  const visible = (job: TrainingJob) => !dismissed.has(announcementKey(job.id, job.status));
  const active = jobs.find((job) => isActiveStatus(job.status));
  if (active) return visible(active) ? active : null;
  const latest = jobs[0];
  if (!latest || !isFinalStatus(latest.status) || !visible(latest)) return null;
  const finishedAt = Date.parse(latest.completed_at ?? latest.created_at);
  if (Number.isNaN(finishedAt) || now - finishedAt > BANNER_RECENT_MS) return null;
  return latest;
}

export interface ModelRow {
  id: string;
  name: string;
  model_type: string;
  status: TrainingStatus;
  created_at: string;
  progress: number;
  error_message: string | null;
  /** A training job backs this row (its live status wins over the model list's). */
  job: TrainingJob | null;
}

/**
 * The dashboard's models: the model list joined with the training jobs by id (a job's id is its
 * model's id). The job's status is fresher (5 s poll and pushes, against 10 s); a job with no
 * model row yet is listed from the job alone.
 */
export function mergeModels(
  models: readonly UserModel[],
  jobs: readonly TrainingJob[],
): ModelRow[] {
  const byId = new Map(jobs.map((job) => [job.id, job]));
  const rows: ModelRow[] = models.map((model) => {
    const job = byId.get(model.id) ?? null;
    byId.delete(model.id);
    const status = job?.status ?? model.status;
    return {
      id: model.id,
      name: model.name,
      model_type: model.model_type,
      status,
      created_at: model.created_at || job?.created_at || '',
      progress: status === 'completed' ? 100 : (job?.progress ?? 0),
      error_message: job?.error_message ?? null,
      job,
    };
  });
  for (const job of byId.values()) {
    rows.push({
      id: job.id,
      name: displayName(job),
      model_type: '',
      status: job.status,
      created_at: job.created_at,
      progress: job.progress,
      error_message: job.error_message,
      job,
    });
  }
  const time = (value: string) => {
    const t = Date.parse(value);
    return Number.isNaN(t) ? 0 : t;
  };
  return rows.sort((a, b) => time(b.created_at) - time(a.created_at));
}

export type DashboardBanner =
  | { kind: 'training'; count: number }
  | { kind: 'ready' }
  | { kind: 'failed'; count: number }
  | null;

/**
 * The dashboard banner (product spec): a model still in progress means training is active;
 * otherwise, with models, 'All models ready!'. Failed models are not ready, so they get their own.
 */
export function dashboardBanner(rows: readonly ModelRow[]): DashboardBanner {
  if (rows.length === 0) return null;
  const active = rows.filter((row) => isActiveStatus(row.status)).length;
  if (active > 0) return { kind: 'training', count: active };
  const failed = rows.filter((row) => row.status === 'failed').length;
  if (failed > 0) return { kind: 'failed', count: failed };
  return { kind: 'ready' };
}

interface NamedUser {
  name?: string | null;
  full_name?: string | null;
  first_name?: string | null;
  email?: string | null;
}

/**
 * A model's suggested name, with the day it is trained so two models never read the same in the
 * picker: "Ada's Headshot Model, 27 Nov 2026", else "My Headshot Model, 27 Nov 2026".
 */
export function defaultModelName(user: NamedUser | null | undefined, now = new Date()): string {
  const candidates = [user?.first_name, user?.name, user?.full_name]
    .map((value) => value?.trim())
    .filter((value): value is string => Boolean(value));
  const first = candidates[0]?.split(/\s+/)[0];
  const owner = !first ? 'My' : /s$/i.test(first) ? `${first}'` : `${first}'s`;
  const day = now.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
  const suffix = ` Headshot Model, ${day}`;
  return `${owner.slice(0, MODEL_NAME_MAX - suffix.length)}${suffix}`;
}

/** First 8 characters of an id, as the model list shows it. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** The lower of two remaining times, either unknown (null); unknown only when both are. */
export function lowerOf(previous: number | null, next: number | null): number | null {
  if (previous === null) return next;
  if (next === null) return previous;
  return Math.min(previous, next);
}
