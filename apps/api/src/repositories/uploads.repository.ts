import { type Model, selectModels, type Database, type Db } from '@studioshot/db';
import { sql, type Insertable, type Selectable } from 'kysely';

export type UploadSession = Selectable<Database['upload_sessions']>;
export type Photo = Selectable<Database['photos']>;
export type { Model };

export class UploadsRepository {
  constructor(private readonly db: Db) {}

  createSession(input: {
    userId: string;
    sessionType: string;
    expectedFiles: number;
    expiresAt: Date;
  }): Promise<UploadSession> {
    return this.db
      .insertInto('upload_sessions')
      .values({
        user_id: input.userId,
        session_type: input.sessionType,
        expected_files: input.expectedFiles,
        expires_at: input.expiresAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  findSession(id: string): Promise<UploadSession | undefined> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  listPhotos(sessionId: string): Promise<Photo[]> {
    return this.db
      .selectFrom('photos')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('created_at')
      .execute();
  }

  findPhoto(id: string): Promise<Photo | undefined> {
    return this.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Adds a photo to a session while holding the session's row lock, so the 20-photo limit and the
   * session's state hold even when uploads race. `check` sees the locked session and its count and
   * throws to refuse.
   */
  async addPhoto(
    sessionId: string,
    check: (session: UploadSession, photoCount: number) => void,
    photo: Omit<Insertable<Database['photos']>, 'session_id'>,
  ): Promise<Photo | 'duplicate'> {
    return this.db.transaction().execute(async (trx) => {
      const session = await trx
        .selectFrom('upload_sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const { n } = await trx
        .selectFrom('photos')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('session_id', '=', sessionId)
        .executeTakeFirstOrThrow();
      check(session, Number(n));
      const inserted = await trx
        .insertInto('photos')
        .values({ ...photo, session_id: sessionId })
        .onConflict((oc) => oc.columns(['session_id', 'content_hash']).doNothing())
        .returningAll()
        .executeTakeFirst();
      return inserted ?? 'duplicate';
    });
  }

  /**
   * Removes a photo from a session that is still open, under the session's row lock (the lock
   * completing takes), so a photo never leaves a set that is being counted for training. Returns
   * the photo, so its files can be deleted; 'closed' once the session is complete.
   */
  async deletePhoto(photoId: string, userId: string): Promise<Photo | 'not_found' | 'closed'> {
    return this.db.transaction().execute(async (trx) => {
      const photo = await trx
        .selectFrom('photos')
        .select('session_id')
        .where('id', '=', photoId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!photo) return 'not_found';
      const session = await trx
        .selectFrom('upload_sessions')
        .select('status')
        .where('id', '=', photo.session_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (session.status !== 'uploading') return 'closed';
      const deleted = await trx
        .deleteFrom('photos')
        .where('id', '=', photoId)
        .returningAll()
        .executeTakeFirst();
      // Gone meanwhile: a second delete of the same photo waited on the lock.
      return deleted ?? 'not_found';
    });
  }

  /**
   * Records the owner's "This is me" on a photo, under its session's row lock (the lock the photo
   * checks take to write verdicts, and completing takes to count), so the overrule and a verdict
   * landing meanwhile cannot race. `decide` sees the locked session and the photo, throws to
   * refuse, and answers whether the photo then counts for training. The first confirmation's time
   * and author are kept: a repeat changes nothing.
   */
  async confirmSamePerson(
    photoId: string,
    userId: string,
    decide: (session: UploadSession, photo: Photo) => boolean,
  ): Promise<Photo | 'not_found'> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('photos')
        .select('session_id')
        .where('id', '=', photoId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!owned) return 'not_found';
      const session = await trx
        .selectFrom('upload_sessions')
        .selectAll()
        .where('id', '=', owned.session_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const photo = await trx
        .selectFrom('photos')
        .selectAll()
        .where('id', '=', photoId)
        .executeTakeFirst();
      // Removed while this waited on the lock.
      if (!photo) return 'not_found';
      const usable = decide(session, photo);
      return trx
        .updateTable('photos')
        .set({
          same_person_confirmed_at: sql`coalesce(same_person_confirmed_at, now())`,
          same_person_confirmed_by: sql`coalesce(same_person_confirmed_by, ${userId}::uuid)`,
          usable,
        })
        .where('id', '=', photoId)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /**
   * uploading -> completed, under the session's row lock, which adding and deleting photos take
   * too: `check` sees the locked session and its photos and throws to refuse, and no photo can
   * join or leave the set between that count and the status change.
   */
  async completeSession(
    id: string,
    check: (session: UploadSession, photos: Photo[]) => void,
  ): Promise<{ session: UploadSession; photos: Photo[] }> {
    return this.db.transaction().execute(async (trx) => {
      const locked = await trx
        .selectFrom('upload_sessions')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const photos = await trx
        .selectFrom('photos')
        .selectAll()
        .where('session_id', '=', id)
        .orderBy('created_at')
        .execute();
      check(locked, photos);
      const session = await trx
        .updateTable('upload_sessions')
        .set({ status: 'completed', completed_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { session, photos };
    });
  }

  listModels(userId: string): Promise<Model[]> {
    return selectModels(this.db)
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .execute();
  }
}
