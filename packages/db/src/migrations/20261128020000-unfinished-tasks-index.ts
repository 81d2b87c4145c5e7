import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * The tasks not yet finished, indexed on their own: the API's metrics read the credits their
 * generations hold on every scrape, and the finished tasks (nearly all rows) stay out of it.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createIndex('tasks_unfinished_idx')
    .on('tasks')
    .column('status')
    .where(sql.ref('status'), 'in', sql`('pending', 'queued', 'running')`)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('tasks_unfinished_idx').execute();
}
