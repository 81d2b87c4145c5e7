import type {
  Database,
  Db,
  PaymentKind,
  PaymentProration,
  RefundReason,
  SubscriptionTier,
} from '@studioshot/db';
import { sql, type Kysely, type Selectable } from 'kysely';

export type Payment = Selectable<Database['payments']>;
export type Subscription = Selectable<Database['subscriptions']>;
type Executor = Kysely<Database>;

export class PaymentsRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  async create(input: {
    id: string;
    userId: string;
    provider: string;
    providerIntentId: string;
    kind: PaymentKind;
    itemId: string;
    amountCents: number;
    currency: string;
    fromPlan?: string | null;
    proration?: PaymentProration | null;
  }): Promise<Payment> {
    return (
      this.db
        .insertInto('payments')
        .values({
          id: input.id,
          user_id: input.userId,
          provider: input.provider,
          provider_intent_id: input.providerIntentId,
          kind: input.kind,
          item_id: input.itemId,
          amount_cents: input.amountCents,
          currency: input.currency,
          status: 'pending',
          from_plan: input.fromPlan ?? null,
          proration: input.proration ? JSON.stringify(input.proration) : null,
        })
        // The same provider intent twice (an idempotent create replayed) is one payment.
        .onConflict((oc) => oc.column('provider_intent_id').doUpdateSet({ updated_at: sql`now()` }))
        .returningAll()
        .executeTakeFirstOrThrow()
    );
  }

  findByIntent(providerIntentId: string): Promise<Payment | undefined> {
    return this.db
      .selectFrom('payments')
      .selectAll()
      .where('provider_intent_id', '=', providerIntentId)
      .executeTakeFirst();
  }

  /**
   * The user's generation orders that no generation uses yet: the paid ones (oldest first), then
   * those still pending (newest first: a card step may have paid one before any confirm or
   * webhook told us).
   */
  unusedGenerationOrders(userId: string, limit = 5): Promise<Payment[]> {
    return this.db
      .selectFrom('payments as p')
      .selectAll('p')
      .where('p.user_id', '=', userId)
      .where('p.kind', '=', 'generation')
      .where('p.status', 'in', ['succeeded', 'pending'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('generations as g')
              .select(sql.lit(1).as('one'))
              .whereRef('g.payment_id', '=', 'p.id'),
          ),
        ),
      )
      .orderBy(sql`p.status = 'succeeded'`, 'desc')
      .orderBy(sql`CASE WHEN p.status = 'succeeded' THEN p.created_at END`, 'asc')
      .orderBy('p.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Claims a payment for fulfilment: only the first caller gets the row back; every later
   * caller (a second webhook delivery, a confirm call racing it) gets undefined.
   */
  claimForFulfilment(trx: Executor, paymentId: string): Promise<Payment | undefined> {
    return (
      trx
        .updateTable('payments')
        .set({ status: 'succeeded', fulfilled_at: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', paymentId)
        .where('fulfilled_at', 'is', null)
        // A refunded payment (a stale plan payment given back) is never applied afterwards.
        .where('status', '!=', 'refunded')
        .returningAll()
        .executeTakeFirst()
    );
  }

  findById(paymentId: string): Promise<Payment | undefined> {
    return this.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', paymentId)
      .executeTakeFirst();
  }

  /**
   * Paid generation orders whose failure recorded them as due back and that are not refunded yet,
   * oldest first.
   */
  refundsDue(limit = 50): Promise<Payment[]> {
    return this.db
      .selectFrom('payments')
      .selectAll()
      .where('refund_due_at', 'is not', null)
      .where('status', '=', 'succeeded')
      .where('kind', '=', 'generation')
      .orderBy('refund_due_at')
      .limit(limit)
      .execute();
  }

  /** Whether this generation's order is recorded as due back and not refunded yet. */
  async refundDueFor(generationId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('generations as g')
      .innerJoin('payments as p', 'p.id', 'g.payment_id')
      .select('p.id')
      .where('g.id', '=', generationId)
      .where('p.refund_due_at', 'is not', null)
      .where('p.status', '=', 'succeeded')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * A paid payment its owner asked back, refunded at the provider: marked refunded with their
   * reason, once. Answers the row for the one call that did it.
   */
  claimRequestedRefund(
    trx: Executor,
    paymentId: string,
    reason: RefundReason,
  ): Promise<Payment | undefined> {
    return trx
      .updateTable('payments')
      .set({
        status: 'refunded',
        refunded_at: sql`now()`,
        refund_reason: reason,
        refund_requested_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', paymentId)
      .where('status', '=', 'succeeded')
      .returningAll()
      .executeTakeFirst();
  }

  /** Credits the ledger granted with this payment (its first month, its credit months, a pack). */
  async creditsGranted(trx: Executor, paymentId: string): Promise<number> {
    const row = await trx
      .selectFrom('credit_ledger')
      .select(sql<number>`coalesce(sum(delta), 0)::int`.as('credits'))
      .where('payment_id', '=', paymentId)
      .where('delta', '>', 0)
      .executeTakeFirstOrThrow();
    return row.credits;
  }

  /** The user's credits balance, locked until the transaction ends. */
  async lockBalance(trx: Executor, userId: string): Promise<number> {
    const row = await trx
      .selectFrom('users')
      .select('credits_balance')
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    return row.credits_balance;
  }

  /** Bought training slots given back: never below none, and the limit falls with them. */
  async removeTrainingSlots(trx: Executor, userId: string, slots: number): Promise<void> {
    await trx
      .updateTable('users')
      .set({
        training_limit: sql`training_limit - least(extra_training_slots, ${slots})`,
        extra_training_slots: sql`extra_training_slots - least(extra_training_slots, ${slots})`,
        updated_at: sql`now()`,
      })
      .where('id', '=', userId)
      .execute();
  }

  /** A payment the provider took becomes refunded, once: answers whether this call did it. */
  async markRefunded(paymentId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('payments')
      .set({ status: 'refunded', refunded_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', paymentId)
      .where('status', 'in', ['pending', 'succeeded'])
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The user's plan, locked until the transaction ends: plan changes happen one at a time. */
  async lockPlan(trx: Executor, userId: string): Promise<string | undefined> {
    const row = await trx
      .selectFrom('users')
      .select('plan_type')
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    return row?.plan_type;
  }

  async markFailed(paymentId: string): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ status: 'failed', updated_at: sql`now()` })
      .where('id', '=', paymentId)
      .where('fulfilled_at', 'is', null)
      .execute();
  }

  async addTrainingSlots(trx: Executor, userId: string, slots: number): Promise<void> {
    await trx
      .updateTable('users')
      .set({
        extra_training_slots: sql`extra_training_slots + ${slots}`,
        training_limit: sql`training_limit + ${slots}`,
        updated_at: sql`now()`,
      })
      .where('id', '=', userId)
      .execute();
  }

  /** Moves a user to a plan; the training limit is always the plan's plus bought slots. */
  async setPlan(
    trx: Executor,
    userId: string,
    plan: { type: 'free' | SubscriptionTier; interval: string | null; trainingLimit: number },
  ): Promise<void> {
    await trx
      .updateTable('users')
      .set({
        plan_type: plan.type,
        subscription_interval: plan.interval,
        training_limit: sql`${plan.trainingLimit} + extra_training_slots`,
        updated_at: sql`now()`,
      })
      .where('id', '=', userId)
      .execute();
  }

  async upsertSubscription(
    trx: Executor,
    input: {
      userId: string;
      tier: SubscriptionTier;
      paymentId: string;
      periodStart: Date;
      periodEnd: Date;
    },
  ): Promise<void> {
    const values = {
      tier: input.tier,
      billing_cycle: 'monthly' as const,
      status: 'active' as const,
      current_period_start: input.periodStart,
      current_period_end: input.periodEnd,
      // A new plan's periods count from its first one.
      billing_anchor: input.periodStart,
      cancel_at_period_end: false,
      last_payment_id: input.paymentId,
      updated_at: new Date(),
    };
    await trx
      .insertInto('subscriptions')
      .values({ user_id: input.userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  }

  findSubscription(userId: string): Promise<Subscription | undefined> {
    return this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** active -> cancelling, or cancelling -> active; undefined when the subscription was not in `from`. */
  setCancelling(userId: string, cancelling: boolean): Promise<Subscription | undefined> {
    return this.db
      .updateTable('subscriptions')
      .set({
        status: cancelling ? 'cancelling' : 'active',
        cancel_at_period_end: cancelling,
        updated_at: sql`now()`,
      })
      .where('user_id', '=', userId)
      .where('status', '=', cancelling ? 'active' : 'cancelling')
      .where('current_period_end', '>', sql<Date>`now()`)
      .returningAll()
      .executeTakeFirst();
  }
}
