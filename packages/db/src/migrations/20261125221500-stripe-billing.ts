import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Stripe Billing (PAYMENT_PROVIDER=stripe). Each user is one Stripe Customer, made once. Each plan
 * bought is a Stripe Subscription, kept here with the latest state Stripe told us and when Stripe
 * took that snapshot (`state_at`), so an older event arriving late never overrides a newer one.
 * Every webhook event handled is recorded by its id: a redelivered event does nothing.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('stripe_customers')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('stripe_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.notNull())
    // The catalogue item it bills: a plan id, `{plan}_annual` for annual billing.
    .addColumn('item_id', 'text', (c) => c.notNull())
    // The PaymentIntent of its first invoice: the payment the checkout page confirms.
    .addColumn('first_intent_id', 'text', (c) => c.notNull().unique())
    // The period Stripe started it with, which its first invoice pays (the plan starts on it).
    .addColumn('first_period_start', 'timestamptz')
    .addColumn('first_period_end', 'timestamptz')
    // Stripe's own status names (incomplete, active, past_due, canceled...).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('current_period_start', 'timestamptz')
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('state_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('stripe_subscriptions_user_idx')
    .on('stripe_subscriptions')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    // Claimed by the delivery handling it; processed once that handling committed its effects.
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('processed_at', 'timestamptz')
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('stripe_events').ifExists().execute();
  await db.schema.dropTable('stripe_subscriptions').ifExists().execute();
  await db.schema.dropTable('stripe_customers').ifExists().execute();
}
