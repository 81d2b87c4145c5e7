import { selectModels, type Db } from '@studioshot/db';
import { sql } from 'kysely';

/**
 * The artifact format generation reads without the photos; an older completed model is rebuilt
 * from its photos at its first generation (the worker's generate step), so they are kept for it.
 */
const GENERATION_ARTIFACT_FORMAT = 2;

/** The set's model (joined as `m`) is completed in an older format: its photos are still needed. */
const modelNeedsPhotos = sql<boolean>`coalesce(m.status = 'completed' and coalesce(m.artifact_format, 0) < ${GENERATION_ARTIFACT_FORMAT}, false)`;

/**
 * Photo sets (`s`) joined with their training's task (`t`) and model (`m`), both on
 * `s.training_id`: what makes a set's photos due for the purge, read by the purge and by the
 * owner's list that shows the date.
 */
export function setsWithTraining(db: Db) {
  return db
    .selectFrom('upload_sessions as s')
    .leftJoin('tasks as t', 't.id', 's.training_id')
    .leftJoin(selectModels(db).selectAll().as('m'), (join) =>
      join.onRef('m.id', '=', 's.training_id'),
    );
}

/**
 * A training from the set has finished (completed, failed or cancelled) and its model does not
 * need the photos.
 */
export const setPurgeable = sql<boolean>`(s.training_id is not null and (t.id is null or t.status in ('completed', 'failed', 'cancelled')) and not ${modelNeedsPhotos})`;

/** When the set's training finished; with its task gone, the last date known of the model or set. */
export const setTrainingFinishedAt = sql<Date>`coalesce(t.completed_at, m.updated_at, s.completed_at, s.created_at)`;

export interface PurgeableSet {
  sessionId: string;
  userId: string;
}

export interface PhotoFiles {
  id: string;
  original_key: string;
  optimized_key: string;
  thumbnail_key: string;
}

/** What the retention purge reads and deletes in Postgres. */
export class RetentionRepository {
  constructor(private readonly db: Db) {}

  /**
   * Photo sets whose training finished (completed, failed or cancelled) before `finishedBefore`,
   * photos not yet purged. A set whose training is still to run or running is never one, nor is
   * one whose completed model predates generation's artifact format (it still needs them).
   */
  async purgeableSets(finishedBefore: Date): Promise<PurgeableSet[]> {
    const rows = await setsWithTraining(this.db)
      .select(['s.id', 's.user_id'])
      .where('s.photos_purged_at', 'is', null)
      .where(setPurgeable)
      .where(setTrainingFinishedAt, '<=', finishedBefore)
      .orderBy('s.created_at')
      .execute();
    return rows.map((row) => ({ sessionId: row.id, userId: row.user_id }));
  }

  /** Sets otherwise due whose photos are kept because their model still needs them. */
  async heldForRebuild(finishedBefore: Date): Promise<number> {
    const { n } = await setsWithTraining(this.db)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('s.photos_purged_at', 'is', null)
      .where('t.status', '=', 'completed')
      .where('t.completed_at', '<=', finishedBefore)
      .where(modelNeedsPhotos)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  listPhotoFiles(sessionId: string): Promise<PhotoFiles[]> {
    return this.db
      .selectFrom('photos')
      .select(['id', 'original_key', 'optimized_key', 'thumbnail_key'])
      .where('session_id', '=', sessionId)
      .execute();
  }

  /**
   * Deletes the set's photo rows and marks it purged, together, once its files are gone; a
   * repeat (or a set purged meanwhile) deletes nothing. Answers the rows deleted, or null when
   * the set was already purged.
   */
  async deletePhotos(sessionId: string, now: Date): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('upload_sessions')
        .set({ photos_purged_at: now })
        .where('id', '=', sessionId)
        .where('photos_purged_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!marked) return null;
      const deleted = await trx.deleteFrom('photos').where('session_id', '=', sessionId).execute();
      return deleted.reduce((sum, result) => sum + Number(result.numDeletedRows), 0);
    });
  }
}
