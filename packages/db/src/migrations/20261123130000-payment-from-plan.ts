import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * A plan payment remembers the plan the user was on when it was created: a payment never lowers
 * a plan, and an upgrade confirmed after the plan changed (a stale tab, a second purchase) is
 * refunded instead of applied.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('payments').addColumn('from_plan', 'text').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('from_plan').execute();
}
