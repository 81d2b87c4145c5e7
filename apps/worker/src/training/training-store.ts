import type { Db, TaskStatus } from '@studioshot/db';
import { sql } from 'kysely';

/**
 * Every write a training makes to Postgres. Each state change is a conditional update, so a
 * retried, duplicated or resumed job cannot apply it twice: the database says what happened.
 */

const UNFINISHED: TaskStatus[] = ['pending', 'queued', 'running'];

export interface TrainingTask {
  taskId: string;
  userId: string;
  modelId: string;
  sessionId: string | null;
  modelName: string;
  triggerWord: string;
}

/** The session's usable photos, oldest first. */
export async function usablePhotos(
  db: Db,
  sessionId: string,
): Promise<{ id: string; optimizedKey: string }[]> {
  return db
    .selectFrom('photos')
    .select(['id', 'optimized_key as optimizedKey'])
    .where('session_id', '=', sessionId)
    .where('usable', '=', true)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Starts an attempt of a training task that is not final yet: the task becomes running (one more
 * attempt, started_at kept from the first) and its model training. Undefined when there is no
 * such task or it is already final: nothing to do. One statement, as it sits on the path from
 * enqueue to engine start.
 */
export async function claimTrainingTask(
  db: Db,
  taskId: string,
  message: string,
): Promise<TrainingTask | undefined> {
  return db
    .with('claimed', (q) =>
      q
        .updateTable('tasks')
        .from('models')
        .set({
          status: 'running',
          progress: 0,
          message,
          error_message: null,
          attempts: sql`attempts + 1`,
          started_at: sql`coalesce(started_at, now())`,
          updated_at: sql`now()`,
        })
        .whereRef('models.id', '=', 'tasks.model_id')
        .where('tasks.id', '=', taskId)
        .where('tasks.task_type', '=', 'training')
        .where('tasks.status', 'in', UNFINISHED)
        .returning([
          'tasks.id as taskId',
          'tasks.user_id as userId',
          'models.id as modelId',
          'models.session_id as sessionId',
          'models.name as modelName',
          'models.trigger_word as triggerWord',
        ]),
    )
    .with('model_training', (q) =>
      q
        .updateTable('models')
        .set({ status: 'training', updated_at: sql`now()` })
        .where('id', 'in', (eb) => eb.selectFrom('claimed').select('modelId'))
        .where('status', 'in', ['pending', 'training'])
        .returning('id'),
    )
    .selectFrom('claimed')
    .selectAll()
    .executeTakeFirst();
}

/** Progress of a running task; false when it is no longer running (cancelled meanwhile). */
export async function writeProgress(
  db: Db,
  taskId: string,
  progress: number,
  message: string,
): Promise<boolean> {
  const result = await db
    .updateTable('tasks')
    .set({ progress, message, updated_at: sql`now()` })
    .where('id', '=', taskId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A running task waits in the queue again (a retry, or its worker shut down). */
export async function requeueTask(
  db: Db,
  taskId: string,
  message: string,
  gpuSeconds: number,
): Promise<boolean> {
  const result = await db
    .updateTable('tasks')
    .set({
      status: 'queued',
      progress: 0,
      message,
      gpu_seconds: sql`gpu_seconds + ${gpuSeconds}`,
      updated_at: sql`now()`,
    })
    .where('id', '=', taskId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface TrainingCompletion {
  task: TrainingTask;
  artifactKey: string;
  result: Record<string, unknown>;
  gpuSeconds: number;
  message: string;
}

/** Task completed and model completed, together, once; false when the task was already final. */
export async function completeTraining(db: Db, completion: TrainingCompletion): Promise<boolean> {
  const { task } = completion;
  return db.transaction().execute(async (trx) => {
    await addGpuSeconds(trx, task.taskId, completion.gpuSeconds);
    const completed = await trx
      .updateTable('tasks')
      .set({
        status: 'completed',
        progress: 100,
        message: completion.message,
        result: JSON.stringify(completion.result),
        error_message: null,
        completed_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', task.taskId)
      .where('status', 'in', UNFINISHED)
      .returning('id')
      .executeTakeFirst();
    if (!completed) return false;
    await trx
      .updateTable('models')
      .set({ status: 'completed', artifact_key: completion.artifactKey, updated_at: sql`now()` })
      .where('id', '=', task.modelId)
      .where('status', '!=', 'completed')
      .execute();
    return true;
  });
}

export interface TrainingFailure {
  taskId: string;
  status: 'failed' | 'cancelled';
  message: string;
  errorMessage: string;
  gpuSeconds: number;
}

/**
 * Ends the task as failed or cancelled, fails its model and gives the user's training slot back,
 * together, once: the slot is returned only by the update that moves the model to failed.
 * False when the task was already final.
 */
export async function failTraining(db: Db, failure: TrainingFailure): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await addGpuSeconds(trx, failure.taskId, failure.gpuSeconds);
    const ended = await trx
      .updateTable('tasks')
      .set({
        status: failure.status,
        message: failure.message,
        error_message: failure.errorMessage,
        completed_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', failure.taskId)
      .where('task_type', '=', 'training')
      .where('status', 'in', UNFINISHED)
      .returning(['user_id', 'model_id'])
      .executeTakeFirst();
    if (!ended?.model_id) return Boolean(ended);
    const modelFailed = await trx
      .updateTable('models')
      .set({ status: 'failed', updated_at: sql`now()` })
      .where('id', '=', ended.model_id)
      .where('status', 'not in', ['completed', 'failed'])
      .returning('id')
      .executeTakeFirst();
    if (modelFailed) {
      await trx
        .updateTable('users')
        .set({ models_trained: sql`greatest(models_trained - 1, 0)`, updated_at: sql`now()` })
        .where('id', '=', ended.user_id)
        .execute();
    }
    return true;
  });
}

async function addGpuSeconds(trx: Db, taskId: string, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  await trx
    .updateTable('tasks')
    .set({ gpu_seconds: sql`gpu_seconds + ${seconds}` })
    .where('id', '=', taskId)
    .execute();
}
