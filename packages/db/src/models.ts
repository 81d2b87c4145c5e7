import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from './client.js';
import type { Database } from './schema.js';

/**
 * The personal models' table has its home here: every read and write of it, by the API, the
 * worker and the task store's end effects, goes through this module (a lint rule refuses the
 * table's name anywhere else in the server code).
 */

export type Model = Selectable<Database['models']>;

/**
 * Reads of models: select from it (`selectModels(db).select([...]).where(...)`), or join it as a
 * derived table (`leftJoin(selectModels(db).selectAll().as('m'), (j) => j.onRef(...))`), which
 * Postgres plans like the table itself.
 */
export function selectModels(db: Db) {
  return db.selectFrom('models');
}

/** A new model, waiting for its training; answers its id. */
export async function insertModel(
  db: Db,
  values: Insertable<Database['models']>,
): Promise<{ id: string }> {
  return db.insertInto('models').values(values).returning('id').executeTakeFirstOrThrow();
}

/** Its training started an attempt: training, unless it already finished. */
export async function modelTrainingStarted(db: Db, modelId: string): Promise<void> {
  await db
    .updateTable('models')
    .set({ status: 'training', updated_at: sql`now()` })
    .where('id', '=', modelId)
    .where('status', 'in', ['pending', 'training'])
    .execute();
}

/** What a finished training stored for its model. */
export interface ModelArtifact {
  artifactKey: string;
  artifactFormat: number;
  /** Of the usable photos trained on: generation ranks its images against them. */
  faceDescriptors: number[][];
}

/** Its training completed: the model is ready with its artifact (once). */
export async function modelTrained(db: Db, modelId: string, artifact: ModelArtifact) {
  await db
    .updateTable('models')
    .set({
      status: 'completed',
      artifact_key: artifact.artifactKey,
      artifact_format: artifact.artifactFormat,
      face_descriptors: JSON.stringify(artifact.faceDescriptors),
      updated_at: sql`now()`,
    })
    .where('id', '=', modelId)
    .where('status', '!=', 'completed')
    .execute();
}

/**
 * Its training ended without a model: failed, and let go of its photo set (so the same photos
 * can train again). Answers whether this call failed it (once: not when already final).
 */
export async function modelFailed(db: Db, modelId: string): Promise<boolean> {
  const failed = await db
    .updateTable('models')
    .set({ status: 'failed', session_id: null, updated_at: sql`now()` })
    .where('id', '=', modelId)
    .where('status', 'not in', ['completed', 'failed'])
    .returning('id')
    .executeTakeFirst();
  return failed !== undefined;
}

/** An artifact rebuilt in a newer format replaces an older one (never a newer one). */
export async function upgradeModelArtifact(
  db: Db,
  modelId: string,
  artifact: ModelArtifact,
): Promise<void> {
  await db
    .updateTable('models')
    .set({
      artifact_key: artifact.artifactKey,
      artifact_format: artifact.artifactFormat,
      face_descriptors: JSON.stringify(artifact.faceDescriptors),
      updated_at: sql`now()`,
    })
    .where('id', '=', modelId)
    .where((eb) =>
      eb.or([
        eb('artifact_format', 'is', null),
        eb('artifact_format', '<', artifact.artifactFormat),
      ]),
    )
    .execute();
}

/** The artifact's object moved: the row follows only if it still names `from`. */
export async function moveModelArtifact(
  db: Db,
  modelId: string,
  from: string,
  to: string,
): Promise<boolean> {
  const result = await db
    .updateTable('models')
    .set({ artifact_key: to })
    .where('id', '=', modelId)
    .where('artifact_key', '=', from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The model's row goes (its deletion's last step, after its files and tasks). */
export async function deleteModelRow(db: Db, modelId: string): Promise<void> {
  await db.deleteFrom('models').where('id', '=', modelId).execute();
}
