import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * The account settings page and the privacy promises: each sign-in records the browser and
 * address it started from and when it was last used (the sign-ins list); an upload session
 * records when retention purged its photos; data exports are rows whose zip lives in storage
 * under the person's prefix until the purge deletes it.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('refresh_token_families')
    .addColumn('user_agent', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('last_used_at', 'timestamptz')
    .execute();

  await db.schema
    .alterTable('upload_sessions')
    .addColumn('photos_purged_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status IN ('queued', 'running', 'completed', 'failed', 'expired')`),
    )
    .addColumn('progress', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`progress BETWEEN 0 AND 100`),
    )
    .addColumn('storage_key', 'text')
    .addColumn('size_bytes', 'bigint')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    // When the purge deletes the zip; set once it is built.
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('data_exports_user_idx')
    .on('data_exports')
    .columns(['user_id', 'created_at'])
    .execute();
  // The purge finds finished exports past their day without reading the whole table.
  await db.schema
    .createIndex('data_exports_expiring_idx')
    .on('data_exports')
    .column('expires_at')
    .where(sql.ref('status'), '=', 'completed')
    .execute();
  // One export at a time per person: a second request while one is being built answers it.
  await sql`CREATE UNIQUE INDEX data_exports_one_active_idx ON data_exports (user_id)
    WHERE status IN ('queued', 'running')`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('data_exports').ifExists().execute();
  await db.schema.alterTable('upload_sessions').dropColumn('photos_purged_at').execute();
  await db.schema
    .alterTable('refresh_token_families')
    .dropColumn('user_agent')
    .dropColumn('ip_address')
    .dropColumn('last_used_at')
    .execute();
}
