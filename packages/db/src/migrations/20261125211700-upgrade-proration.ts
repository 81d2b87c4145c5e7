import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * An upgrade in the middle of a billing period records how it was priced (the period, both
 * plans' prices, what was credited and charged, the credits it grants): fulfilment applies it
 * only within that period, and its receipt shows the arithmetic.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('payments').addColumn('proration', 'jsonb').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('proration').execute();
}
