import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Deleting an account leaves a tombstone: the users row keeps its id, so the payments and the
 * credit ledger (kept for accounting) still point at a row, and loses everything that says who
 * the person was. E-mail, name and password hash become nullable for that, and two checks keep
 * the two kinds of rows apart: a live account has all three, a tombstone none of them (nor an
 * age or gender). The unique e-mail index ignores NULLs, so the address is free to sign up again.
 *
 * - `deletion_requested_at`: the person asked; from then on nobody signs in to the account.
 * - `deletion_id`: the deletion's own id (its job id, and how its page follows it without a
 *   session); random, so it names nothing about the person.
 * - `deleted_at`: the deletion finished; the row is a tombstone.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('users')
    .alterColumn('email', (c) => c.dropNotNull())
    .alterColumn('name', (c) => c.dropNotNull())
    .alterColumn('password_hash', (c) => c.dropNotNull())
    .addColumn('deletion_requested_at', 'timestamptz')
    .addColumn('deletion_id', 'uuid', (c) => c.unique())
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`ALTER TABLE users ADD CONSTRAINT users_live_account_identity
    CHECK (deleted_at IS NOT NULL OR (email IS NOT NULL AND name IS NOT NULL AND password_hash IS NOT NULL))`.execute(
    db,
  );
  await sql`ALTER TABLE users ADD CONSTRAINT users_tombstone_is_anonymous
    CHECK (deleted_at IS NULL OR (email IS NULL AND name IS NULL AND password_hash IS NULL
      AND gender IS NULL AND age IS NULL AND deletion_requested_at IS NOT NULL))`.execute(db);
}

export async function down(db: Db): Promise<void> {
  // A tombstone cannot satisfy NOT NULL again, and deleting it would take the accounting with it.
  const tombstones = await sql<{
    n: string;
  }>`SELECT count(*) AS n FROM users WHERE email IS NULL OR name IS NULL OR password_hash IS NULL`.execute(
    db,
  );
  if (Number(tombstones.rows[0]?.n ?? 0) > 0)
    throw new Error(
      'deleted accounts exist: their tombstones need e-mail, name and password nullable',
    );
  await sql`ALTER TABLE users DROP CONSTRAINT IF EXISTS users_tombstone_is_anonymous`.execute(db);
  await sql`ALTER TABLE users DROP CONSTRAINT IF EXISTS users_live_account_identity`.execute(db);
  await db.schema
    .alterTable('users')
    .dropColumn('deleted_at')
    .dropColumn('deletion_id')
    .dropColumn('deletion_requested_at')
    .alterColumn('email', (c) => c.setNotNull())
    .alterColumn('name', (c) => c.setNotNull())
    .alterColumn('password_hash', (c) => c.setNotNull())
    .execute();
}
