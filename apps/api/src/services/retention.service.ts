import { userPrefix, type Storage } from '@studioshot/storage';
import type { Logger } from '@studioshot/observability';
import type { DataExportsRepository } from '../repositories/data-exports.repository.js';
import type { RetentionRepository } from '../repositories/retention.repository.js';

/** What one purge removed (and kept), for the log and the scheduler's record. */
export interface PurgeReport {
  /** Photo sets whose photos were deleted. */
  photo_sets: number;
  /** Photo rows deleted. */
  photos: number;
  /** Stored objects deleted: the photos' originals, optimised copies and thumbnails. */
  files: number;
  /** Export zips past their day, deleted. */
  exports: number;
  /** Sets due but kept: their model still needs its photos for a one-time rebuild. */
  held_for_rebuild: number;
}

export interface RetentionDeps {
  retention: RetentionRepository;
  exports: DataExportsRepository;
  storage: Storage;
  /** Training photos are kept this many days after their training finishes. */
  photoRetentionDays: number;
  logger: Logger;
}

const DAY_MS = 86_400_000;

/** When the purge takes a set's photos: its retention period after its training finished. */
export function photosPurgeDueAt(trainingFinishedAt: Date, photoRetentionDays: number): Date {
  return new Date(trainingFinishedAt.getTime() + photoRetentionDays * DAY_MS);
}

/**
 * What we promise not to keep: training photos a set time after their training finished, and
 * export zips a day after they were built. Generated headshots stay until their owner deletes
 * them. Idempotent: files go first (deleting a missing object is no error), then the rows and the
 * set's purged mark together, so a purge stopped anywhere is finished by the next one, and a purge
 * with nothing due removes nothing and says so.
 */
export class RetentionService {
  constructor(private readonly deps: RetentionDeps) {}

  async purge(now = new Date()): Promise<PurgeReport> {
    const { retention, exports, storage, photoRetentionDays, logger } = this.deps;
    const finishedBefore = new Date(now.getTime() - photoRetentionDays * DAY_MS);
    const report: PurgeReport = {
      photo_sets: 0,
      photos: 0,
      files: 0,
      exports: 0,
      held_for_rebuild: await retention.heldForRebuild(finishedBefore),
    };

    for (const set of await retention.purgeableSets(finishedBefore)) {
      const photos = await retention.listPhotoFiles(set.sessionId);
      // The set's folder holds every file of its photos; a key outside it (a layout older than
      // the per-person one) is deleted by name.
      const folder = `${userPrefix(set.userId)}photos/${set.sessionId}/`;
      report.files += await storage.deletePrefix(folder);
      for (const photo of photos) {
        for (const key of [photo.original_key, photo.optimized_key, photo.thumbnail_key]) {
          if (key.startsWith(folder) || !(await storage.exists(key))) continue;
          await storage.delete(key);
          report.files += 1;
        }
      }
      const deleted = await retention.deletePhotos(set.sessionId, now);
      if (deleted === null) continue;
      report.photos += deleted;
      report.photo_sets += 1;
    }

    for (const expired of await exports.listExpired(now)) {
      if (expired.storage_key) await storage.delete(expired.storage_key);
      await exports.markExpired(expired.id);
      report.exports += 1;
    }

    logger.info({ ...report, photoRetentionDays }, 'retention purge');
    return report;
  }
}
