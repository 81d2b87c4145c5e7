import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Where the owner of a failed renewal pays it at the provider (Stripe: the failed invoice's hosted
 * page, where a new card pays it, 3-D Secure included). Kept beside `renewal_error` for the
 * renewal now due, and cleared with it; null where the provider has no such page (test mode
 * pays by hand in the app).
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('renewal_pay_url', 'text').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('renewal_pay_url').execute();
}
