import type {
  PaymentIntentResponse,
  PricingResponse,
  UpgradeIntentResponse,
  UpgradeQuoteResponse,
} from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts';
import type { PaymentKind, PaymentProration } from '@studioshot/db';
import {
  CURRENCY,
  findComingSoonCreditPack,
  findCreditPackage,
  findPlan,
  findTrainingPack,
  GENERATION_ORDER,
  PLANS,
  planPeriodPriceCents,
  pricingAnswer,
  subscriptionItemId,
  tierRank,
  type BillingCycle,
  type PaidPlan,
} from '@studioshot/pricing';
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { GenerationsRepository } from '../repositories/generations.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { PaymentProvider, ProviderIntent } from './payment-providers/provider.js';
import type { PaymentsRepository } from './payments.repository.js';
import type { UpgradesService } from './upgrades.service.js';

/**
 * Checkout, the first link of the money chain: the catalogue answer, and a payment intent for
 * each thing sold (credits, trainings, a plan, an upgrade, the generation order), recorded as a
 * pending payment. What a paid intent grants is fulfilment's (fulfilment.service.ts).
 */
export class CheckoutService {
  constructor(
    private readonly deps: {
      payments: PaymentsRepository;
      users: UsersRepository;
      provider: PaymentProvider;
      /** Whether a user has something to generate from (the generation order's condition). */
      generations: Pick<GenerationsRepository, 'hasGenerationSource'>;
      /** Prices upgrades. */
      upgrades: Pick<UpgradesService, 'quote'>;
      /** Stripe mode: the public key the web app's card form loads Stripe.js with. */
      stripePublishableKey?: string;
      logger: Logger;
    },
  ) {}

  pricing(): PricingResponse {
    return pricingAnswer({
      testMode: this.deps.provider.name === 'test',
      stripePublishableKey: this.deps.stripePublishableKey,
    });
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

  /** What createUpgrade would charge now: the same quote, with nothing stored. */
  async quoteUpgrade(
    userId: string,
    planId: string,
    currentPlan: string | undefined,
  ): Promise<UpgradeQuoteResponse> {
    const quote = await this.deps.upgrades.quote(userId, planId, currentPlan);
    return {
      amount: quote.amountCents,
      currency: CURRENCY,
      kind: quote.kind,
      proration: quote.proration,
    };
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
}
