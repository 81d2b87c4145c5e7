import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * A generation made with an idempotency key keeps a fingerprint of the request that made it, so
 * the same key with a different request can be refused instead of answered with the first
 * generation. Older rows have none and match any request, as before.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('generations').addColumn('request_fingerprint', 'text').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('generations').dropColumn('request_fingerprint').execute();
}
