import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Billing periods. A subscription is paid period by period (a month, or a year billed annually);
 * each paid period is one `subscription_periods` row, unique per (user, start), so a period is
 * paid and activated once whoever reports it (our renewal job, a confirm call, the provider's
 * event). Credits and the training allowance come monthly, also in annual periods: each credit
 * month is one `subscription_allowances` row, unique per (user, month start), written in the same
 * transaction as its credit grant and allowance reset. A renewal that fails leaves the
 * subscription `past_due` (plan kept) while it is retried on a schedule, then ends it.
 */
export async function up(db: Db): Promise<void> {
  await sql`ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_kind_check`.execute(db);
  await sql`ALTER TABLE payments ADD CONSTRAINT payments_kind_check CHECK (kind IN
    ('credits', 'subscription', 'upgrade', 'training_slots', 'generation', 'renewal'))`.execute(db);

  await sql`ALTER TABLE subscriptions DROP CONSTRAINT IF EXISTS subscriptions_status_check`.execute(
    db,
  );
  await sql`ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check
    CHECK (status IN ('active', 'cancelling', 'past_due', 'ended'))`.execute(db);
  await db.schema
    .alterTable('subscriptions')
    // The credit month now running (the period itself when billed monthly).
    .addColumn('allowance_period_start', 'timestamptz')
    .addColumn('allowance_period_end', 'timestamptz')
    // Failed charges of the renewal now due, the next try, and what the card answered last.
    .addColumn('renewal_attempts', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`renewal_attempts >= 0`),
    )
    .addColumn('next_renewal_attempt_at', 'timestamptz')
    .addColumn('renewal_error', 'text')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('ended_reason', 'text', (c) =>
      c.check(sql`ended_reason IN ('cancelled', 'renewal_failed')`),
    )
    .execute();

  await db.schema
    .createTable('subscription_periods')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tier', 'text', (c) =>
      c.notNull().check(sql`tier IN ('starter', 'professional', 'premium')`),
    )
    .addColumn('billing_cycle', 'text', (c) =>
      c.notNull().check(sql`billing_cycle IN ('monthly', 'annual')`),
    )
    .addColumn('period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('period_end', 'timestamptz', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('due', 'paid', 'failed')`))
    .addColumn('payment_id', 'uuid', (c) => c.references('payments.id'))
    .addColumn('paid_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('subscription_periods_user_start_key', ['user_id', 'period_start'])
    .addCheckConstraint('subscription_periods_order', sql`period_end > period_start`)
    .execute();

  await db.schema
    .createTable('subscription_allowances')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('period_id', 'uuid', (c) =>
      c.notNull().references('subscription_periods.id').onDelete('cascade'),
    )
    .addColumn('tier', 'text', (c) =>
      c.notNull().check(sql`tier IN ('starter', 'professional', 'premium')`),
    )
    .addColumn('month_start', 'timestamptz', (c) => c.notNull())
    .addColumn('month_end', 'timestamptz', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull().check(sql`credits >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('subscription_allowances_user_month_key', ['user_id', 'month_start'])
    .execute();

  // The test payment provider's cards on file (Stripe's customer default payment method): what a
  // renewal charges off-session. Only a test card's public facts; the number itself is dropped.
  await db.schema
    .createTable('test_payment_methods')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    // What charging it answers: null succeeds, else the decline message.
    .addColumn('charge_error', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // The test clock (TEST_CLOCK, development only): how far a user's billing time runs ahead of
  // the wall clock, as a Stripe test clock's frozen time does. Always empty in production.
  await db.schema
    .createTable('test_clocks')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('offset_ms', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`offset_ms >= 0`),
    )
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Subscriptions from before periods: their running period was paid by their last payment, and
  // its credits were granted with it.
  await sql`
    INSERT INTO subscription_periods
      (user_id, tier, billing_cycle, period_start, period_end, amount_cents, status, payment_id,
       paid_at)
    SELECT s.user_id, s.tier, s.billing_cycle, s.current_period_start, s.current_period_end,
           coalesce(p.amount_cents, 0), 'paid', s.last_payment_id, s.current_period_start
      FROM subscriptions s LEFT JOIN payments p ON p.id = s.last_payment_id
     WHERE s.status <> 'ended' AND s.current_period_end > s.current_period_start`.execute(db);
  await sql`
    INSERT INTO subscription_allowances (user_id, period_id, tier, month_start, month_end, credits)
    SELECT sp.user_id, sp.id, sp.tier, sp.period_start, sp.period_end, 0
      FROM subscription_periods sp`.execute(db);
  await sql`
    UPDATE subscriptions
       SET allowance_period_start = current_period_start,
           allowance_period_end = current_period_end
     WHERE status <> 'ended'`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('test_clocks').ifExists().execute();
  await db.schema.dropTable('test_payment_methods').ifExists().execute();
  await db.schema.dropTable('subscription_allowances').ifExists().execute();
  await db.schema.dropTable('subscription_periods').ifExists().execute();
  await sql`UPDATE subscriptions SET status = 'active' WHERE status = 'past_due'`.execute(db);
  await sql`ALTER TABLE subscriptions DROP CONSTRAINT IF EXISTS subscriptions_status_check`.execute(
    db,
  );
  await sql`ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check
    CHECK (status IN ('active', 'cancelling', 'ended'))`.execute(db);
  await db.schema
    .alterTable('subscriptions')
    .dropColumn('allowance_period_start')
    .dropColumn('allowance_period_end')
    .dropColumn('renewal_attempts')
    .dropColumn('next_renewal_attempt_at')
    .dropColumn('renewal_error')
    .dropColumn('ended_at')
    .dropColumn('ended_reason')
    .execute();
  await sql`DELETE FROM payments WHERE kind = 'renewal'`.execute(db);
  await sql`ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_kind_check`.execute(db);
  await sql`ALTER TABLE payments ADD CONSTRAINT payments_kind_check CHECK (kind IN
    ('credits', 'subscription', 'upgrade', 'training_slots', 'generation'))`.execute(db);
}
