import { appStorage, createMemoryStorage, type KeyValueStorage } from '../../lib/storage';
import { toast } from '../../lib/toast';
import type { TrainingJob, TrainingStatus } from './training-api';
import {
  announcementFor,
  createAnnouncementLog,
  detectChanges,
  STATUS_CHANGED_EVENT,
  STATUS_EVENT_DELAY_MS,
} from './training-logic';

/**
 * Watches every training answer (polls, single-job reads, /ws pushes, the start answer) in one
 * place, so a job's completion or failure is toasted once and trainingStatusChanged fires once
 * per change, however many components show the job.
 *
 * The last status seen per job lives in sessionStorage, so a reload mid-training still notices
 * the change; what was announced lives in localStorage (see createAnnouncementLog), so no tab,
 * poll or remount repeats a toast.
 */

const SEEN_KEY = 'trainingSeenStatuses';
const SEEN_KEPT = 200;

function resolveSessionStorage(): KeyValueStorage {
  try {
    const storage = window.sessionStorage;
    storage.getItem(SEEN_KEY);
    return storage;
  } catch {
    return createMemoryStorage();
  }
}

const seenStorage: KeyValueStorage =
  typeof window === 'undefined' ? createMemoryStorage() : resolveSessionStorage();
const announcements = createAnnouncementLog(appStorage);

function loadSeen(): Map<string, TrainingStatus> {
  try {
    const parsed: unknown = JSON.parse(seenStorage.getItem(SEEN_KEY) ?? '[]');
    if (Array.isArray(parsed)) {
      return new Map(
        parsed.filter(
          (entry): entry is [string, TrainingStatus] =>
            Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string',
        ),
      );
    }
  } catch {
    // Unreadable: start afresh.
  }
  return new Map();
}

let seen = loadSeen();

function saveSeen(): void {
  try {
    seenStorage.setItem(SEEN_KEY, JSON.stringify([...seen].slice(-SEEN_KEPT)));
  } catch {
    // Storage blocked: this tab still remembers.
  }
}

/** Toasts a finished job unless it was announced before (here, in another tab, or earlier). */
export function announceJob(job: TrainingJob): void {
  const announcement = announcementFor(job, announcements);
  if (announcement) toast[announcement.kind](announcement.message);
}

/** Records what the jobs say; announces and signals the ones that just finished. */
export function observeJobs(jobs: readonly TrainingJob[]): void {
  if (jobs.length === 0) return;
  const changes = detectChanges(seen, jobs);
  for (const job of jobs) {
    // Re-inserting keeps the most recently seen jobs at the end, where the cap keeps them.
    seen.delete(job.id);
    seen.set(job.id, job.status);
  }
  saveSeen();
  if (changes.length === 0) return;
  for (const change of changes) announceJob(change.job);
  setTimeout(() => window.dispatchEvent(new Event(STATUS_CHANGED_EVENT)), STATUS_EVENT_DELAY_MS);
}

/**
 * The person is deleting this model: its training ending cancelled is what they asked for, not a
 * failure to announce (in this tab or another).
 */
export function silenceJob(id: string): void {
  announcements.claim(id, 'failed');
}

/** Test helper: forget what this tab has seen. */
export function resetTrainingTracker(): void {
  seen = new Map();
  seenStorage.removeItem(SEEN_KEY);
}
