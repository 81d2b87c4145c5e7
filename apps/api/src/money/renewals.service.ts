/**
 * Subscription renewals: billing periods, monthly credit months, failed-renewal retries, lapses.
 *
 * Provider-agnostic entry points, for our own jobs and for the Stripe webhook handler alike:
 *
 *   recordRenewalPaid(userId: string, periodStart: Date, payment: RenewalPayment): Promise<boolean>
 *     The period of the user's subscription starting at `periodStart` is paid (Stripe:
 *     `invoice.paid`, with the invoice line's period start, and the invoice's PaymentIntent id,
 *     else the invoice id, as `payment.reference`). Answers true for the one call that recorded
 *     it; any number of repeats, in any order with the other calls and our renewal job, grant
 *     that period's credits once. The period takes effect (credits, training allowance) once its
 *     start has come, at once when it already has.
 *
 *   recordRenewalFailed(userId: string, periodStart: Date, failure: RenewalFailure): Promise<boolean>
 *     A charge for that period failed (Stripe: `invoice.payment_failed`, `nextAttemptAt` from the
 *     invoice's next_payment_attempt, null when no retry will come: the subscription then ends;
 *     `payUrl` its hosted_invoice_url, where the owner pays it with a new card meanwhile).
 *     Idempotent per `failure.reference`; ignored once that period is paid.
 *
 *   endSubscription(userId: string, reason: 'cancelled' | 'renewal_failed'): Promise<boolean>
 *     The provider ended the subscription (Stripe: `customer.subscription.deleted`): back to the
 *     free plan now, credits kept.
 *
 * In test mode our scheduled job charges the card on file (the provider's `chargeCardOnFile`) at
 * each period end and retries on RENEWAL_RETRY_DAYS; in Stripe mode Stripe Billing charges and
 * retries, and the job only reconciles: a period Stripe reported paid takes effect at its start,
 * and a subscription with no payment reported by the last retry day ends.
 */
import { MESSAGES, SCHEDULED_JOBS } from '@studioshot/contracts';
import {
  anchoredPeriodEnd,
  RENEWAL_RETRY_DAYS,
  BILLING_CYCLE_MONTHS,
  creditMonthOf,
  CURRENCY,
  findPlan,
  planPeriodPriceCents,
  subscriptionItemId,
  type BillingCycle,
  type PaidPlan,
} from '@studioshot/pricing';
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { CreditLedgerRepository } from '../repositories/credit-ledger.repository.js';
import type { PaymentProvider } from './payment-providers/provider.js';
import type {
  Executor,
  PeriodRow,
  SubscriptionPeriodsRepository,
  SubscriptionRow,
} from './subscription-periods.repository.js';
import type { ScheduledJobs } from '../scheduling/scheduled-jobs.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The provider idempotency key of one charge attempt of a period: racing runs of one attempt
 * share it (one charge), a retry has its own (the card then on file is charged afresh).
 */
export function renewalChargeKey(userId: string, periodStart: Date, attempt: number): string {
  return `renewal:${userId}:${periodStart.toISOString()}:${attempt}`;
}
/** Steps one run may take: catching up a long outage month by month, bounded. */
const MAX_STEPS = 32;

export interface RenewalPayment {
  provider: 'test' | 'stripe';
  /** The provider's id of the money taken (a PaymentIntent, an invoice): one payment per id. */
  reference: string;
  amountCents: number;
  currency: string;
  /** When the provider says where the period ends; else where the subscription's anchor puts it. */
  periodEnd?: Date;
}

export interface RenewalFailure {
  provider: 'test' | 'stripe';
  /** The failed attempt's id at the provider: one failure per id. */
  reference: string;
  amountCents: number;
  currency: string;
  /** What the card answered, shown to the user. */
  message: string;
  /** The provider's next try; null when there is none (the subscription ends); else ours. */
  nextAttemptAt?: Date | null;
  /** Where the owner pays this renewal at the provider now, with a new card; none in test mode. */
  payUrl?: string | null;
}

/** What one step of billing did. */
export type RenewalStep = 'credit_month' | 'renewed' | 'renewal_failed' | 'lapsed' | 'ended';

export class RenewalsService {
  constructor(
    private readonly deps: {
      periods: SubscriptionPeriodsRepository;
      ledger: CreditLedgerRepository;
      provider: PaymentProvider;
      scheduled: ScheduledJobs;
      logger: Logger;
      /** Whether the test clock runs (TEST_CLOCK): users' billing time may then run ahead. */
      testClock?: boolean;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The user's billing time: the wall clock, plus the test clock's lead when it runs. */
  private async nowFor(executor: Executor, userId: string): Promise<Date> {
    const lead = this.deps.testClock ? await this.deps.periods.clockOffsetMs(executor, userId) : 0;
    return new Date(this.now().getTime() + lead);
  }

  /**
   * A new subscription's first period, paid by `paymentId` (whose own grant gave the first
   * month's credits), in the fulfilment transaction: the period and its first credit month are
   * recorded and the training allowance starts afresh. Any renewal still due from an earlier
   * subscription is closed. Call `scheduleNext` after the transaction commits.
   */
  async startSubscription(
    trx: Executor,
    input: { userId: string; plan: PaidPlan; cycle: BillingCycle; paymentId: string; start: Date },
  ): Promise<{ start: Date; end: Date }> {
    const plan = findPlan(input.plan)!;
    const { periods } = this.deps;
    // The first period: its start is the subscription's anchor (billing_anchor).
    const end = anchoredPeriodEnd(input.start, input.start, BILLING_CYCLE_MONTHS[input.cycle]);
    await periods.failDuePeriods(trx, input.userId);
    const period = await periods.ensurePeriod(trx, {
      userId: input.userId,
      tier: plan.id,
      cycle: input.cycle,
      start: input.start,
      end,
      amountCents: planPeriodPriceCents(plan, input.cycle),
    });
    await periods.markPeriodPaid(trx, period.id, input.paymentId);
    const month = creditMonthOf({ start: input.start, end }, input.cycle, input.start, input.start);
    await periods.insertAllowance(trx, {
      userId: input.userId,
      periodId: period.id,
      tier: plan.id,
      start: month.start,
      end: month.end,
      credits: plan.credits,
    });
    await periods.update(trx, input.userId, {
      billing_cycle: input.cycle,
      allowance_period_start: month.start,
      allowance_period_end: month.end,
      renewal_attempts: 0,
      next_renewal_attempt_at: null,
      renewal_error: null,
      renewal_pay_url: null,
      ended_at: null,
      ended_reason: null,
    });
    await periods.resetTrainingAllowance(trx, input.userId, {
      type: plan.id,
      interval: input.cycle,
      allowance: plan.training_limit,
    });
    return { start: input.start, end };
  }

  /**
   * Runs the user's due billing work now, step by step: credit months, the period end (renew,
   * retry, lapse, or end a cancelled subscription). `charge: false` never charges (a read that
   * only settles what needs no money). Answers the steps taken.
   */
  async processDue(userId: string, options: { charge?: boolean } = {}): Promise<RenewalStep[]> {
    const steps: RenewalStep[] = [];
    await this.deps.periods.transaction(async (trx) => {
      for (let i = 0; i < MAX_STEPS; i += 1) {
        const sub = await this.deps.periods.lock(trx, userId);
        const now = await this.nowFor(trx, userId);
        const step = sub ? await this.step(trx, sub, now, options.charge ?? true) : undefined;
        if (!step) break;
        steps.push(step);
        if (step !== 'credit_month' && step !== 'renewed') break;
      }
    });
    if (steps.length > 0) this.deps.logger.info({ userId, steps }, 'subscription billing steps');
    await this.scheduleNext(userId);
    return steps;
  }

  /**
   * What is due and takes no money, done now (a read of the subscription: a cancelled plan past
   * its end ends); a plain read with nothing due takes no lock.
   */
  async settleDue(userId: string): Promise<void> {
    const sub = await this.deps.periods.find(userId);
    const due = sub && nextDue(sub);
    if (!due || due > (await this.nowFor(this.deps.periods.db, userId))) return;
    await this.processDue(userId, { charge: false });
  }

  /** Every subscription with work due (the sweep); one failing does not stop the others. */
  async processAllDue(): Promise<number> {
    let processed = 0;
    for (const userId of await this.deps.periods.dueUserIds(this.now())) {
      try {
        if ((await this.processDue(userId)).length > 0) processed += 1;
      } catch (error) {
        this.deps.logger.error({ err: error, userId }, 'subscription billing failed; will retry');
      }
    }
    return processed;
  }

  async recordRenewalPaid(
    userId: string,
    periodStart: Date,
    payment: RenewalPayment,
  ): Promise<boolean> {
    const recorded = await this.deps.periods.transaction(async (trx) => {
      const sub = await this.deps.periods.lock(trx, userId);
      if (!sub) return false;
      const period = await this.periodAt(trx, sub, periodStart, payment.periodEnd);
      return this.applyPaid(trx, sub, period, payment);
    });
    await this.processDue(userId, { charge: false });
    return recorded;
  }

  async recordRenewalFailed(
    userId: string,
    periodStart: Date,
    failure: RenewalFailure,
  ): Promise<boolean> {
    const recorded = await this.deps.periods.transaction(async (trx) => {
      const sub = await this.deps.periods.lock(trx, userId);
      if (!sub) return false;
      const period = await this.periodAt(trx, sub, periodStart);
      return this.applyFailed(trx, sub, period, failure, await this.nowFor(trx, userId));
    });
    await this.scheduleNext(userId);
    return recorded;
  }

  /**
   * A refunded plan payment ends the plan now, in the refund's transaction: back to the free plan,
   * no renewal due. Answers whether a running subscription ended.
   */
  async endForRefund(trx: Executor, userId: string): Promise<boolean> {
    const sub = await this.deps.periods.lock(trx, userId);
    if (!sub || sub.status === 'ended') return false;
    await this.end(trx, sub, 'refunded', null, await this.nowFor(trx, userId));
    return true;
  }

  async endSubscription(userId: string, reason: 'cancelled' | 'renewal_failed'): Promise<boolean> {
    return this.deps.periods.transaction(async (trx) => {
      const sub = await this.deps.periods.lock(trx, userId);
      if (!sub || sub.status === 'ended') return false;
      await this.end(trx, sub, reason, sub.renewal_error, await this.nowFor(trx, userId));
      return true;
    });
  }

  /**
   * A failed renewal paid now, by its owner (after updating the card): the card on file is
   * charged at once. A decline is recorded and answered, and leaves the retry schedule as it
   * was: trying cards never brings the lapse closer. Test payment mode (in Stripe mode the
   * invoice is paid at Stripe and reported by its events).
   */
  async payNow(userId: string): Promise<{ ok: true } | { ok: false; message: string }> {
    const chargeCard = this.deps.provider.chargeCardOnFile?.bind(this.deps.provider);
    const outcome = await this.deps.periods.transaction(async (trx) => {
      const sub = await this.deps.periods.lock(trx, userId);
      if (!sub || sub.status !== 'past_due' || !chargeCard)
        throw new AppError('conflict', MESSAGES.noRenewalToPay);
      const next = await this.periodAt(trx, sub, sub.current_period_end);
      // Each try by hand is its own charge attempt.
      const key = `${renewalChargeKey(userId, next.period_start, 0)}:${randomUUID()}`;
      const result = await this.chargeRenewal(trx, sub, next, chargeCard, key);
      if (!result.ok) {
        await this.deps.periods.recordRenewalPayment(trx, {
          userId,
          ...result.reference,
          itemId: subscriptionItemId(next.tier, next.billing_cycle),
          status: 'failed',
        });
        return { ok: false as const, message: result.message };
      }
      return { ok: true as const };
    });
    await this.scheduleNext(userId);
    return outcome;
  }

  /**
   * Puts the user's next due moment on the scheduled queue: the period end, the next credit
   * month or the next retry. The job id names the user and the moment, so every caller adds one
   * job; the sweep catches anything a lost job would miss.
   */
  async scheduleNext(userId: string): Promise<void> {
    const sub = await this.deps.periods.find(userId);
    const due = sub && nextDue(sub);
    if (!due) return;
    // On the test clock the user's time runs ahead: the job runs at the wall clock's moment.
    const lead = (await this.nowFor(this.deps.periods.db, userId)).getTime() - this.now().getTime();
    try {
      await this.deps.scheduled.at(SCHEDULED_JOBS.billingRenew, {
        id: `renew.${userId}.${due.getTime()}`,
        runAt: new Date(due.getTime() - lead),
        data: { user_id: userId },
      });
    } catch (error) {
      this.deps.logger.warn({ err: error, userId }, 'could not schedule a renewal; the sweep will');
    }
  }

  /**
   * The test clock, as a Stripe test clock: the user's billing time moves ahead to their next due
   * moment (the period end, the next credit month, the next retry); the due work then runs as
   * the scheduled job would. Nothing is rewritten: dates stay what they were, and the user's time
   * stays ahead of the wall clock from then on. Development only (TEST_CLOCK).
   */
  async advanceClock(userId: string): Promise<{ advancedTo: Date; steps: RenewalStep[] }> {
    const advancedTo = await this.deps.periods.transaction(async (trx) => {
      const sub = await this.deps.periods.lock(trx, userId);
      const due = sub && nextDue(sub);
      if (!sub || !due) throw new AppError('conflict', MESSAGES.testClockNoSubscription);
      const ms = due.getTime() - (await this.nowFor(trx, userId)).getTime();
      if (ms > 0) await this.deps.periods.moveClock(trx, userId, ms);
      return due;
    });
    return { advancedTo, steps: await this.processDue(userId) };
  }

  /** One step of due work for a locked subscription, or undefined when nothing is due. */
  private async step(
    trx: Executor,
    sub: SubscriptionRow,
    now: Date,
    charge: boolean,
  ): Promise<RenewalStep | undefined> {
    const periodEnd = sub.current_period_end;
    if (sub.status === 'ended') {
      // A renewal paid after the subscription lapsed (the provider's late retry succeeded): the
      // money was taken, so the period it paid for takes effect.
      if (sub.ended_reason !== 'renewal_failed') return undefined;
      const late = await this.deps.periods.findPeriod(trx, sub.user_id, periodEnd);
      if (late?.status !== 'paid' || late.period_start > now) return undefined;
      await this.activate(trx, sub, late);
      return 'renewed';
    }
    // The next credit month of an annual period.
    const monthEnd = sub.allowance_period_end;
    if (monthEnd && monthEnd <= now && monthEnd < periodEnd) {
      const month = creditMonthOf(
        { start: sub.current_period_start, end: periodEnd },
        sub.billing_cycle,
        monthEnd,
        sub.billing_anchor,
      );
      await this.openCreditMonth(trx, sub, month);
      return 'credit_month';
    }
    if (periodEnd > now) return undefined;
    if (sub.status === 'cancelling') {
      await this.end(trx, sub, 'cancelled', null, now);
      return 'ended';
    }
    const next = await this.periodAt(trx, sub, periodEnd);
    if (next.status === 'paid') {
      await this.activate(trx, sub, next);
      return 'renewed';
    }
    if (sub.next_renewal_attempt_at && sub.next_renewal_attempt_at > now) return undefined;
    const chargeCard = this.deps.provider.chargeCardOnFile?.bind(this.deps.provider);
    if (!chargeCard) {
      // Stripe charges and retries; nothing reported by a day after its last retry: it ended.
      const deadline = new Date(periodEnd.getTime() + (lastRetryDay() + 1) * DAY_MS);
      if (now >= deadline) {
        await this.lapse(trx, sub, MESSAGES.renewalNotReceived, now);
        return 'lapsed';
      }
      await this.deps.periods.update(trx, sub.user_id, { next_renewal_attempt_at: deadline });
      return undefined;
    }
    if (!charge) return undefined;
    const attempt = sub.renewal_attempts + 1;
    const key = renewalChargeKey(sub.user_id, next.period_start, attempt);
    const result = await this.chargeRenewal(trx, sub, next, chargeCard, key);
    if (result.ok) return 'renewed';
    await this.applyFailed(trx, sub, next, { ...result.reference, message: result.message }, now);
    const after = await this.deps.periods.lock(trx, sub.user_id);
    return after?.status === 'ended' ? 'lapsed' : 'renewal_failed';
  }

  /**
   * Charges the card on file for the period `next` (the renewal job's attempt and the owner's
   * pay-now alike); a success is applied and the period activated here, a decline is the
   * caller's to record (the job schedules a retry, pay-now leaves the schedule as it was).
   */
  private async chargeRenewal(
    trx: Executor,
    sub: SubscriptionRow,
    next: PeriodRow,
    chargeCard: NonNullable<PaymentProvider['chargeCardOnFile']>,
    idempotencyKey: string,
  ): Promise<
    { ok: true } | { ok: false; message: string; reference: Omit<RenewalPayment, 'periodEnd'> }
  > {
    const itemId = subscriptionItemId(next.tier, next.billing_cycle);
    const result = await chargeCard({
      userId: sub.user_id,
      amount: next.amount_cents,
      currency: CURRENCY,
      metadata: {
        user_id: sub.user_id,
        kind: 'renewal',
        item_id: itemId,
        period_start: next.period_start.toISOString(),
      },
      idempotencyKey,
    });
    const reference = {
      provider: this.deps.provider.name,
      reference: result.intent.id,
      amountCents: result.intent.amount,
      currency: result.intent.currency,
    };
    if (!result.ok) return { ok: false, message: result.message, reference };
    await this.applyPaid(trx, sub, next, reference);
    await this.activate(trx, sub, { ...next, status: 'paid' });
    return { ok: true };
  }

  /**
   * The period of this subscription starting at `start`, recorded as due if new. It ends where the
   * provider says, else on the anchor's day (every renewal, retry and pay-now comes through here).
   */
  private periodAt(
    trx: Executor,
    sub: SubscriptionRow,
    start: Date,
    end?: Date,
  ): Promise<PeriodRow> {
    const plan = findPlan(sub.tier)!;
    return this.deps.periods.ensurePeriod(trx, {
      userId: sub.user_id,
      tier: sub.tier,
      cycle: sub.billing_cycle,
      start,
      end:
        end ??
        anchoredPeriodEnd(sub.billing_anchor, start, BILLING_CYCLE_MONTHS[sub.billing_cycle]),
      amountCents: planPeriodPriceCents(plan, sub.billing_cycle),
    });
  }

  private async applyPaid(
    trx: Executor,
    sub: SubscriptionRow,
    period: PeriodRow,
    payment: RenewalPayment,
  ): Promise<boolean> {
    const recorded = await this.deps.periods.recordRenewalPayment(trx, {
      userId: sub.user_id,
      provider: payment.provider,
      reference: payment.reference,
      itemId: subscriptionItemId(period.tier, period.billing_cycle),
      amountCents: payment.amountCents,
      currency: payment.currency,
      status: 'succeeded',
    });
    if (recorded.userId !== sub.user_id || recorded.kind !== 'renewal') {
      this.deps.logger.error(
        { userId: sub.user_id, reference: payment.reference },
        'renewal reference belongs to another payment; not applied',
      );
      return false;
    }
    return this.deps.periods.markPeriodPaid(trx, period.id, recorded.id);
  }

  private async applyFailed(
    trx: Executor,
    sub: SubscriptionRow,
    period: PeriodRow,
    failure: RenewalFailure,
    now: Date,
  ): Promise<boolean> {
    const recorded = await this.deps.periods.recordRenewalPayment(trx, {
      userId: sub.user_id,
      provider: failure.provider,
      reference: failure.reference,
      itemId: subscriptionItemId(period.tier, period.billing_cycle),
      amountCents: failure.amountCents,
      currency: failure.currency,
      status: 'failed',
    });
    // The same failure again, a failure of a period already paid, or of one that is not the
    // renewal now due: kept in the history, nothing changes.
    if (
      !recorded.created ||
      period.status === 'paid' ||
      period.period_start.getTime() !== sub.current_period_end.getTime() ||
      (sub.status !== 'active' && sub.status !== 'past_due')
    )
      return recorded.created;
    const attempts = sub.renewal_attempts + 1;
    const retryDay = RENEWAL_RETRY_DAYS[attempts - 1];
    const nextAttemptAt =
      failure.nextAttemptAt !== undefined
        ? failure.nextAttemptAt
        : retryDay === undefined
          ? null
          : new Date(sub.current_period_end.getTime() + retryDay * DAY_MS);
    if (nextAttemptAt === null) {
      await this.lapse(trx, sub, failure.message, now);
      return true;
    }
    await this.deps.periods.update(trx, sub.user_id, {
      status: 'past_due',
      renewal_attempts: attempts,
      next_renewal_attempt_at: nextAttemptAt,
      renewal_error: failure.message,
      renewal_pay_url: failure.payUrl ?? null,
    });
    this.deps.logger.warn(
      { userId: sub.user_id, attempts, nextAttemptAt, reason: failure.message },
      'subscription renewal failed; will retry',
    );
    return true;
  }

  /** A paid period whose start has come becomes the current one, with its first credit month. */
  private async activate(trx: Executor, sub: SubscriptionRow, period: PeriodRow): Promise<void> {
    const window = { start: period.period_start, end: period.period_end };
    await this.deps.periods.update(trx, sub.user_id, {
      tier: period.tier,
      billing_cycle: period.billing_cycle,
      status: 'active',
      current_period_start: window.start,
      current_period_end: window.end,
      cancel_at_period_end: false,
      renewal_attempts: 0,
      next_renewal_attempt_at: null,
      renewal_error: null,
      renewal_pay_url: null,
      last_payment_id: period.payment_id,
      ended_at: null,
      ended_reason: null,
    });
    const current = {
      ...sub,
      tier: period.tier,
      billing_cycle: period.billing_cycle,
      current_period_start: window.start,
      current_period_end: window.end,
    };
    await this.openCreditMonth(
      trx,
      current,
      creditMonthOf(window, period.billing_cycle, window.start, sub.billing_anchor),
      period,
    );
  }

  /**
   * A credit month begins: the plan's credits, once (its allowance row and the ledger's key both
   * name the month), and the training allowance starts again.
   */
  private async openCreditMonth(
    trx: Executor,
    sub: Pick<
      SubscriptionRow,
      | 'user_id'
      | 'tier'
      | 'billing_cycle'
      | 'billing_anchor'
      | 'current_period_start'
      | 'current_period_end'
    >,
    month: { start: Date; end: Date },
    period?: PeriodRow,
  ): Promise<void> {
    const { periods, ledger } = this.deps;
    const plan = findPlan(sub.tier)!;
    const paid =
      period ??
      (await periods.findPeriod(trx, sub.user_id, sub.current_period_start)) ??
      (await this.periodAt(trx, sub as SubscriptionRow, sub.current_period_start));
    const opened = await periods.insertAllowance(trx, {
      userId: sub.user_id,
      periodId: paid.id,
      tier: plan.id,
      start: month.start,
      end: month.end,
      credits: plan.credits,
    });
    if (opened) {
      const result = await ledger.apply(
        {
          userId: sub.user_id,
          delta: plan.credits,
          reason: 'subscription_credits',
          idempotencyKey: `subscription-credits:${sub.user_id}:${month.start.toISOString()}`,
          paymentId: paid.payment_id ?? undefined,
        },
        trx,
      );
      if (result.outcome === 'insufficient') throw new Error('a grant cannot be insufficient');
      await periods.resetTrainingAllowance(trx, sub.user_id, {
        type: plan.id,
        interval: sub.billing_cycle,
        allowance: plan.training_limit,
      });
    }
    await periods.update(trx, sub.user_id, {
      allowance_period_start: month.start,
      allowance_period_end: month.end,
    });
  }

  /** The renewal never came: the subscription ends, the account returns to the free plan. */
  private async lapse(
    trx: Executor,
    sub: SubscriptionRow,
    message: string,
    now: Date,
  ): Promise<void> {
    await this.end(trx, sub, 'renewal_failed', message, now);
    this.deps.logger.warn(
      { userId: sub.user_id, reason: message },
      'subscription lapsed: renewal failed',
    );
  }

  /**
   * Back to the free plan: credits stay, bought training slots not used stay (a refund takes back
   * its own payment's credits itself).
   */
  private async end(
    trx: Executor,
    sub: SubscriptionRow,
    reason: 'cancelled' | 'renewal_failed' | 'refunded',
    message: string | null,
    now: Date,
  ): Promise<void> {
    await this.deps.periods.update(trx, sub.user_id, {
      status: 'ended',
      cancel_at_period_end: false,
      ended_at: now,
      ended_reason: reason,
      renewal_error: message,
      renewal_pay_url: null,
      next_renewal_attempt_at: null,
    });
    await this.deps.periods.failDuePeriods(trx, sub.user_id);
    await this.deps.periods.resetTrainingAllowance(trx, sub.user_id, {
      type: 'free',
      interval: null,
      allowance: 0,
    });
  }
}

function lastRetryDay(): number {
  return RENEWAL_RETRY_DAYS[RENEWAL_RETRY_DAYS.length - 1]!;
}

/** The subscription's next due moment: a retry, a credit month inside the period, its end. */
export function nextDue(
  sub: Pick<
    SubscriptionRow,
    'status' | 'next_renewal_attempt_at' | 'allowance_period_end' | 'current_period_end'
  >,
): Date | undefined {
  if (sub.status === 'ended') return undefined;
  if (sub.next_renewal_attempt_at) return sub.next_renewal_attempt_at;
  const monthEnd = sub.allowance_period_end;
  return monthEnd && monthEnd < sub.current_period_end ? monthEnd : sub.current_period_end;
}
