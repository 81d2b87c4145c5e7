import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('upload_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_type', 'text', (c) => c.notNull())
    .addColumn('expected_files', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('uploading')
        .check(sql`status IN ('uploading', 'completed')`),
    )
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addColumn('training_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('upload_sessions_user_idx')
    .on('upload_sessions')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('photos')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('session_id', 'uuid', (c) =>
      c.notNull().references('upload_sessions.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Shown to the user only; storage keys are ours.
    .addColumn('original_filename', 'text', (c) => c.notNull())
    .addColumn('original_key', 'text', (c) => c.notNull())
    .addColumn('optimized_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('check_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`check_status IN ('pending', 'done', 'failed')`),
    )
    /** What the analysis measured (faces, sharpness, descriptor), kept so the set can be re-judged. */
    .addColumn('analysis', 'jsonb')
    /** The verdict: per-check results and plain-language advice. */
    .addColumn('checks', 'jsonb')
    .addColumn('usable', 'boolean')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('photos_session_idx').on('photos').column('session_id').execute();
  // The same picture twice in one set adds nothing to training.
  await db.schema
    .createIndex('photos_session_hash_key')
    .on('photos')
    .columns(['session_id', 'content_hash'])
    .unique()
    .execute();

  await db.schema
    .createTable('models')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'uuid', (c) => c.references('upload_sessions.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('model_type', 'text', (c) => c.notNull().defaultTo('studio'))
    .addColumn('trigger_word', 'text', (c) => c.notNull().defaultTo('person'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status IN ('pending', 'training', 'completed', 'failed')`),
    )
    .addColumn('artifact_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('models_user_idx').on('models').column('user_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('models').ifExists().execute();
  await db.schema.dropTable('photos').ifExists().execute();
  await db.schema.dropTable('upload_sessions').ifExists().execute();
}
