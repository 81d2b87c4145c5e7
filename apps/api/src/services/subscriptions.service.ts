import type { SubscriptionResponse } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts';
import { AppError } from '../errors.js';
import type { PaymentsRepository } from '../repositories/payments.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';

const dateOnly = (d: Date) => d.toISOString().slice(0, 10);

export class SubscriptionsService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly users: UsersRepository,
  ) {}

  async get(userId: string): Promise<SubscriptionResponse> {
    await this.payments.endLapsed(userId);
    const [user, sub] = await Promise.all([
      this.users.findById(userId),
      this.payments.findSubscription(userId),
    ]);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    if (!sub || sub.status === 'ended') {
      return {
        status: 'free',
        tier: 'free',
        billing_cycle: null,
        next_billing_date: null,
        cancel_at_period_end: false,
        cancel_status: null,
        can_cancel: false,
        can_reactivate: false,
        features: { training_jobs: user.training_limit },
      };
    }
    return {
      status: sub.status,
      tier: sub.tier,
      billing_cycle: sub.billing_cycle,
      next_billing_date: sub.current_period_end.toISOString(),
      cancel_at_period_end: sub.cancel_at_period_end,
      cancel_status: sub.status,
      can_cancel: sub.status === 'active',
      can_reactivate: sub.status === 'cancelling',
      features: { training_jobs: user.training_limit },
    };
  }

  /** Cancels at the end of the paid period: access and credits stay until then. */
  async cancel(
    userId: string,
  ): Promise<{ message: string; access_until: string; credits_retained: number }> {
    const sub = await this.payments.setCancelling(userId, true);
    if (!sub)
      throw new AppError(
        'conflict',
        `${MESSAGES.cancelFailed}: there is no active subscription to cancel.`,
      );
    const user = await this.users.findById(userId);
    return {
      message: `Your subscription is cancelled. You keep your plan until ${dateOnly(sub.current_period_end)}, and your credits never expire.`,
      access_until: sub.current_period_end.toISOString(),
      credits_retained: user?.credits_balance ?? 0,
    };
  }

  async reactivate(
    userId: string,
  ): Promise<{ message: string; subscription: SubscriptionResponse }> {
    const sub = await this.payments.setCancelling(userId, false);
    if (!sub)
      throw new AppError(
        'conflict',
        `${MESSAGES.reactivateFailed}: only a subscription being cancelled can be reactivated.`,
      );
    return {
      message: `Your ${sub.tier} plan is active again and renews on ${dateOnly(sub.current_period_end)}.`,
      subscription: await this.get(userId),
    };
  }
}
