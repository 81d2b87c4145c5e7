import { MESSAGES, type PlanType } from '@studioshot/contracts';
import type { PaymentKind } from '@studioshot/db';
import {
  anchoredPeriodEnd,
  BILLING_CYCLE_MONTHS,
  findCreditPackage,
  findPlan,
  findSubscriptionItem,
  subscriptionItemId,
  tierRank,
  trainingPackById,
  type BillingCycle,
  type PaidPlan,
} from '@studioshot/pricing';
import type Stripe from 'stripe';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { CreditLedgerRepository } from '../repositories/credit-ledger.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { PaymentProvider, ProviderIntent } from './payment-providers/provider.js';
import type { Payment, PaymentsRepository } from './payments.repository.js';
import type { RenewalsService } from './renewals.service.js';
import { StalePlanPayment } from './stale-plan-payment.js';
import type { UpgradesService } from './upgrades.service.js';

/** What a payment bought, read from the catalogue by its kind and item. */
interface Grant {
  credits: number;
  trainingSlots: number;
  plan?: PaidPlan;
  /** A new subscription's billing cycle (monthly when absent). */
  cycle?: BillingCycle;
  reason: string;
}

function grantOf(payment: Pick<Payment, 'kind' | 'item_id' | 'proration'>): Grant {
  switch (payment.kind) {
    case 'credits': {
      const pack = findCreditPackage(payment.item_id);
      if (!pack) throw new Error(`unknown credit package ${payment.item_id}`);
      return { credits: pack.credits, trainingSlots: 0, reason: 'credit_purchase' };
    }
    case 'training_slots': {
      const pack = trainingPackById(payment.item_id);
      if (!pack) throw new Error(`unknown training pack ${payment.item_id}`);
      return { credits: 0, trainingSlots: pack.quantity, reason: 'training_purchase' };
    }
    case 'subscription': {
      // A plan, billed monthly (`{plan}`) or annually (`{plan}_annual`); the first month's credits.
      const item = findSubscriptionItem(payment.item_id);
      if (!item) throw new Error(`unknown plan ${payment.item_id}`);
      return {
        credits: item.plan.credits,
        trainingSlots: 0,
        plan: item.plan.id,
        cycle: item.cycle,
        reason: 'plan_subscription',
      };
    }
    case 'upgrade': {
      // Prorated within a period (UpgradesService applies it); else a whole month of the plan.
      if (payment.proration)
        return { credits: payment.proration.credits, trainingSlots: 0, reason: 'plan_upgrade' };
      const plan = findPlan(payment.item_id);
      if (!plan) throw new Error(`unknown upgrade ${payment.item_id}`);
      return { credits: plan.credits, trainingSlots: 0, plan: plan.id, reason: 'plan_upgrade' };
    }
    case 'generation':
      // The order pays for one generation itself (bound to it when the results page asks).
      return { credits: 0, trainingSlots: 0, reason: 'generation_order' };
    case 'renewal':
      // A period of a subscription: RenewalsService grants its credits (fulfil hands it over).
      return { credits: 0, trainingSlots: 0, reason: 'subscription_renewal' };
  }
}

export interface ConfirmOutcome {
  kind: PaymentKind;
  creditsAwarded: number;
  newBalance: number;
  planType: PlanType;
  trainingLimit: number;
}

/**
 * Why a confirm cannot apply an intent that has not succeeded: still processing at the bank is
 * worth asking again (409 with Retry-After); anything else needs the card step (402).
 */
export function unpaidIntentRefusal(status: string): void {
  if (status === 'succeeded') return;
  if (status === 'processing')
    throw new AppError('payment_incomplete', MESSAGES.paymentNotCompleted, {
      retryAfterSeconds: PAYMENT_PROCESSING_RETRY_S,
    });
  throw new AppError(
    'payment_required',
    status === 'canceled' ? MESSAGES.paymentCanceled : MESSAGES.paymentNotPaid,
  );
}

/** How soon a confirm of a payment the bank is still processing is worth asking again. */
const PAYMENT_PROCESSING_RETRY_S = 2;

/**
 * Fulfilment: the one place purchases take effect, whoever reports the payment (the page's
 * confirm call, a webhook, reconciliation), once per payment; and the refund of a payment that
 * can no longer apply.
 */
export class FulfilmentService {
  constructor(
    private readonly deps: {
      payments: PaymentsRepository;
      ledger: CreditLedgerRepository;
      users: UsersRepository;
      provider: PaymentProvider;
      /** Applies the prorated upgrades. */
      upgrades: Pick<UpgradesService, 'applyProrated'>;
      /** Billing periods: a new subscription's first period; renewal payments are its. */
      renewals: RenewalsService;
      /**
       * Test mode's convenience (CONFIRM_PAYS_WITH_TEST_CARD): a confirm of an intent no card
       * step paid pays it with the success test card, as the spec's simulated card form does.
       */
      payWithTestCard?: (intentId: string) => Promise<ProviderIntent>;
      logger: Logger;
    },
  ) {}

  /**
   * The confirm calls: the payment must be the caller's, of an expected kind, and paid at the
   * provider. Fulfilment itself is idempotent, so confirming twice grants once.
   */
  async confirm(
    userId: string,
    intentId: string,
    kinds: readonly PaymentKind[],
    expect?: { itemId: string; amountCents: number },
  ): Promise<ConfirmOutcome> {
    const payment = await this.deps.payments.findByIntent(intentId);
    // Another user's payment is answered exactly like a missing one.
    if (!payment || payment.user_id !== userId)
      throw new AppError('payment_not_found', MESSAGES.confirmFailed);
    // The payment exists but paid for something else: it conflicts with this confirm (409).
    if (!kinds.includes(payment.kind)) {
      throw new AppError(
        'conflict',
        `${MESSAGES.confirmFailed}: this payment is not for that purchase.`,
      );
    }
    if (
      expect &&
      (expect.itemId !== payment.item_id || expect.amountCents !== payment.amount_cents)
    ) {
      throw new AppError(
        'conflict',
        `${MESSAGES.confirmFailed}: the pack or amount does not match the payment.`,
      );
    }
    if (!payment.fulfilled_at && payment.status !== 'refunded') {
      let intent = await this.deps.provider.retrieveIntent(payment.provider_intent_id);
      if (intent?.status === 'requires_payment_method' && this.deps.payWithTestCard)
        intent = await this.deps.payWithTestCard(intent.id);
      if (!intent) throw new AppError('payment_not_found', MESSAGES.confirmFailed);
      unpaidIntentRefusal(intent.status);
      await this.fulfil(payment, intent);
    }
    // A plan payment refunded as stale; a generation order's refund is told by its generation.
    if (
      payment.kind !== 'generation' &&
      (await this.deps.payments.findById(payment.id))?.status === 'refunded'
    )
      throw new AppError('conflict', MESSAGES.stalePlanPaymentRefunded);
    const user = await this.deps.users.findById(userId);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    return {
      kind: payment.kind,
      creditsAwarded: grantOf(payment).credits,
      newBalance: user.credits_balance,
      planType: user.plan_type,
      trainingLimit: user.training_limit,
    };
  }

  /** The whole payment back at the provider, then recorded: once, whoever calls. */
  async refund(payment: Payment): Promise<boolean> {
    await this.deps.provider.refundIntent({
      intentId: payment.provider_intent_id,
      amount: payment.amount_cents,
      idempotencyKey: `refund:${payment.id}`,
    });
    const refunded = await this.deps.payments.markRefunded(payment.id);
    if (refunded)
      this.deps.logger.info({ paymentId: payment.id, kind: payment.kind }, 'payment refunded');
    return refunded;
  }

  /**
   * The one place purchases take effect. Exactly once per payment: the conditional claim lets
   * one caller through, and every grant happens in that caller's transaction.
   */
  async fulfil(payment: Payment, intent: ProviderIntent): Promise<boolean> {
    if (
      intent.status !== 'succeeded' ||
      intent.amount !== payment.amount_cents ||
      intent.currency !== payment.currency ||
      intent.id !== payment.provider_intent_id
    ) {
      this.deps.logger.error(
        { paymentId: payment.id, intentId: intent.id },
        'intent does not match the payment; not fulfilled',
      );
      return false;
    }
    if (payment.kind === 'renewal') {
      const periodStart = intent.metadata.period_start;
      if (!periodStart) return false;
      return this.deps.renewals.recordRenewalPaid(payment.user_id, new Date(periodStart), {
        provider: this.deps.provider.name,
        reference: intent.id,
        amountCents: intent.amount,
        currency: intent.currency,
      });
    }
    const grant = grantOf(payment);
    try {
      const applied = await this.applyGrant(payment, grant, intent.period);
      // The new period's end goes on the schedule once the period is committed.
      if (applied && grant.plan) await this.deps.renewals.scheduleNext(payment.user_id);
      if (applied && payment.proration) await this.planChangedAtProvider(payment);
      return applied;
    } catch (error) {
      if (!(error instanceof StalePlanPayment)) throw error;
      // Paid, but applying it would lower the plan or skip the change it was priced from.
      this.deps.logger.warn(
        { paymentId: payment.id, kind: payment.kind, fromPlan: payment.from_plan },
        'plan payment no longer applies; refunding it',
      );
      await this.refund(payment);
      return false;
    }
  }

  /** Tells the provider's subscription of an upgrade; the upgrade stands whatever it answers. */
  private async planChangedAtProvider(payment: Payment): Promise<void> {
    const proration = payment.proration;
    const movePlan = this.deps.provider.movePlan?.bind(this.deps.provider);
    if (!proration || !movePlan) return;
    const itemId = subscriptionItemId(proration.to_plan as PaidPlan, proration.billing_cycle);
    try {
      await movePlan(payment.user_id, itemId);
    } catch (error) {
      // Reconciliation moves it later (the renewal job reads the subscription back first).
      this.deps.logger.error(
        { err: error, paymentId: payment.id, itemId },
        "could not move the provider's subscription to the upgraded plan",
      );
    }
  }

  private applyGrant(
    payment: Payment,
    grant: Grant,
    /** The provider's billing period, when it bills the subscription itself. */
    billedPeriod?: { start: Date; end: Date },
  ): Promise<boolean> {
    return this.deps.payments.transaction(async (trx) => {
      const claimed = await this.deps.payments.claimForFulfilment(trx, payment.id);
      if (!claimed) return false;
      if (payment.proration) {
        await this.deps.upgrades.applyProrated(trx, { ...payment, proration: payment.proration });
        this.deps.logger.info({ paymentId: payment.id, kind: payment.kind }, 'upgrade fulfilled');
        return true;
      }
      if (grant.plan) {
        const current = await this.deps.payments.lockPlan(trx, payment.user_id);
        if (
          current === undefined ||
          tierRank(grant.plan) <= tierRank(current as PlanType) ||
          (payment.from_plan !== null && payment.from_plan !== current)
        )
          throw new StalePlanPayment();
        const plan = findPlan(grant.plan)!;
        const now = new Date();
        const cycle = grant.cycle ?? 'monthly';
        await this.deps.payments.setPlan(trx, payment.user_id, {
          type: plan.id,
          interval: cycle,
          trainingLimit: plan.training_limit,
        });
        // The first period, whose start anchors every later one.
        const period = billedPeriod ?? {
          start: now,
          end: anchoredPeriodEnd(now, now, BILLING_CYCLE_MONTHS[cycle]),
        };
        await this.deps.payments.upsertSubscription(trx, {
          userId: payment.user_id,
          tier: plan.id,
          paymentId: payment.id,
          periodStart: period.start,
          periodEnd: period.end,
        });
        await this.deps.renewals.startSubscription(trx, {
          userId: payment.user_id,
          plan: plan.id,
          cycle,
          paymentId: payment.id,
          start: period.start,
        });
      }
      if (grant.trainingSlots > 0)
        await this.deps.payments.addTrainingSlots(trx, payment.user_id, grant.trainingSlots);
      if (grant.credits > 0) {
        const result = await this.deps.ledger.apply(
          {
            userId: payment.user_id,
            delta: grant.credits,
            reason: grant.reason,
            idempotencyKey: `payment:${payment.id}`,
            paymentId: payment.id,
          },
          trx,
        );
        if (result.outcome === 'insufficient') throw new Error('a grant cannot be insufficient');
      }
      this.deps.logger.info({ paymentId: payment.id, kind: payment.kind }, 'payment fulfilled');
      return true;
    });
  }

  /**
   * A verified PaymentIntent event (stripe-intake.service.ts checks the signature and
   * hands each event over once): a success fulfils the payment, a failure marks it failed.
   */
  async paymentIntentEvent(
    type: 'payment_intent.succeeded' | 'payment_intent.payment_failed',
    intent: Stripe.PaymentIntent,
  ): Promise<void> {
    const payment = await this.deps.payments.findByIntent(intent.id);
    if (!payment) {
      this.deps.logger.warn({ intentId: intent.id, type }, 'webhook for an unknown payment intent');
      return;
    }
    if (type === 'payment_intent.payment_failed') {
      await this.deps.payments.markFailed(payment.id);
      return;
    }
    await this.fulfil(payment, {
      id: intent.id,
      client_secret: '',
      amount: intent.amount,
      currency: intent.currency,
      status: intent.status,
      metadata: intent.metadata,
    });
  }
}
