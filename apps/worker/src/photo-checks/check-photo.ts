import {
  countsForTraining,
  type CheckPhotoJob,
  type PhotoVerdict,
  type RejudgePhotoSetJob,
} from '@studioshot/contracts';
import type { Database, Db } from '@studioshot/db';
import type { Kysely } from 'kysely';
import type { Storage } from '@studioshot/storage';
import type { Logger } from 'pino';
import {
  checkPhotoSet,
  PhotoUnreadableError,
  ZPhotoAnalysisSchema,
  type PhotoAnalysis,
  type PhotoAnalyzer,
} from './index.js';

export interface CheckPhotoDeps {
  db: Db;
  analyzer: Pick<PhotoAnalyzer, 'analyzePhoto'>;
  storage: Pick<Storage, 'localFile'>;
  logger: Logger;
}

const UNREADABLE: PhotoVerdict = {
  usable: false,
  checks: [],
  advice: ["We couldn't check this photo. Remove it and upload it again, or choose another photo."],
};

/**
 * Analyses one photo, then re-judges its whole set (same_person depends on the others) under the
 * session's row lock; a set already completed for training is left as it was counted.
 * Idempotent: a retried or duplicated job recomputes the same result.
 */
export async function checkPhoto(deps: CheckPhotoDeps, job: CheckPhotoJob): Promise<void> {
  const photo = await deps.db
    .selectFrom('photos')
    .select(['id', 'optimized_key', 'width', 'height'])
    .where('id', '=', job.photo_id)
    .executeTakeFirst();
  if (!photo) return; // removed by the user meanwhile: nothing to check

  let analysis: PhotoAnalysis | undefined;
  const copy = await deps.storage.localFile(photo.optimized_key);
  try {
    const measured = await deps.analyzer.analyzePhoto(copy.path);
    // The resolution check is about the photo as uploaded, not the 1024 px working copy.
    analysis = { ...measured, width: photo.width, height: photo.height };
  } catch (error) {
    if (!(error instanceof PhotoUnreadableError)) throw error;
    deps.logger.warn({ photoId: photo.id }, 'photo could not be decoded for checks');
  } finally {
    await copy.release();
  }

  await deps.db.transaction().execute(async (trx) => {
    if ((await lockSession(trx, job.session_id)) !== 'uploading') return;
    await trx
      .updateTable('photos')
      .set(
        analysis
          ? { analysis: JSON.stringify(analysis) }
          : {
              analysis: null,
              check_status: 'failed',
              usable: false,
              checks: JSON.stringify(UNREADABLE),
            },
      )
      .where('id', '=', photo.id)
      .execute();
    await judgeSet(trx, job.session_id);
  });
}

/** After a photo leaves a set, the others are judged again from their stored analyses. */
export async function rejudgePhotoSet(db: Db, job: RejudgePhotoSetJob): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if ((await lockSession(trx, job.session_id)) !== 'uploading') return;
    await judgeSet(trx, job.session_id);
  });
}

type Executor = Kysely<Database>;

/**
 * Serialises every verdict write of one set: two photos finishing together cannot race, nor a
 * verdict and the session's completion. Answers the session's status (undefined once deleted):
 * a completed set's verdicts are frozen, since they are what was counted for training.
 */
async function lockSession(trx: Executor, sessionId: string): Promise<string | undefined> {
  const session = await trx
    .selectFrom('upload_sessions')
    .select('status')
    .where('id', '=', sessionId)
    .forUpdate()
    .executeTakeFirst();
  return session?.status;
}

async function judgeSet(trx: Executor, sessionId: string): Promise<void> {
  const set = await trx
    .selectFrom('photos')
    .select(['id', 'analysis', 'same_person_confirmed_at'])
    .where('session_id', '=', sessionId)
    .where('analysis', 'is not', null)
    .orderBy('created_at')
    .execute();
  // Analyses of another analysis version are left out of the comparison.
  const valid = set.flatMap((p) => {
    const parsed = ZPhotoAnalysisSchema.safeParse(p.analysis);
    return parsed.success
      ? [{ id: p.id, analysis: parsed.data, confirmed: p.same_person_confirmed_at !== null }]
      : [];
  });
  const verdicts = checkPhotoSet(valid.map((a) => a.analysis));
  for (const [index, entry] of valid.entries()) {
    const verdict = verdicts[index]!;
    // The stored verdict stays the check's own; an owner's "This is me" only changes what counts.
    const usable = countsForTraining(verdict, entry.confirmed);
    await trx
      .updateTable('photos')
      .set({ check_status: 'done', usable, checks: JSON.stringify(verdict) })
      .where('id', '=', entry.id)
      .execute();
  }
}

/** After the last retry: the photo is reported, never left spinning. */
export async function markCheckFailed(db: Db, job: CheckPhotoJob): Promise<void> {
  await db
    .updateTable('photos')
    .set({ check_status: 'failed', usable: false, checks: JSON.stringify(UNREADABLE) })
    .where('id', '=', job.photo_id)
    .where('check_status', '=', 'pending')
    .execute();
}
