import type {
  PaymentIntentResponse,
  PricingResponse,
  UpgradeIntentResponse,
} from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts';
import type { PaymentKind, PaymentProration } from '@studioshot/db';
import {
  COMING_SOON_CREDIT_PACKS,
  CREDIT_PACKAGES,
  CURRENCY,
  findComingSoonCreditPack,
  findCreditPackage,
  findPlan,
  findTrainingPack,
  FREE_CREDITS_INCLUDED,
  GENERATION_ORDER,
  PLANS,
  tierRank,
  TRAINING_FEE_DOLLARS,
  TRAINING_PACKS,
  trainingPackById,
  anchoredPeriodEnd,
  BILLING_CYCLE_MONTHS,
  findSubscriptionItem,
  planPeriodPriceCents,
  subscriptionItemId,
  type BillingCycle,
  type PaidPlan,
  type PlanType,
} from '@studioshot/pricing';
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { CreditLedgerRepository } from '../repositories/credit-ledger.repository.js';
import type { GenerationsRepository } from '../repositories/generations.repository.js';
import type {
  PaymentProvider,
  ProviderIntent,
} from '../repositories/payment-providers/provider.js';
import type { Payment, PaymentsRepository } from '../repositories/payments.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { RenewalsService } from './renewals.service.js';
import type { UpgradesService } from './upgrades.service.js';

/** A plan payment that would lower the plan, or whose starting plan is no longer the user's. */
export class StalePlanPayment extends Error {}

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

export class PaymentsService {
  constructor(
    private readonly deps: {
      payments: PaymentsRepository;
      ledger: CreditLedgerRepository;
      users: UsersRepository;
      provider: PaymentProvider;
      /** Whether a user has something to generate from, and the paid generations that failed. */
      generations: Pick<
        GenerationsRepository,
        'hasGenerationSource' | 'unrefundedFailedPaidGenerations'
      >;
      /** Prices upgrades and applies the prorated ones. */
      upgrades: UpgradesService;
      /** Billing periods: a new subscription's first period; renewal payments are its. */
      renewals: RenewalsService;
      /**
       * Stripe mode: a prorated upgrade paid here moves the Stripe subscription to the new plan's
       * Price (no proration there: it was charged here), so Stripe renews at the new price.
       */
      planChanged?: (userId: string, itemId: string) => Promise<void>;
      /** Stripe mode: the public key the web app's card form loads Stripe.js with. */
      stripePublishableKey?: string;
      logger: Logger;
    },
  ) {}

  /** The provider intents are made with (the billing calls read intents back from it). */
  get provider(): PaymentProvider {
    return this.deps.provider;
  }

  pricing(): PricingResponse {
    const plans = PLANS.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      price: p.price_cents,
      price_cents: p.price_cents,
      credits: p.credits,
      training_limit: p.training_limit,
      features: [...p.features],
      popular: p.popular,
    }));
    return {
      pricing_options: plans,
      subscription_plans: plans,
      onetime_packages: CREDIT_PACKAGES.map((p) => ({ ...p, features: [...p.features] })),
      credit_packs: COMING_SOON_CREDIT_PACKS.map((p) => ({ ...p, for_sale: false })),
      training_packs: TRAINING_PACKS.map((p) => ({ ...p })),
      training_fee_dollars: TRAINING_FEE_DOLLARS,
      free_credits_included: FREE_CREDITS_INCLUDED,
      currency: CURRENCY,
      test_mode: this.deps.provider.name === 'test',
      ...(this.deps.stripePublishableKey
        ? { stripe_publishable_key: this.deps.stripePublishableKey }
        : {}),
    };
  }

  createCreditPayment(
    userId: string,
    packageId: string,
    requestKey: string,
  ): Promise<PaymentIntentResponse> {
    const pack = findCreditPackage(packageId);
    // Published by the pricing call but not for sale yet: said so, not 'invalid'.
    if (!pack && findComingSoonCreditPack(packageId))
      throw new AppError('conflict', MESSAGES.creditPackComingSoon);
    // A pack the catalogue does not have: nothing by that id to buy.
    if (!pack) throw new AppError('not_found', MESSAGES.invalidCreditPack);
    return this.createPayment(
      userId,
      'credits',
      pack.id,
      pack.price_cents,
      requestKey,
      MESSAGES.creditPaymentFailed,
    );
  }

  /** A plan subscription; with no plan named, one training slot at the default training fee. */
  async createTrainingPayment(
    userId: string,
    body:
      | {
          plan_name?: string;
          plan_price?: number;
          plan_credits?: number;
          billing_cycle?: BillingCycle;
        }
      | undefined,
    requestKey: string,
  ): Promise<PaymentIntentResponse> {
    if (!body?.plan_name) {
      const single = findTrainingPack(1)!;
      if (
        body?.plan_price !== undefined &&
        Math.round(body.plan_price * 100) !== single.price_cents
      ) {
        // The fee the page showed is not the one charged now: stale, reload (409).
        throw new AppError('conflict', MESSAGES.trainingPaymentFailed);
      }
      return this.createPayment(
        userId,
        'training_slots',
        single.id,
        single.price_cents,
        requestKey,
        MESSAGES.trainingPaymentFailed,
      );
    }
    const name = body.plan_name.trim().toLowerCase();
    const plan = PLANS.find((p) => p.id === name || p.name.toLowerCase() === name);
    if (!plan) throw new AppError('not_found', MESSAGES.trainingPaymentFailed);
    const user = await this.deps.users.findById(userId);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    // A payment never lowers a plan (nor sells the one the user already has): the account's
    // state refuses it, not the request's form (409).
    if (tierRank(plan.id) <= tierRank(user.plan_type)) {
      throw new AppError(
        'conflict',
        `${MESSAGES.trainingPaymentFailed}: you are already on ${findPlan(user.plan_type as PaidPlan)?.name ?? user.plan_type} or a higher plan.`,
      );
    }
    // A subscriber moves up through create-upgrade, which charges only the difference for the
    // rest of the period; selling them the new plan at list price would drop what they paid.
    if (tierRank(user.plan_type) > tierRank('free')) {
      throw new AppError('conflict', MESSAGES.planChangeNeedsUpgrade);
    }
    const cycle = body.billing_cycle ?? 'monthly';
    const priceCents = planPeriodPriceCents(plan, cycle);
    // The client may echo what it showed; it never sets what is charged.
    const shownCents =
      body.plan_price === undefined ? undefined : Math.round(body.plan_price * 100);
    if (
      (shownCents !== undefined && shownCents !== priceCents && body.plan_price !== priceCents) ||
      (body.plan_credits !== undefined && body.plan_credits !== plan.credits)
    ) {
      // What the page showed is stale (the catalogue moved on): a conflict, reload and retry.
      throw new AppError(
        'conflict',
        `${MESSAGES.trainingPaymentFailed}: the price shown no longer matches ${plan.name}. Reload the page.`,
      );
    }
    return this.createPayment(
      userId,
      'subscription',
      subscriptionItemId(plan.id, cycle),
      priceCents,
      requestKey,
      MESSAGES.trainingPaymentFailed,
      user.plan_type,
    );
  }

  createTrainingPurchase(
    userId: string,
    quantity: number,
    requestKey: string,
  ): Promise<PaymentIntentResponse> {
    const pack = findTrainingPack(quantity);
    if (!pack) {
      throw new AppError(
        'not_found',
        `${MESSAGES.trainingPurchaseFailed}: choose 1, 3 or 5 trainings.`,
      );
    }
    return this.createPayment(
      userId,
      'training_slots',
      pack.id,
      pack.price_cents,
      requestKey,
      MESSAGES.trainingPurchaseFailed,
    );
  }

  /**
   * An upgrade: prorated for the rest of a running period, or a new subscription when nothing is
   * running (UpgradesService prices it). The answer says how the amount was reached.
   */
  async createUpgrade(
    userId: string,
    body: { plan_id: string | null | undefined; current_plan?: string | null },
    requestKey: string,
  ): Promise<UpgradeIntentResponse> {
    if (!body.plan_id) throw new AppError('bad_request', MESSAGES.noTargetPlan);
    const quote = await this.deps.upgrades.quote(userId, body.plan_id, body.current_plan);
    const intent = await this.createPayment(
      userId,
      quote.kind,
      quote.plan.id,
      quote.amountCents,
      // A prorated amount moves with time: a retry with the same key and a new amount is a new intent.
      `${requestKey}:${quote.amountCents}`,
      MESSAGES.upgradeFailed,
      quote.fromPlan,
      quote.proration,
    );
    // A replayed create answers the payment first made, with its own figures.
    const stored = await this.deps.payments.findByIntent(intent.payment_intent_id);
    return { ...intent, proration: stored?.proration ?? null };
  }

  /**
   * The $29 order. Refused before any charge when there is nothing to make headshots from: no
   * completed model and no usable photo.
   */
  async createGenerationPayment(
    userId: string,
    requestKey: string,
  ): Promise<PaymentIntentResponse> {
    if (!(await this.deps.generations.hasGenerationSource(userId)))
      throw new AppError('conflict', MESSAGES.generationPaymentNeedsPhotos);
    return this.createPayment(
      userId,
      'generation',
      'generation_order',
      GENERATION_ORDER.price_cents,
      requestKey,
      MESSAGES.generationPaymentFailed,
    );
  }

  private async createPayment(
    userId: string,
    kind: PaymentKind,
    itemId: string,
    amountCents: number,
    requestKey: string,
    failure: string,
    /** A plan payment: the plan it upgrades from, which it is bound to. */
    fromPlan?: string,
    /** A prorated upgrade: how it was priced. */
    proration?: PaymentProration | null,
  ): Promise<PaymentIntentResponse> {
    const paymentId = randomUUID();
    let intent: ProviderIntent;
    try {
      intent = await this.deps.provider.createIntent({
        amount: amountCents,
        currency: CURRENCY,
        metadata: { payment_id: paymentId, user_id: userId, kind, item_id: itemId },
        idempotencyKey: `${userId}:${kind}:${itemId}:${fromPlan ?? ''}:${requestKey}`,
      });
    } catch (error) {
      this.deps.logger.error(
        { err: error, kind, itemId },
        'payment provider refused to create an intent',
      );
      throw new AppError('service_unavailable', failure);
    }
    await this.deps.payments.create({
      id: intent.metadata.payment_id ?? paymentId,
      userId,
      provider: this.deps.provider.name,
      providerIntentId: intent.id,
      kind,
      itemId,
      amountCents,
      currency: CURRENCY,
      fromPlan,
      proration,
    });
    return {
      payment_intent_id: intent.id,
      client_secret: intent.client_secret,
      amount: intent.amount,
      currency: intent.currency,
    };
  }

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
      const intent = await this.deps.provider.retrieveIntent(payment.provider_intent_id);
      if (!intent || intent.status !== 'succeeded')
        throw new AppError('payment_incomplete', MESSAGES.paymentNotCompleted);
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

  /**
   * The caller's paid generation order behind `intentId`, fulfilled (confirmed at the provider
   * if no confirm call or webhook has yet): what a paid generation is bound to.
   */
  async generationOrder(userId: string, intentId: string): Promise<Payment> {
    const payment = await this.deps.payments.findByIntent(intentId);
    // Another user's payment is answered exactly like a missing one.
    if (!payment || payment.user_id !== userId)
      throw new AppError('payment_not_found', MESSAGES.paymentNotFound);
    if (payment.kind !== 'generation')
      throw new AppError('conflict', MESSAGES.paymentNotForGeneration);
    if (!payment.fulfilled_at) {
      const intent = await this.deps.provider.retrieveIntent(payment.provider_intent_id);
      if (!intent || intent.status !== 'succeeded')
        throw new AppError('payment_incomplete', MESSAGES.paymentNotCompleted);
      await this.fulfil(payment, intent);
    }
    return payment;
  }

  /**
   * Gives a paid generation's order back at the provider, once (the provider's idempotency key
   * and the conditional status change both guard it). Safe to call again after a crash.
   */
  async refundGenerationOrder(paymentId: string): Promise<boolean> {
    const payment = await this.deps.payments.findById(paymentId);
    if (!payment || payment.kind !== 'generation' || payment.status !== 'succeeded') return false;
    return this.refund(payment);
  }

  /** The whole payment back at the provider, then recorded: once, whoever calls. */
  private async refund(payment: Payment): Promise<boolean> {
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
   * Refunds every paid generation that failed for good and is not refunded yet: run at each
   * failure seen and on a schedule, so a refund the provider refused or a crash interrupted is
   * tried again. Answers how many were refunded.
   */
  async refundFailedPaidGenerations(): Promise<number> {
    let refunded = 0;
    for (const { payment_id } of await this.deps.generations.unrefundedFailedPaidGenerations()) {
      try {
        if (await this.refundGenerationOrder(payment_id)) refunded += 1;
      } catch (error) {
        this.deps.logger.error(
          { err: error, paymentId: payment_id },
          'could not refund a failed paid generation; will retry',
        );
      }
    }
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
    if (!proration || !this.deps.planChanged) return;
    const itemId = subscriptionItemId(proration.to_plan as PaidPlan, proration.billing_cycle);
    try {
      await this.deps.planChanged(payment.user_id, itemId);
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
   * A verified PaymentIntent event (services/stripe-webhooks.service.ts checks the signature and
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
