import type { PhotoSet } from '@studioshot/contracts';
import type { PhotoSetsRepository } from '../repositories/photo-sets.repository.js';
import { photosPurgeDueAt } from './retention.service.js';
import { effectiveStatus } from './uploads.service.js';

/**
 * The user's photo sets as the settings page lists them, each with what it holds, the model
 * trained from it, and when the retention purge takes (or took) its photos, so a person can see
 * what we keep and delete a set sooner (PhotoSetDeletionService).
 */
export class PhotoSetsService {
  constructor(
    private readonly deps: {
      photoSets: PhotoSetsRepository;
      /** Training photos are kept this many days after their training finishes. */
      photoRetentionDays: number;
    },
  ) {}

  async list(userId: string): Promise<PhotoSet[]> {
    const rows = await this.deps.photoSets.list(userId);
    return rows.map((row) => {
      const purged = row.photos_purged_at !== null;
      return {
        id: row.id,
        status: effectiveStatus(row),
        created_at: row.created_at.toISOString(),
        photo_count: row.photo_count,
        photos_purged_at: row.photos_purged_at?.toISOString() ?? null,
        photos_purge_due_at:
          !purged && row.purge_counted_from
            ? photosPurgeDueAt(row.purge_counted_from, this.deps.photoRetentionDays).toISOString()
            : null,
        model:
          row.model_id && row.model_name && row.model_status
            ? { id: row.model_id, name: row.model_name, status: row.model_status }
            : null,
      };
    });
  }
}
