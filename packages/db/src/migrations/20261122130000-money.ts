import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  // Training slots bought on top of the plan's own limit.
  await db.schema
    .alterTable('users')
    .addColumn('extra_training_slots', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`extra_training_slots >= 0`),
    )
    .execute();

  // Append-only: every change to a credit balance is one row here, written in the same
  // transaction as the balance. The idempotency key makes each grant or spend happen once.
  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('delta', 'integer', (c) => c.notNull().check(sql`delta <> 0`))
    .addColumn('balance_after', 'integer', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('payment_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('credit_ledger_user_idx')
    .on('credit_ledger')
    .columns(['user_id', 'created_at'])
    .execute();
  await sql`
    CREATE FUNCTION credit_ledger_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'credit_ledger is append-only';
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER credit_ledger_append_only BEFORE UPDATE OR DELETE ON credit_ledger
    FOR EACH ROW EXECUTE FUNCTION credit_ledger_is_append_only()`.execute(db);

  // The test payment provider's own store: it plays the part of Stripe's PaymentIntents.
  await db.schema
    .createTable('test_payment_intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('last_payment_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Our record of every purchase, whichever provider took the money.
  await db.schema
    .createTable('payments')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_intent_id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .check(sql`kind IN ('credits', 'subscription', 'upgrade', 'training_slots', 'generation')`),
    )
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status IN ('pending', 'succeeded', 'failed')`),
    )
    .addColumn('fulfilled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payments_user_idx').on('payments').column('user_id').execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('tier', 'text', (c) =>
      c.notNull().check(sql`tier IN ('starter', 'professional', 'premium')`),
    )
    .addColumn('billing_cycle', 'text', (c) =>
      c.notNull().check(sql`billing_cycle IN ('monthly', 'annual')`),
    )
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status IN ('active', 'cancelling', 'ended')`),
    )
    .addColumn('current_period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('current_period_end', 'timestamptz', (c) => c.notNull())
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_payment_id', 'uuid', (c) => c.references('payments.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('subscriptions').ifExists().execute();
  await db.schema.dropTable('payments').ifExists().execute();
  await db.schema.dropTable('test_payment_intents').ifExists().execute();
  await db.schema.dropTable('credit_ledger').ifExists().execute();
  await sql`DROP FUNCTION IF EXISTS credit_ledger_is_append_only()`.execute(db);
  await db.schema.alterTable('users').dropColumn('extra_training_slots').execute();
}
