import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * A subscription's billing anchor: its first period's start. Every period and credit month is
 * counted from it in whole months, clamped to the month's last day, so a plan bought on the 31st
 * comes back to the 31st after a shorter month instead of staying on the 28th.
 *
 * Existing subscriptions take the start of their first period: the latest paid period, at or
 * before the running one, that no renewal paid (the purchase that began the subscription; a
 * period recorded from before periods were kept has no renewal either), else the running
 * period's start.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('billing_anchor', 'timestamptz').execute();
  await sql`
    UPDATE subscriptions s
       SET billing_anchor = coalesce(
             (SELECT sp.period_start
                FROM subscription_periods sp
                LEFT JOIN payments p ON p.id = sp.payment_id
               WHERE sp.user_id = s.user_id
                 AND sp.status = 'paid'
                 AND sp.period_start <= s.current_period_start
                 AND (p.kind IS NULL OR p.kind <> 'renewal')
               ORDER BY sp.period_start DESC
               LIMIT 1),
             s.current_period_start)`.execute(db);
  await sql`ALTER TABLE subscriptions ALTER COLUMN billing_anchor SET NOT NULL`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('billing_anchor').execute();
}
