import { MESSAGES, type UpgradeProration, type PlanType } from '@studioshot/contracts';
import type { PaymentProration } from '@studioshot/db';
import {
  creditMonthOf,
  findPlan,
  planLabelOf,
  planPeriodPriceCents,
  prorateUpgrade,
  tierRank,
  type PaidPlan,
  type Plan,
} from '@studioshot/pricing';
import type { Kysely } from 'kysely';
import type { Database } from '@studioshot/db';
import { AppError } from '../errors.js';
import type { BillingRepository } from './billing.repository.js';
import type { CreditLedgerRepository } from '../repositories/credit-ledger.repository.js';
import type { Payment, PaymentsRepository } from './payments.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { StalePlanPayment } from './stale-plan-payment.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How an upgrade is charged: prorated within the running period, or as a new subscription. */
export interface UpgradeQuote {
  kind: 'upgrade' | 'subscription';
  plan: Plan;
  fromPlan: PlanType;
  amountCents: number;
  /** null for a new subscription (nothing running to prorate against). */
  proration: UpgradeProration | null;
}

function isPlanType(value: string): value is PlanType {
  return value === 'free' || findPlan(value) !== undefined;
}

/**
 * Upgrades (docs/spec/calls.md#76-payments, create-upgrade). A subscriber moving up pays the
 * difference between the two
 * plans for the rest of the current period (packages/pricing proration.ts) and keeps the period;
 * a user with no running subscription buys the plan as a new one. A payment only ever raises the
 * plan: lower or equal targets are refused, and a paid upgrade applies only from the plan and
 * within the period it was priced for (otherwise it is refunded, as any stale plan payment).
 */
export class UpgradesService {
  constructor(
    private readonly deps: {
      billing: BillingRepository;
      users: UsersRepository;
      payments: PaymentsRepository;
      ledger: CreditLedgerRepository;
      /** The test clock: how far a user's billing time runs ahead of the wall clock. */
      clockOffsetMs?: (userId: string) => Promise<number>;
      now?: () => Date;
    },
  ) {}

  /** The user's billing time: the period is measured on the clock its renewals run by. */
  private async now(userId: string): Promise<Date> {
    const wall = this.deps.now?.() ?? new Date();
    const lead = this.deps.clockOffsetMs ? await this.deps.clockOffsetMs(userId) : 0;
    return new Date(wall.getTime() + lead);
  }

  async quote(
    userId: string,
    planId: string,
    currentPlan: string | null | undefined,
  ): Promise<UpgradeQuote> {
    const plan = findPlan(planId);
    if (!plan) throw new AppError('not_found', MESSAGES.upgradeFailed);
    const user = await this.deps.users.findById(userId);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    const onPlan: PlanType = isPlanType(user.plan_type) ? user.plan_type : 'free';
    const claimed = currentPlan?.trim().toLowerCase();
    if (claimed && claimed !== onPlan && claimed !== planLabelOf(onPlan).toLowerCase()) {
      // The page priced the upgrade from a plan the account is no longer on.
      throw new AppError('conflict', `${MESSAGES.upgradeFailed}: ${MESSAGES.upgradePlanChanged}`);
    }
    if (tierRank(plan.id) <= tierRank(onPlan)) {
      throw new AppError(
        'conflict',
        `${MESSAGES.upgradeFailed}: you are already on ${planLabelOf(onPlan)}. ${MESSAGES.upgradeNotHigher}`,
      );
    }
    const sub = await this.deps.billing.findSubscription(userId);
    if (sub?.status === 'past_due' && sub.tier === onPlan)
      throw new AppError('conflict', `${MESSAGES.upgradeFailed}: ${MESSAGES.upgradePastDue}`);
    const running =
      onPlan !== 'free' &&
      sub !== undefined &&
      (sub.status === 'active' || sub.status === 'cancelling') &&
      sub.tier === onPlan;
    if (!running) {
      return {
        kind: 'subscription',
        plan,
        fromPlan: onPlan,
        amountCents: plan.price_cents,
        proration: null,
      };
    }
    const from = findPlan(onPlan)!;
    const cycle = sub.billing_cycle;
    const now = await this.now(userId);
    const period = { start: sub.current_period_start, end: sub.current_period_end };
    const figures = prorateUpgrade({
      from: { price_cents: planPeriodPriceCents(from, cycle), credits: from.credits },
      to: { price_cents: planPeriodPriceCents(plan, cycle), credits: plan.credits },
      period,
      // The credit month the subscription records as running, else the one the period implies.
      creditMonth:
        sub.allowance_period_start && sub.allowance_period_end
          ? { start: sub.allowance_period_start, end: sub.allowance_period_end }
          : creditMonthOf(period, cycle, now, sub.billing_anchor),
      now,
    });
    return {
      kind: 'upgrade',
      plan,
      fromPlan: onPlan,
      amountCents: figures.charged_cents,
      proration: {
        from_plan: from.id,
        to_plan: plan.id,
        billing_cycle: cycle,
        period_start: period.start.toISOString(),
        period_end: period.end.toISOString(),
        priced_at: now.toISOString(),
        remaining_days: Math.round((figures.remaining_ms / DAY_MS) * 10) / 10,
        from_price_cents: planPeriodPriceCents(from, cycle),
        to_price_cents: planPeriodPriceCents(plan, cycle),
        credited_cents: figures.credited_cents,
        new_plan_cents: figures.new_plan_cents,
        prorated_cents: figures.prorated_cents,
        charged_cents: figures.charged_cents,
        minimum_applied: figures.minimum_applied,
        credits: figures.credits,
      },
    };
  }

  /**
   * A paid prorated upgrade takes effect, in the fulfilment transaction that claimed it: the
   * tier moves up within the same period (dates unchanged) and the prorated credits are granted
   * once. Throws StalePlanPayment when the plan or the period is no longer the one it was priced
   * for; the caller refunds it.
   */
  async applyProrated(
    trx: Kysely<Database>,
    payment: Payment & { proration: PaymentProration },
  ): Promise<void> {
    const priced = payment.proration;
    // The user row first, then the subscription: the same lock order as every plan change.
    const current = await this.deps.payments.lockPlan(trx, payment.user_id);
    const sub = await this.deps.billing.lockSubscription(trx, payment.user_id);
    const plan = findPlan(priced.to_plan);
    if (
      !plan ||
      current === undefined ||
      current !== payment.from_plan ||
      tierRank(plan.id) <= tierRank(current as PlanType) ||
      !sub ||
      (sub.status !== 'active' && sub.status !== 'cancelling') ||
      sub.tier !== current ||
      sub.current_period_end.toISOString() !== priced.period_end
    )
      throw new StalePlanPayment();
    await this.deps.payments.setPlan(trx, payment.user_id, {
      type: plan.id as PaidPlan,
      interval: sub.billing_cycle,
      trainingLimit: plan.training_limit,
    });
    await this.deps.billing.setSubscriptionTier(trx, payment.user_id, plan.id, payment.id);
    if (priced.credits > 0) {
      const result = await this.deps.ledger.apply(
        {
          userId: payment.user_id,
          delta: priced.credits,
          reason: 'plan_upgrade',
          idempotencyKey: `payment:${payment.id}`,
          paymentId: payment.id,
        },
        trx,
      );
      if (result.outcome === 'insufficient') throw new Error('a grant cannot be insufficient');
    }
  }
}
