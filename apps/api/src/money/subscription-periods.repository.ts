import type { Database, Db, SubscriptionTier } from '@studioshot/db';
import type { BillingCycle } from '@studioshot/pricing';
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';

export type Executor = Kysely<Database>;
export type SubscriptionRow = Selectable<Database['subscriptions']>;

/** The user's subscription row, locked until the transaction ends (lock the user's row first). */
export function lockedSubscription(
  trx: Executor,
  userId: string,
): Promise<SubscriptionRow | undefined> {
  return trx
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}
export type PeriodRow = Selectable<Database['subscription_periods']>;

/** Billing periods, credit months and the training allowance: the SQL of RenewalsService. */
export class SubscriptionPeriodsRepository {
  constructor(readonly db: Db) {}

  transaction<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /**
   * The user's subscription, locked with the user's row until the transaction ends, in the order
   * plan payments lock them (the user first): billing changes to one account happen one at a
   * time, whoever makes them.
   */
  async lock(trx: Executor, userId: string): Promise<SubscriptionRow | undefined> {
    const user = await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) return undefined;
    return lockedSubscription(trx, userId);
  }

  find(userId: string): Promise<SubscriptionRow | undefined> {
    return this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async update(
    trx: Executor,
    userId: string,
    patch: Updateable<Database['subscriptions']>,
  ): Promise<void> {
    await trx
      .updateTable('subscriptions')
      .set({ ...patch, updated_at: sql`now()` })
      .where('user_id', '=', userId)
      .execute();
  }

  /**
   * The period starting at `start`, created (as due) when there is none yet. One still due takes
   * the plan it is given: a period recorded before an upgrade renews at the upgraded plan and its
   * price, not at the plan it was first recorded with.
   */
  async ensurePeriod(
    trx: Executor,
    period: {
      userId: string;
      tier: SubscriptionTier;
      cycle: BillingCycle;
      start: Date;
      end: Date;
      amountCents: number;
    },
  ): Promise<PeriodRow> {
    await trx
      .insertInto('subscription_periods')
      .values({
        user_id: period.userId,
        tier: period.tier,
        billing_cycle: period.cycle,
        period_start: period.start,
        period_end: period.end,
        amount_cents: period.amountCents,
        status: 'due',
      })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'period_start'])
          .doUpdateSet((eb) => ({
            tier: eb.ref('excluded.tier'),
            billing_cycle: eb.ref('excluded.billing_cycle'),
            amount_cents: eb.ref('excluded.amount_cents'),
          }))
          .where('subscription_periods.status', '=', 'due'),
      )
      .execute();
    return trx
      .selectFrom('subscription_periods')
      .selectAll()
      .where('user_id', '=', period.userId)
      .where('period_start', '=', period.start)
      .executeTakeFirstOrThrow();
  }

  findPeriod(trx: Executor, userId: string, start: Date): Promise<PeriodRow | undefined> {
    return trx
      .selectFrom('subscription_periods')
      .selectAll()
      .where('user_id', '=', userId)
      .where('period_start', '=', start)
      .executeTakeFirst();
  }

  /** due (or failed) -> paid, once: answers whether this call did it. */
  async markPeriodPaid(
    trx: Executor,
    periodId: string,
    paymentId: string | null,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('subscription_periods')
      .set({ status: 'paid', payment_id: paymentId, paid_at: sql`now()` })
      .where('id', '=', periodId)
      .where('status', '!=', 'paid')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Periods never paid become failed (the subscription ended, or a new one replaced them). */
  async failDuePeriods(trx: Executor, userId: string): Promise<void> {
    await trx
      .updateTable('subscription_periods')
      .set({ status: 'failed' })
      .where('user_id', '=', userId)
      .where('status', '=', 'due')
      .execute();
  }

  /** Records a credit month; false when it was recorded before (its grant already happened). */
  async insertAllowance(
    trx: Executor,
    month: {
      userId: string;
      periodId: string;
      tier: SubscriptionTier;
      start: Date;
      end: Date;
      credits: number;
    },
  ): Promise<boolean> {
    const inserted = await trx
      .insertInto('subscription_allowances')
      .values({
        user_id: month.userId,
        period_id: month.periodId,
        tier: month.tier,
        month_start: month.start,
        month_end: month.end,
        credits: month.credits,
      })
      .onConflict((oc) => oc.columns(['user_id', 'month_start']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /**
   * A new allowance period: the plan's trainings start again (`models_trained` counts this
   * period's), bought slots used last period are spent and the unused ones carry over. Within a
   * period the plan's allowance is used first: of the trainings counted, those beyond the plan's
   * own (`training_limit - extra_training_slots`) took bought slots.
   */
  async resetTrainingAllowance(
    trx: Executor,
    userId: string,
    plan: { type: 'free' | SubscriptionTier; interval: BillingCycle | null; allowance: number },
  ): Promise<void> {
    const unusedBought = sql<number>`greatest(extra_training_slots - greatest(models_trained - (training_limit - extra_training_slots), 0), 0)`;
    await trx
      .updateTable('users')
      .set({
        plan_type: plan.type,
        subscription_interval: plan.interval,
        extra_training_slots: unusedBought,
        training_limit: sql`${plan.allowance} + ${unusedBought}`,
        models_trained: 0,
        updated_at: sql`now()`,
      })
      .where('id', '=', userId)
      .execute();
  }

  /**
   * Users with billing work due at `now`: a period or credit month that has ended, or a renewal
   * retry whose time has come. Subscriptions waiting for a retry are not looked at before it.
   */
  async dueUserIds(now: Date, limit = 500): Promise<string[]> {
    // A user on the test clock is due by their own billing time.
    const userNow = sql<Date>`${now}::timestamptz + make_interval(secs => coalesce(c.offset_ms, 0) / 1000.0)`;
    const rows = await this.db
      .selectFrom('subscriptions as s')
      .leftJoin('test_clocks as c', 'c.user_id', 's.user_id')
      .select('s.user_id')
      .where('s.status', '!=', 'ended')
      .where(
        sql<boolean>`CASE WHEN s.next_renewal_attempt_at IS NOT NULL THEN s.next_renewal_attempt_at <= ${userNow}
          ELSE least(s.current_period_end, coalesce(s.allowance_period_end, s.current_period_end)) <= ${userNow} END`,
      )
      .orderBy('s.current_period_end')
      .limit(limit)
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** How far the user's billing time runs ahead of the wall clock (the test clock), in ms. */
  async clockOffsetMs(executor: Executor, userId: string): Promise<number> {
    const row = await executor
      .selectFrom('test_clocks')
      .select('offset_ms')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? Number(row.offset_ms) : 0;
  }

  /** The test clock moves the user's billing time `ms` further ahead. */
  async moveClock(trx: Executor, userId: string, ms: number): Promise<void> {
    await trx
      .insertInto('test_clocks')
      .values({ user_id: userId, offset_ms: Math.round(ms) })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          offset_ms: sql`test_clocks.offset_ms + ${Math.round(ms)}`,
          updated_at: sql`now()`,
        }),
      )
      .execute();
  }

  /**
   * A renewal charge in our payments table (what billing history lists), by the provider's
   * reference; the same reference again is the same payment. Answers the row and whether this
   * call wrote it.
   */
  async recordRenewalPayment(
    trx: Executor,
    payment: {
      userId: string;
      provider: string;
      reference: string;
      itemId: string;
      amountCents: number;
      currency: string;
      status: 'succeeded' | 'failed';
    },
  ): Promise<{ id: string; created: boolean; userId: string; kind: string }> {
    const inserted = await trx
      .insertInto('payments')
      .values({
        user_id: payment.userId,
        provider: payment.provider,
        provider_intent_id: payment.reference,
        kind: 'renewal',
        item_id: payment.itemId,
        amount_cents: payment.amountCents,
        currency: payment.currency,
        status: payment.status,
        fulfilled_at: payment.status === 'succeeded' ? sql`now()` : null,
      })
      .onConflict((oc) => oc.column('provider_intent_id').doNothing())
      .returning(['id', 'user_id', 'kind'])
      .executeTakeFirst();
    if (inserted)
      return { id: inserted.id, created: true, userId: inserted.user_id, kind: inserted.kind };
    const existing = await trx
      .selectFrom('payments')
      .select(['id', 'user_id', 'kind', 'status'])
      .where('provider_intent_id', '=', payment.reference)
      .executeTakeFirstOrThrow();
    // A reference first reported as failed and then paid (a retried invoice): now it is paid.
    if (payment.status === 'succeeded' && existing.status === 'failed')
      await trx
        .updateTable('payments')
        .set({ status: 'succeeded', fulfilled_at: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', existing.id)
        .execute();
    return { id: existing.id, created: false, userId: existing.user_id, kind: existing.kind };
  }
}
