import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * The 30-day money-back guarantee: a refund the owner asked for keeps the reason they chose and
 * when they asked; the plan such a refund ends is recorded as ended by it. The test provider
 * remembers the keys of the refunds it made, so the same refund asked again gives nothing more
 * back (as Stripe's idempotency keys do), and which intents its refunds are declined for.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('refund_reason', 'text', (c) =>
      c.check(
        sql`refund_reason IN ('not_satisfied', 'not_like_me', 'technical_problem', 'bought_by_mistake', 'no_longer_needed', 'other')`,
      ),
    )
    .addColumn('refund_requested_at', 'timestamptz')
    .execute();
  await sql`ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_ended_reason_check`.execute(db);
  await sql`
    ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_ended_reason_check
    CHECK (ended_reason IN ('cancelled', 'renewal_failed', 'refunded'))
  `.execute(db);
  await db.schema
    .alterTable('test_payment_intents')
    .addColumn('refund_keys', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('refund_error', 'text')
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema
    .alterTable('test_payment_intents')
    .dropColumn('refund_keys')
    .dropColumn('refund_error')
    .execute();
  await sql`UPDATE subscriptions SET ended_reason = 'cancelled' WHERE ended_reason = 'refunded'`.execute(
    db,
  );
  await sql`ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_ended_reason_check`.execute(db);
  await sql`
    ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_ended_reason_check
    CHECK (ended_reason IN ('cancelled', 'renewal_failed'))
  `.execute(db);
  await db.schema
    .alterTable('payments')
    .dropColumn('refund_reason')
    .dropColumn('refund_requested_at')
    .execute();
}
