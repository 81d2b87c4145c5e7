import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any>: they must not depend on the schema type of today.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pgcrypto`.execute(db);

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan_type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('free')
        .check(sql`plan_type IN ('free', 'starter', 'professional', 'premium')`),
    )
    .addColumn('subscription_interval', 'text')
    .addColumn('training_limit', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`training_limit >= 0`),
    )
    .addColumn('models_trained', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`models_trained >= 0`),
    )
    // The balance can never go negative, whatever the code above it does.
    .addColumn('credits_balance', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`credits_balance >= 0`),
    )
    .addColumn('total_generations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('gender', 'text', (c) => c.check(sql`gender IN ('male', 'female')`))
    .addColumn('age', 'integer', (c) => c.check(sql`age BETWEEN 18 AND 100`))
    .addColumn('is_debug', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // E-mails are stored lower-cased; the unique index makes duplicate sign-ups impossible.
  await sql`CREATE UNIQUE INDEX users_email_key ON users (email)`.execute(db);

  await db.schema
    .createTable('refresh_token_families')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema
    .createIndex('refresh_token_families_user_idx')
    .on('refresh_token_families')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'uuid', (c) =>
      c.notNull().references('refresh_token_families.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('refresh_tokens_family_idx')
    .on('refresh_tokens')
    .column('family_id')
    .execute();

  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('outbox_emails')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('to_email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
}

export async function down(db: Db): Promise<void> {
  for (const table of [
    'outbox_emails',
    'password_reset_tokens',
    'refresh_tokens',
    'refresh_token_families',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
