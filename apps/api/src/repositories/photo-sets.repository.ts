import type { Db } from '@studioshot/db';
import { sql } from 'kysely';
import { setPurgeable, setsWithTraining, setTrainingFinishedAt } from './retention.repository.js';

/** A photo set as its owner's list reads it (see PhotoSetsService). */
export interface PhotoSetRow {
  id: string;
  status: 'uploading' | 'completed';
  expires_at: Date;
  created_at: Date;
  photo_count: number;
  photos_purged_at: Date | null;
  /** When its training finished, if the purge will take its photos once their time is up. */
  purge_counted_from: Date | null;
  model_id: string | null;
  model_name: string | null;
  model_status: 'pending' | 'training' | 'completed' | 'failed' | null;
}

/** The user's photo sets, read for the settings page. */
export class PhotoSetsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The sets that hold photos, had them purged, or trained a model, newest first; a set opened
   * and left empty holds nothing of the person and is not one.
   */
  async list(userId: string): Promise<PhotoSetRow[]> {
    const rows = await setsWithTraining(this.db)
      .select((eb) => [
        's.id',
        's.status',
        's.expires_at',
        's.created_at',
        's.photos_purged_at',
        'm.id as model_id',
        'm.name as model_name',
        'm.status as model_status',
        eb
          .selectFrom('photos as p')
          .select((count) => count.fn.countAll<string>().as('n'))
          .whereRef('p.session_id', '=', 's.id')
          .as('photo_count'),
        sql<Date | null>`case when ${setPurgeable} then ${setTrainingFinishedAt} end`.as(
          'purge_counted_from',
        ),
      ])
      .where('s.user_id', '=', userId)
      .where((eb) =>
        eb.or([
          eb.exists(
            eb.selectFrom('photos as p').select('p.id').whereRef('p.session_id', '=', 's.id'),
          ),
          eb('s.photos_purged_at', 'is not', null),
          eb('s.training_id', 'is not', null),
        ]),
      )
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id')
      .execute();
    return rows.map((row) => ({ ...row, photo_count: Number(row.photo_count ?? 0) }));
  }
}
