import type { TaskType } from '@studioshot/contracts';
import { endTask, type Database, type Db, type EngineKindName } from '@studioshot/db';
import { sql, type Selectable } from 'kysely';

export type Task = Selectable<Database['tasks']>;

/** What the fleet measured of one kind of work: a median run and the runs it is taken over. */
export interface RunDurations {
  medianSeconds: number | null;
  sampleSize: number;
}

/** How many recent completed tasks the median run time is taken over. */
const DURATION_SAMPLE = 50;

/**
 * Queue tasks of every type (docs/spec/calls.md#77-queue): the system of record for work the fleet
 * does.
 */
export class TasksRepository {
  constructor(private readonly db: Db) {}

  /** A task whoever owns it: for relaying its changes to its owner's sockets. */
  findById(taskId: string): Promise<Task | undefined> {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
  }

  findForUser(userId: string, taskId: string): Promise<Task | undefined> {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', taskId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Ends a task that never started (cancelled, or never queued) with its type's effects (a
   * training's model fails and its slot goes back). Only a task still waiting is touched;
   * answers whether it was.
   */
  async endWaiting(
    taskId: string,
    outcome: { status: 'cancelled' | 'failed'; error: string },
  ): Promise<boolean> {
    const ended = await endTask(this.db, taskId, {
      status: outcome.status,
      message: outcome.error,
      errorMessage: outcome.error,
      onlyIfWaiting: true,
    });
    return ended !== undefined;
  }

  /** Tasks committed but perhaps never handed to the queue (the API stopped in between). */
  queuedTasks(): Promise<Pick<Task, 'id' | 'task_type' | 'priority' | 'engine_kind'>[]> {
    return this.db
      .selectFrom('tasks')
      .select(['id', 'task_type', 'priority', 'engine_kind'])
      .where('status', '=', 'queued')
      .orderBy('created_at')
      .execute();
  }

  /** Tasks waiting since before `olderThan` on an engine kind's queue for a task type. */
  async waitingSince(
    type: TaskType,
    kind: EngineKindName,
    olderThan: Date,
  ): Promise<{ id: string }[]> {
    return this.db
      .selectFrom('tasks')
      .select('id')
      .where('task_type', '=', type)
      .where('engine_kind', '=', kind)
      .where('status', 'in', ['pending', 'queued'])
      .where('updated_at', '<', olderThan)
      .execute();
  }

  async countsForUser(
    userId: string,
  ): Promise<{ waiting: number; running: number; total: number }> {
    const row = await this.db
      .selectFrom('tasks')
      .select([
        sql<number>`count(*) FILTER (WHERE status IN ('pending', 'queued'))::int`.as('waiting'),
        sql<number>`count(*) FILTER (WHERE status = 'running')::int`.as('running'),
        sql<number>`count(*)::int`.as('total'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return row;
  }

  /**
   * GPU seconds billed by tasks that finished in the last `days` days, fleet-wide, and when the
   * first of them finished (null when none did): how long a stretch the sum covers.
   */
  /** GPU seconds billed by tasks finished at or after `from`. */
  async gpuSecondsFrom(from: Date): Promise<number> {
    const row = await this.db
      .selectFrom('tasks')
      .select(sql<number>`coalesce(sum(gpu_seconds), 0)::float8`.as('seconds'))
      .where('completed_at', '>=', from)
      .executeTakeFirstOrThrow();
    return row.seconds;
  }

  async gpuSecondsSince(days: number): Promise<{ seconds: number; since: Date | null }> {
    const row = await this.db
      .selectFrom('tasks')
      .select([
        sql<number>`coalesce(sum(gpu_seconds), 0)::float8`.as('seconds'),
        sql<Date | null>`min(completed_at)`.as('since'),
      ])
      .where('completed_at', '>=', sql<Date>`now() - make_interval(days => ${days})`)
      .executeTakeFirstOrThrow();
    return row;
  }

  /**
   * The median run time, in seconds, of the latest completed tasks of a type on one engine kind
   * (a studio run takes seconds, a flux run minutes: they are never mixed), and how many runs it
   * is taken over; null with none.
   */
  async runDurations(type: TaskType, kind: EngineKindName): Promise<RunDurations> {
    const recent = this.db
      .selectFrom('tasks')
      .select(sql<number>`extract(epoch FROM completed_at - started_at)`.as('seconds'))
      .where('task_type', '=', type)
      .where('engine_kind', '=', kind)
      .where('status', '=', 'completed')
      .where('started_at', 'is not', null)
      .where('completed_at', 'is not', null)
      .orderBy('completed_at', 'desc')
      .limit(DURATION_SAMPLE)
      .as('recent');
    const row = await this.db
      .selectFrom(recent)
      .select([
        sql<number | null>`percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds)`.as('median'),
        sql<number>`count(*)::int`.as('samples'),
      ])
      .executeTakeFirstOrThrow();
    return {
      medianSeconds: row.median === null ? null : Number(row.median),
      sampleSize: row.samples,
    };
  }
}
