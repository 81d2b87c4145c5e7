import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Queue tasks (docs/spec/calls.md#77-queue): the system of record for work the fleet does. BullMQ
 * carries only the
 * task id; status, progress and the GPU seconds really used live here. A training task's id is
 * its model's id.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('task_type', 'text', (c) =>
      c.notNull().check(sql`task_type IN ('training', 'generation', 'batch_generation')`),
    )
    .addColumn('priority', 'text', (c) =>
      c
        .notNull()
        .defaultTo('normal')
        .check(sql`priority IN ('urgent', 'high', 'normal')`),
    )
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status IN ('pending', 'queued', 'running', 'completed', 'failed', 'cancelled')`),
    )
    .addColumn('progress', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`progress BETWEEN 0 AND 100`),
    )
    .addColumn('message', 'text')
    .addColumn('model_id', 'uuid', (c) => c.references('models.id').onDelete('cascade'))
    .addColumn('params', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('result', 'jsonb')
    .addColumn('error_message', 'text')
    /** Runs started (a retry or a pick-up after a worker died counts again). */
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    /** Wall seconds the engine held a GPU slot, summed over attempts: what the cost projection bills. */
    .addColumn('gpu_seconds', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('tasks_user_created_idx')
    .on('tasks')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('tasks_completed_idx')
    .on('tasks')
    .column('completed_at')
    .where(sql.ref('completed_at'), 'is not', null)
    .execute();
  // One training per upload session.
  await db.schema
    .createIndex('models_session_key')
    .on('models')
    .column('session_id')
    .unique()
    .where(sql.ref('session_id'), 'is not', null)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('models_session_key').execute();
  await db.schema.dropTable('tasks').execute();
}
