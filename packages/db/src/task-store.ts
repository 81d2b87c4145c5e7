import { sql, type Selectable } from 'kysely';
import type { Db } from './client.js';
import { refundGenerationCredits, refundIncompleteGeneration } from './credit-ledger.js';
import { modelFailed, modelTrained, modelTrainingStarted } from './models.js';
import type { TaskStatus, TaskType } from '@studioshot/contracts';
import type { Database } from './schema.js';

/**
 * Every task state transition, for every task type, in one place: the worker (claim, progress,
 * requeue, complete, fail) and the API (cancel a waiting task, fail one no worker can run) both
 * go through here. Each transition is a conditional update, so a retried, duplicated or resumed
 * job cannot apply it twice: the database says what happened. What a transition does beside the
 * task row (a model's status, a training slot, generated images) is its type's `TaskEffects`,
 * run in the same transaction, so it happens exactly when the transition does.
 */

export type Task = Selectable<Database['tasks']>;

export const UNFINISHED_TASK_STATUSES: readonly TaskStatus[] = ['pending', 'queued', 'running'];
const WAITING_TASK_STATUSES: readonly TaskStatus[] = ['pending', 'queued'];

/** A generated image as the worker stored it, ranked (position 0 = best identity match). */
export interface GeneratedImageRecord {
  position: number;
  templateId: string | null;
  variant: number | null;
  imageKey: string;
  thumbnailKey: string;
  width: number;
  height: number;
  sizeBytes: number;
  identityScore: number | null;
  identityDistance: number | null;
}

/** What a completed task produced, by type. */
export type TaskOutput =
  | {
      type: 'training';
      artifactKey: string;
      artifactFormat: number;
      /** Of the usable photos trained on: generation ranks its images against them. */
      faceDescriptors: number[][];
    }
  | {
      type: 'generation';
      images: GeneratedImageRecord[];
      /**
       * Items (templates) that came back with fewer images than asked: the engine dropped an
       * image none of whose renders was clean. Their credits go back (a credit buys a full set).
       */
      shortItems: number;
    };

export interface TaskEffects {
  /** The task just started an attempt. */
  claimed?(trx: Db, task: Task): Promise<void>;
  /** The task just completed (once). */
  completed?(trx: Db, task: Task, output: TaskOutput): Promise<void>;
  /** The task just ended failed or cancelled (once). */
  ended?(
    trx: Db,
    task: Task,
    status: 'failed' | 'cancelled',
    options?: Pick<TaskEnding, 'keepTrainingSlot'>,
  ): Promise<void>;
}

const trainingEffects: TaskEffects = {
  async claimed(trx, task) {
    if (!task.model_id) return;
    await modelTrainingStarted(trx, task.model_id);
  },
  async completed(trx, task, output) {
    if (output.type !== 'training' || !task.model_id) {
      throw new Error(`a training completes with its model artifact, not ${output.type}`);
    }
    await modelTrained(trx, task.model_id, output);
  },
  // The model fails, and the training slot goes back only with the update that fails the model
  // (not when the model is being deleted: the slot was used). The session link goes too (the
  // task's params keep it), so the same photos can train again.
  async ended(trx, task, _status, options) {
    if (!task.model_id) return;
    const modelFailedNow = await modelFailed(trx, task.model_id);
    if (!modelFailedNow) return;
    await trx
      .updateTable('upload_sessions')
      .set({ training_id: null })
      .where('training_id', '=', task.id)
      .execute();
    if (options?.keepTrainingSlot) return;
    await trx
      .updateTable('users')
      .set({ models_trained: sql`greatest(models_trained - 1, 0)`, updated_at: sql`now()` })
      .where('id', '=', task.user_id)
      .execute();
  },
};

const generationEffects: TaskEffects = {
  async completed(trx, task, output) {
    if (output.type !== 'generation') {
      throw new Error(`a generation completes with images, not ${output.type}`);
    }
    const generation = await trx
      .selectFrom('generations')
      .select(['id', 'user_id', 'model_id', 'items', 'payment_id'])
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    if (output.images.length > 0) {
      await trx
        .insertInto('generated_images')
        .values(
          output.images.map((image) => ({
            generation_id: generation.id,
            user_id: generation.user_id,
            model_id: generation.model_id,
            position: image.position,
            template_id: image.templateId,
            variant: image.variant,
            image_key: image.imageKey,
            thumbnail_key: image.thumbnailKey,
            width: image.width,
            height: image.height,
            size_bytes: image.sizeBytes,
            identity_score: image.identityScore,
            identity_distance: image.identityDistance,
          })),
        )
        .execute();
    }
    await trx
      .updateTable('users')
      .set({ total_generations: sql`total_generations + 1`, updated_at: sql`now()` })
      .where('id', '=', task.user_id)
      .execute();
    // A set that came back short is not charged: its items' credits go back, and a paid order
    // (one item) is recorded as due back, as when it fails.
    if (output.shortItems > 0) {
      await refundIncompleteGeneration(trx, task.id, output.shortItems, generation.items.length);
      if (generation.payment_id) await markOrderRefundDue(trx, task.id);
    }
  },
  // The credits reserved when it was accepted go back, once (the refund has its own ledger key):
  // a worker's failure, a cancel and the no-worker sweep all end here. A paid generation's order
  // is recorded as due back; the API's refund handler gives the money back at the provider.
  async ended(trx, task) {
    await refundGenerationCredits(trx, task.id);
    await markOrderRefundDue(trx, task.id);
  },
};

/** The order that paid for a generation, if one did, is due back (once). */
async function markOrderRefundDue(trx: Db, generationId: string): Promise<void> {
  await trx
    .updateTable('payments')
    .set({ refund_due_at: sql`now()`, updated_at: sql`now()` })
    .where('status', '=', 'succeeded')
    .where('refund_due_at', 'is', null)
    .where('id', '=', (eb) =>
      eb.selectFrom('generations').select('payment_id').where('id', '=', generationId),
    )
    .execute();
}

export const TASK_EFFECTS: Record<TaskType, TaskEffects> = {
  training: trainingEffects,
  generation: generationEffects,
  batch_generation: generationEffects,
};

/**
 * Starts an attempt of a task of one of `types` that is not final yet: running, one more attempt,
 * started_at kept from the first. Undefined when there is no such task or it is already final.
 */
export async function claimTask(
  db: Db,
  taskId: string,
  types: readonly TaskType[],
  message: string,
): Promise<Task | undefined> {
  return db.transaction().execute(async (trx) => {
    const task = await trx
      .updateTable('tasks')
      .set({
        status: 'running',
        progress: 0,
        message,
        error_message: null,
        attempts: sql`attempts + 1`,
        started_at: sql`coalesce(started_at, now())`,
        updated_at: sql`now()`,
      })
      .where('id', '=', taskId)
      .where('task_type', 'in', types)
      .where('status', 'in', UNFINISHED_TASK_STATUSES)
      .returningAll()
      .executeTakeFirst();
    if (task) await TASK_EFFECTS[task.task_type].claimed?.(trx, task);
    return task;
  });
}

/** Progress of a running task; false when it is no longer running (cancelled meanwhile). */
export async function writeTaskProgress(
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

export interface TaskCompletion {
  message: string;
  /** Small facts for the task's `result` (artifact keys, the engine's summary). */
  result: Record<string, unknown>;
  output: TaskOutput;
  gpuSeconds: number;
}

/**
 * Completes the task and applies its type's effects, together, once; answers the completed row,
 * or undefined when it was already final.
 */
export async function completeTask(
  db: Db,
  taskId: string,
  completion: TaskCompletion,
): Promise<Task | undefined> {
  return db.transaction().execute(async (trx) => {
    const task = await trx
      .updateTable('tasks')
      .set({
        status: 'completed',
        progress: 100,
        message: completion.message,
        result: JSON.stringify(completion.result),
        error_message: null,
        gpu_seconds: sql`gpu_seconds + ${Math.max(0, completion.gpuSeconds)}`,
        completed_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', taskId)
      .where('status', 'in', UNFINISHED_TASK_STATUSES)
      .returningAll()
      .executeTakeFirst();
    if (!task) return undefined;
    await TASK_EFFECTS[task.task_type].completed?.(trx, task, completion.output);
    return task;
  });
}

export interface TaskEnding {
  status: 'failed' | 'cancelled';
  /** The short status line. */
  message: string;
  /** What the user reads about why. */
  errorMessage: string;
  gpuSeconds?: number;
  /** Only a task that has not started (pending or queued) may end: a cancel before it runs. */
  onlyIfWaiting?: boolean;
  /** A training's slot stays used (its model is being deleted). */
  keepTrainingSlot?: boolean;
}

/**
 * Ends the task failed or cancelled and applies its type's effects (a training's slot back, a
 * generation's credit back), together, once; answers the ended row, or undefined when it was
 * already final (or, with `onlyIfWaiting`, had started).
 */
export async function endTask(
  db: Db,
  taskId: string,
  ending: TaskEnding,
): Promise<Task | undefined> {
  return db.transaction().execute(async (trx) => {
    const task = await trx
      .updateTable('tasks')
      .set({
        status: ending.status,
        message: ending.message,
        error_message: ending.errorMessage,
        gpu_seconds: sql`gpu_seconds + ${Math.max(0, ending.gpuSeconds ?? 0)}`,
        completed_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', taskId)
      .where(
        'status',
        'in',
        ending.onlyIfWaiting ? WAITING_TASK_STATUSES : UNFINISHED_TASK_STATUSES,
      )
      .returningAll()
      .executeTakeFirst();
    if (!task) return undefined;
    await TASK_EFFECTS[task.task_type].ended?.(trx, task, ending.status, ending);
    return task;
  });
}
