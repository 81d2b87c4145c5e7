import { selectModels, type Db, type Task } from '@studioshot/db';
import {
  faceDescriptor,
  identityFaces,
  ZPhotoAnalysisSchema,
  type PhotoAnalysis,
} from '../photo-checks/index.js';

/**
 * What a training reads from Postgres. Its state changes (claim, progress, completion, failure
 * with the slot given back) go through the task store of `@studioshot/db`.
 */

export interface UsablePhoto {
  id: string;
  optimizedKey: string;
  originalKey: string;
  /** The photo check's 128-d face descriptor; null when it has none. */
  descriptor: number[] | null;
  /** The photo check's main face in pixels of the optimised copy (upright); null without one. */
  faceBox: { x: number; y: number; width: number; height: number } | null;
}

/**
 * The session's usable photos, oldest first. Each photo's face is the one the same-person check
 * chose as the set's person (identityFaces), which is not always the largest box: training crops
 * and describes that face. An analysis of an older version reads its main face.
 */
export async function usablePhotos(db: Db, sessionId: string): Promise<UsablePhoto[]> {
  const rows = await db
    .selectFrom('photos')
    .select(['id', 'optimized_key', 'original_key', 'analysis'])
    .where('session_id', '=', sessionId)
    .where('usable', '=', true)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const parsed = rows.map((row) => ZPhotoAnalysisSchema.safeParse(row.analysis));
  const current = parsed.flatMap((p) => (p.success ? [p.data] : []));
  const chosen = new Map<PhotoAnalysis, number | null>(
    identityFaces(current).map((face, index) => [current[index]!, face]),
  );
  return rows.map((row, index) => {
    const analysis = parsed[index]!.success ? parsed[index]!.data : undefined;
    const face = analysis ? chosen.get(analysis) : undefined;
    const identified = analysis && face !== undefined && face !== null;
    return {
      id: row.id,
      optimizedKey: row.optimized_key,
      originalKey: row.original_key,
      descriptor: identified ? faceDescriptor(analysis, face) : descriptorOf(row.analysis),
      faceBox: identified ? boxOf(analysis.faces[face]) : faceBoxOf(row.analysis),
    };
  });
}

/** One usable photo of the user's (a generation without a model restyles it); undefined if gone. */
export async function usablePhoto(
  db: Db,
  userId: string,
  photoId: string,
): Promise<UsablePhoto | undefined> {
  const row = await db
    .selectFrom('photos')
    .select(['id', 'optimized_key', 'original_key', 'analysis'])
    .where('id', '=', photoId)
    .where('user_id', '=', userId)
    .where('usable', '=', true)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        optimizedKey: row.optimized_key,
        originalKey: row.original_key,
        descriptor: descriptorOf(row.analysis),
        faceBox: faceBoxOf(row.analysis),
      }
    : undefined;
}

function descriptorOf(analysis: unknown): number[] | null {
  const descriptor = (analysis as { descriptor?: unknown } | null)?.descriptor;
  return Array.isArray(descriptor) &&
    descriptor.length === 128 &&
    descriptor.every((n) => typeof n === 'number' && Number.isFinite(n))
    ? (descriptor as number[])
    : null;
}

/** The analysis' main face (`faces[0]`, largest first), when it has a well-formed one. */
function faceBoxOf(analysis: unknown): UsablePhoto['faceBox'] {
  const face = (analysis as { faces?: unknown } | null)?.faces;
  return boxOf(Array.isArray(face) ? (face[0] as unknown) : undefined);
}

/** A face box in pixels, when it is a well-formed one. */
function boxOf(face: unknown): UsablePhoto['faceBox'] {
  if (!face || typeof face !== 'object') return null;
  const { x, y, width, height } = face as Record<string, unknown>;
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  return finite(x) && finite(y) && finite(width) && finite(height) && width > 0 && height > 0
    ? { x, y, width, height }
    : null;
}

export interface TrainingModel {
  id: string;
  userId: string;
  sessionId: string | null;
  name: string;
  triggerWord: string;
}

/** The model a training task trains (a training task's id is its model's id). */
export async function modelForTraining(db: Db, task: Task): Promise<TrainingModel> {
  return selectModels(db)
    .select([
      'id',
      'user_id as userId',
      'session_id as sessionId',
      'name',
      'trigger_word as triggerWord',
    ])
    .where('id', '=', task.model_id ?? task.id)
    .executeTakeFirstOrThrow();
}
