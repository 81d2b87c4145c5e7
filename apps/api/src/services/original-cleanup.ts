import type { Database, Db } from '@studioshot/db';
import { ObjectNotFoundError, type Storage } from '@studioshot/storage';
import { fileTypeFromFile } from 'file-type';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { LayoutLogger } from './storage-layout.js';
import type { PhotoFormat, PhotoProcessingService } from './photo-processing.js';

/**
 * The one-time cleaning of originals stored before uploads were re-encoded: each is rewritten at
 * its own key upright and without metadata (no EXIF, so no GPS position), exactly as an upload is
 * now (PhotoProcessingService.cleanOriginal), and its row marked `original_clean`. The marker makes
 * it run once per photo: a later run finds nothing to do with one indexed query.
 *
 * Per photo, in an order that loses nothing wherever it stops: the object is re-encoded from a
 * local copy, then, holding the photo's row lock (a deletion of the photo waits), written over the
 * old one and the row marked, in one transaction. A stop before the commit leaves the row
 * unmarked (the next run cleans it again: the same result). A photo deleted meanwhile is skipped,
 * so no object is written back for a row that is gone.
 *
 * Runs in the migrate CLI, after the storage layout move. A Postgres advisory lock lets one process
 * at a time do it; the others skip.
 */

export interface OriginalCleanupReport {
  /** False when another process held the lock, and this one did nothing. */
  ran: boolean;
  /** Originals rewritten without metadata. */
  cleaned: number;
  /** Rows whose original was missing from storage (marked: there is nothing left to clean). */
  missing: number;
  /** Originals that could not be cleaned (logged); the next run tries again. */
  failed: number;
}

const FORMAT_BY_MIME: Record<string, PhotoFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
};

// Any fixed number other than the storage layout's: the same in every process.
const LOCK_KEY = 7_351_420_912;

export async function cleanStoredOriginals(
  db: Db,
  storage: Storage,
  photos: Pick<PhotoProcessingService, 'cleanOriginal'>,
  logger: LayoutLogger,
  options: { batchSize?: number } = {},
): Promise<OriginalCleanupReport> {
  const batchSize = options.batchSize ?? 100;
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`SELECT pg_try_advisory_lock(${LOCK_KEY}::bigint) AS locked`.execute(conn);
    if (!rows[0]?.locked) {
      logger.info({}, 'original cleanup: another process is cleaning; skipped');
      return { ran: false, cleaned: 0, missing: 0, failed: 0 };
    }
    const report: OriginalCleanupReport = { ran: true, cleaned: 0, missing: 0, failed: 0 };
    const work = await mkdtemp(path.join(tmpdir(), 'studioshot-originals-'));
    try {
      let after: string | undefined;
      for (;;) {
        const batch = await conn
          .selectFrom('photos')
          .select(['id', 'original_key', 'mime_type'])
          .where('original_clean', '=', false)
          .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
          .orderBy('id')
          .limit(batchSize)
          .execute();
        for (const photo of batch) {
          const outcome = await cleanOne(conn, storage, photos, work, photo).catch(
            (error: unknown) => {
              logger.warn(
                { err: error, photoId: photo.id },
                'original cleanup: could not clean an original; the next run retries',
              );
              return 'failed' as const;
            },
          );
          if (outcome !== 'gone') report[outcome] += 1;
        }
        if (batch.length < batchSize) break;
        after = batch[batch.length - 1]!.id;
      }
      if (report.cleaned + report.missing + report.failed > 0) {
        logger[report.failed ? 'warn' : 'info'](
          report,
          `original cleanup: ${report.cleaned} stored originals rewritten without metadata`,
        );
      }
      return report;
    } finally {
      await rm(work, { recursive: true, force: true });
      await sql`SELECT pg_advisory_unlock(${LOCK_KEY}::bigint)`.execute(conn);
    }
  });
}

type Conn = Kysely<Database>;

async function cleanOne(
  conn: Conn,
  storage: Storage,
  photos: Pick<PhotoProcessingService, 'cleanOriginal'>,
  work: string,
  photo: { id: string; original_key: string; mime_type: string },
): Promise<'cleaned' | 'missing' | 'gone'> {
  const markClean = (trx: Conn) =>
    trx
      .updateTable('photos')
      .set({ original_clean: true })
      .where('id', '=', photo.id)
      .where('original_key', '=', photo.original_key)
      .executeTakeFirst()
      .then((result) => result.numUpdatedRows > 0n);

  let local: Awaited<ReturnType<Storage['localFile']>>;
  try {
    local = await storage.localFile(photo.original_key);
  } catch (error) {
    if (!(error instanceof ObjectNotFoundError)) throw error;
    return (await markClean(conn)) ? 'missing' : 'gone';
  }
  const output = path.join(work, `${photo.id}.clean`);
  let format: PhotoFormat | undefined;
  try {
    // The format by magic bytes, as at upload; the row's type if the bytes say nothing we take.
    const detected = await fileTypeFromFile(local.path);
    format = FORMAT_BY_MIME[detected?.mime ?? ''] ?? FORMAT_BY_MIME[photo.mime_type];
    if (!format) throw new Error(`original of photo ${photo.id} is not JPEG, PNG or WebP`);
    await photos.cleanOriginal(local.path, output, format);
  } finally {
    await local.release();
  }
  try {
    return await conn.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('photos')
        .select('id')
        .where('id', '=', photo.id)
        .where('original_key', '=', photo.original_key)
        .where('original_clean', '=', false)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return 'gone' as const; // deleted, moved or cleaned meanwhile
      await storage.putFile(photo.original_key, output, { contentType: `image/${format}` });
      await markClean(trx);
      return 'cleaned' as const;
    });
  } finally {
    await rm(output, { force: true });
  }
}
