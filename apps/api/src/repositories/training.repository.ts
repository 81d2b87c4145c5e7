import type { TaskStatus } from '@studioshot/contracts';
import {
  insertModel,
  selectModels,
  type Db,
  type EngineKindName,
  type TaskPriority,
} from '@studioshot/db';
import { sql } from 'kysely';

/** A training task with its model and its photo count: everything a TrainingJob shows. */
export interface TrainingJobRow {
  id: string;
  user_id: string;
  status: TaskStatus;
  engine_kind: EngineKindName;
  progress: number;
  message: string | null;
  error_message: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  session_id: string | null;
  model_name: string;
  artifact_key: string | null;
  training_photos: number;
}

/** Trainings are bounded by the plan's limit; cancelled ones add a few more at most. */
const MAX_LISTED_JOBS = 100;

export type CreateTrainingOutcome =
  | { created: true; taskId: string }
  | {
      created: false;
      reason:
        | 'session_not_found'
        | 'session_not_ready'
        | 'session_already_trained'
        | 'too_few_photos'
        | 'no_plan'
        | 'limit_reached';
    };

/** Training runs: a `tasks` row of type training and its `models` row, sharing one id. */
export class TrainingRepository {
  constructor(private readonly db: Db) {}

  /**
   * Creates a training in one transaction: the session is locked (two starts from one session
   * cannot both pass) and its usable photos counted, the training slot is taken by a conditional update (concurrent starts
   * never exceed the limit), then the model, its task and the session's link to them are written.
   */
  async create(input: {
    userId: string;
    sessionId: string;
    name: string;
    triggerWord: string;
    modelType: EngineKindName;
    priority: TaskPriority;
    message: string;
    /** Usable photos the session must hold. */
    minPhotos: number;
  }): Promise<CreateTrainingOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const session = await trx
        .selectFrom('upload_sessions')
        .select(['status', 'training_id'])
        .where('id', '=', input.sessionId)
        .where('user_id', '=', input.userId)
        .forUpdate()
        .executeTakeFirst();
      if (!session) return { created: false, reason: 'session_not_found' };
      if (session.status !== 'completed') return { created: false, reason: 'session_not_ready' };
      if (session.training_id) return { created: false, reason: 'session_already_trained' };
      // Counted again under the lock: the photos a model would learn from, never fewer than the
      // minimum, whatever happened to the set since it was completed.
      const { usable } = await trx
        .selectFrom('photos')
        .select((eb) => eb.fn.countAll<string>().as('usable'))
        .where('session_id', '=', input.sessionId)
        .where('usable', '=', true)
        .executeTakeFirstOrThrow();
      if (Number(usable) < input.minPhotos) return { created: false, reason: 'too_few_photos' };

      const reserved = await trx
        .updateTable('users')
        .set({ models_trained: sql`models_trained + 1`, updated_at: sql`now()` })
        .where('id', '=', input.userId)
        .whereRef('models_trained', '<', 'training_limit')
        .returning('id')
        .executeTakeFirst();
      if (!reserved) {
        const user = await trx
          .selectFrom('users')
          .select('training_limit')
          .where('id', '=', input.userId)
          .executeTakeFirstOrThrow();
        return { created: false, reason: user.training_limit <= 0 ? 'no_plan' : 'limit_reached' };
      }

      const model = await insertModel(trx, {
        user_id: input.userId,
        session_id: input.sessionId,
        name: input.name,
        model_type: input.modelType,
        trigger_word: input.triggerWord,
        status: 'pending',
      });
      await trx
        .insertInto('tasks')
        .values({
          id: model.id,
          user_id: input.userId,
          task_type: 'training',
          engine_kind: input.modelType,
          priority: input.priority,
          status: 'queued',
          model_id: model.id,
          params: JSON.stringify({ session_id: input.sessionId }),
          message: input.message,
        })
        .execute();
      await trx
        .updateTable('upload_sessions')
        .set({ training_id: model.id })
        .where('id', '=', input.sessionId)
        .execute();
      return { created: true, taskId: model.id };
    });
  }

  /** The user's training jobs, newest first; or only the one named by a task or session id. */
  async listJobs(userId: string, only?: { taskOrSessionId: string }): Promise<TrainingJobRow[]> {
    let query = this.jobsQuery().where('t.user_id', '=', userId);
    if (only) {
      query = query.where((eb) =>
        eb.or([
          eb('t.id', '=', only.taskOrSessionId),
          eb(sql`t.params->>'session_id'`, '=', only.taskOrSessionId),
        ]),
      );
    }
    return query
      .orderBy('t.created_at', 'desc')
      .limit(only ? 1 : MAX_LISTED_JOBS)
      .execute();
  }

  /** One training job by task id, whoever it belongs to (for the /ws relay). */
  findJob(taskId: string): Promise<TrainingJobRow | undefined> {
    return this.jobsQuery().where('t.id', '=', taskId).executeTakeFirst();
  }

  private jobsQuery() {
    return this.db
      .selectFrom('tasks as t')
      .innerJoin(selectModels(this.db).selectAll().as('m'), (join) =>
        join.onRef('m.id', '=', 't.model_id'),
      )
      .where('t.task_type', '=', 'training')
      .select([
        't.id',
        't.user_id',
        't.status',
        't.engine_kind',
        't.progress',
        't.message',
        't.error_message',
        't.created_at',
        't.started_at',
        't.completed_at',
        'm.name as model_name',
        'm.artifact_key',
        sql<string | null>`t.params->>'session_id'`.as('session_id'),
        // Usable photos of the session: what the model learns from.
        sql<number>`(
          SELECT count(*)::int FROM photos p
          WHERE p.session_id = (t.params->>'session_id')::uuid AND p.usable
        )`.as('training_photos'),
      ]);
  }
}
