import type { RenewalProblem, SubscriptionResponse } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts';
import {
  CURRENCY,
  findPlan,
  freePlanSubscription,
  planPeriodPriceCents,
  RENEWAL_RETRY_DAYS,
} from '@studioshot/pricing';
import { AppError } from '../errors.js';
import type { PaymentsRepository } from './payments.repository.js';
import type {
  SubscriptionPeriodsRepository,
  SubscriptionRow,
} from './subscription-periods.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { RenewalsService } from './renewals.service.js';
import type { SubscriptionSyncService } from './subscription-sync.service.js';

const dateOnly = (d: Date) => d.toISOString().slice(0, 10);
const DAY_MS = 24 * 60 * 60 * 1000;

/** How long after a failed renewal ended a plan the signed-in pages still say so. */
export const LAPSE_NOTICE_DAYS = 30;

export class SubscriptionsService {
  constructor(
    private readonly deps: {
      payments: PaymentsRepository;
      periods: SubscriptionPeriodsRepository;
      users: UsersRepository;
      renewals: RenewalsService;
      /** Stripe mode: the subscription at Stripe is told first (Stripe Billing charges it). */
      stripe?: Pick<SubscriptionSyncService, 'setCancelAtPeriodEnd'>;
      now?: () => Date;
    },
  ) {}

  /**
   * Stripe mode: cancel at period end (or keep) at Stripe before our own record changes, and only
   * when our record allows the change (so a refused change never reaches Stripe).
   */
  private async tellStripe(userId: string, cancel: boolean): Promise<void> {
    if (!this.deps.stripe) return;
    const sub = await this.deps.periods.find(userId);
    if (sub?.status !== (cancel ? 'active' : 'cancelling')) return;
    await this.deps.stripe.setCancelAtPeriodEnd(userId, cancel);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async get(userId: string): Promise<SubscriptionResponse> {
    // What is due and takes no money happens now (a cancelled plan past its end ends); charges
    // are left to the renewal job.
    await this.deps.renewals.settleDue(userId);
    const [user, sub] = await Promise.all([
      this.deps.users.findById(userId),
      this.deps.periods.find(userId),
    ]);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    if (!sub || sub.status === 'ended')
      return freePlanSubscription(user.training_limit, sub ? this.lapse(sub) : null);
    const amount = planPeriodPriceCents(findPlan(sub.tier)!, sub.billing_cycle);
    const pastDue = sub.status === 'past_due';
    const nextChargeAt = pastDue ? sub.next_renewal_attempt_at : sub.current_period_end;
    return {
      status: sub.status,
      tier: sub.tier,
      billing_cycle: sub.billing_cycle,
      next_billing_date: (nextChargeAt ?? sub.current_period_end).toISOString(),
      cancel_at_period_end: sub.cancel_at_period_end,
      cancel_status: sub.status === 'cancelling' ? 'cancelling' : 'active',
      can_cancel: sub.status === 'active',
      can_reactivate: sub.status === 'cancelling',
      features: { training_jobs: user.training_limit },
      next_charge:
        sub.status === 'cancelling' || !nextChargeAt
          ? null
          : { date: nextChargeAt.toISOString(), amount_cents: amount, currency: CURRENCY },
      // A renewal not paid yet resets nothing until it is.
      allowance_resets_at: pastDue
        ? null
        : (sub.allowance_period_end ?? sub.current_period_end).toISOString(),
      renewal_problem: pastDue ? this.retrying(sub) : null,
    };
  }

  private retrying(sub: SubscriptionRow): RenewalProblem {
    const lastDay = RENEWAL_RETRY_DAYS[RENEWAL_RETRY_DAYS.length - 1]!;
    return {
      state: 'retrying',
      tier: sub.tier,
      reason: sub.renewal_error ?? MESSAGES.renewalNotReceived,
      next_attempt_at: sub.next_renewal_attempt_at?.toISOString() ?? null,
      final_attempt_at: new Date(sub.current_period_end.getTime() + lastDay * DAY_MS).toISOString(),
      lapsed_at: null,
      pay_url: sub.renewal_pay_url,
    };
  }

  /** A plan that ended because its renewal failed, recently enough to still say so. */
  private lapse(sub: SubscriptionRow): RenewalProblem | null {
    if (sub.ended_reason !== 'renewal_failed' || !sub.ended_at) return null;
    if (this.now().getTime() - sub.ended_at.getTime() > LAPSE_NOTICE_DAYS * DAY_MS) return null;
    return {
      state: 'lapsed',
      tier: sub.tier,
      reason: sub.renewal_error ?? MESSAGES.renewalNotReceived,
      next_attempt_at: null,
      final_attempt_at: null,
      lapsed_at: sub.ended_at.toISOString(),
      pay_url: null,
    };
  }

  /** Cancels at the end of the paid period: access and credits stay until then. */
  async cancel(
    userId: string,
  ): Promise<{ message: string; access_until: string; credits_retained: number }> {
    await this.tellStripe(userId, true);
    const sub = await this.deps.payments.setCancelling(userId, true);
    if (!sub)
      throw new AppError(
        'conflict',
        `${MESSAGES.cancelFailed}: there is no active subscription to cancel.`,
      );
    const user = await this.deps.users.findById(userId);
    return {
      message: `Your subscription is cancelled. You keep your plan until ${dateOnly(sub.current_period_end)}, and your credits never expire.`,
      access_until: sub.current_period_end.toISOString(),
      credits_retained: user?.credits_balance ?? 0,
    };
  }

  async reactivate(
    userId: string,
  ): Promise<{ message: string; subscription: SubscriptionResponse }> {
    await this.tellStripe(userId, false);
    const sub = await this.deps.payments.setCancelling(userId, false);
    if (!sub)
      throw new AppError(
        'conflict',
        `${MESSAGES.reactivateFailed}: only a subscription being cancelled can be reactivated.`,
      );
    // The period end it renews at is already on the schedule; adding it again adds nothing.
    await this.deps.renewals.scheduleNext(userId);
    return {
      message: `Your ${sub.tier} plan is active again and renews on ${dateOnly(sub.current_period_end)}.`,
      subscription: await this.get(userId),
    };
  }
}
