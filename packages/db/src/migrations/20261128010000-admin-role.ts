import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * An account's role: 'user' for everyone, 'admin' for the operators of the ops console. Only the
 * command-line tool sets it (apps/api/src/cli/admin.ts); no request body reaches this column.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (col) =>
      col
        .notNull()
        .defaultTo('user')
        .check(sql`role IN ('user', 'admin')`),
    )
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('users').dropColumn('role').execute();
}
