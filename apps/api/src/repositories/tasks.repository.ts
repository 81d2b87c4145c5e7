import type { Database, Db, TaskType } from '@studioshot/db';
import { sql, type Selectable } from 'kysely';

export type Task = Selectable<Database['tasks']>;

/** How many recent completed tasks the median run time is taken over. */
const DURATION_SAMPLE = 50;

/** Queue tasks of every type (spec 7.7): the system of record for work the fleet does. */
export class TasksRepository {
  constructor(private readonly db: Db) {}

  findForUser(userId: string, taskId: string): Promise<Task | undefined> {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', taskId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
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

  /** Median run time, in seconds, of the latest completed tasks of a type; null without any. */
  async medianRunSeconds(type: TaskType): Promise<number | null> {
    const recent = this.db
      .selectFrom('tasks')
      .select(sql<number>`extract(epoch FROM completed_at - started_at)`.as('seconds'))
      .where('task_type', '=', type)
      .where('status', '=', 'completed')
      .where('started_at', 'is not', null)
      .where('completed_at', 'is not', null)
      .orderBy('completed_at', 'desc')
      .limit(DURATION_SAMPLE)
      .as('recent');
    const row = await this.db
      .selectFrom(recent)
      .select(sql<number | null>`percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds)`.as('median'))
      .executeTakeFirstOrThrow();
    return row.median === null ? null : Number(row.median);
  }
}
