import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Generations paid for by a $29 generation order, and generations made from a photo.
 * - `payment_id`: the order that paid for it; unique, so one payment makes at most one generation
 *   (a reload of the results page finds it again). Such a generation reserves no credits: the
 *   payment is its funding, and a generation that fails for good is refunded at the provider.
 * - `source_photo_id`: a generation without a personal model restyles this photo (the user's best
 *   checked one at the time of the request).
 * - payments gain `refunded` (with when) and the test provider's intents what was refunded.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('generations')
    .addColumn('payment_id', 'uuid', (c) => c.references('payments.id').onDelete('restrict'))
    .addColumn('source_photo_id', 'uuid', (c) => c.references('photos.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('generations_payment_id_key')
    .on('generations')
    .column('payment_id')
    .unique()
    .where(sql.ref('payment_id'), 'is not', null)
    .execute();
  await sql`ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_status_check`.execute(db);
  await sql`ALTER TABLE payments ADD CONSTRAINT payments_status_check
    CHECK (status IN ('pending', 'succeeded', 'failed', 'refunded'))`.execute(db);
  await db.schema.alterTable('payments').addColumn('refunded_at', 'timestamptz').execute();
  await db.schema
    .alterTable('test_payment_intents')
    .addColumn('amount_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('test_payment_intents').dropColumn('amount_refunded').execute();
  await db.schema.alterTable('payments').dropColumn('refunded_at').execute();
  await sql`ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_status_check`.execute(db);
  await sql`ALTER TABLE payments ADD CONSTRAINT payments_status_check
    CHECK (status IN ('pending', 'succeeded', 'failed'))`.execute(db);
  await db.schema.dropIndex('generations_payment_id_key').execute();
  await db.schema
    .alterTable('generations')
    .dropColumn('payment_id')
    .dropColumn('source_photo_id')
    .execute();
}
