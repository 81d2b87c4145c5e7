import {
  MESSAGES,
  ZCancelSubscriptionResponseSchema,
  ZConfirmAdditionalTrainingResponseSchema,
  ZConfirmCreditPackageResponseSchema,
  ZConfirmPaymentResponseSchema,
  ZConfirmPlanSubscriptionResponseSchema,
  ZPaymentIntentResponseSchema,
  ZPricingResponseSchema,
  ZReactivateSubscriptionResponseSchema,
  ZSubscriptionResponseSchema,
  ZTestCardConfirmResponseSchema,
  type PaymentIntentResponse,
  type PricingResponse,
  type SubscriptionResponse,
} from '@studioshot/contracts';
import { api } from '../../lib/api';
import { ApiError } from '../../lib/api-client';
import type { CardDetails } from './card';
import type { BillingCycle } from './catalogue';

/**
 * The payment calls of docs/spec/calls.md#76-payments, each answer checked against its contract.
 */

export type { PaymentIntentResponse, PricingResponse, SubscriptionResponse };

/** The part of an intent the card step needs. */
export type IntentRef = Pick<PaymentIntentResponse, 'payment_intent_id' | 'client_secret'>;
export type PricingPlan = PricingResponse['subscription_plans'][number];

export async function fetchPricing(): Promise<PricingResponse> {
  return api.get('/api/v1/payments/pricing', {
    anonymous: true,
    schema: ZPricingResponseSchema,
    invalid: MESSAGES.pricingLoadFailed,
  });
}

/** Plans from either list name the spec allows. */
export function plansOf(pricing: PricingResponse): PricingPlan[] {
  return pricing.subscription_plans.length > 0
    ? pricing.subscription_plans
    : pricing.pricing_options;
}

/**
 * The create calls store a pending payment: the checkout makes them only when Pay is pressed,
 * with one `idempotencyKey` per order so a second press or a retry answers the same intent.
 */
async function createIntent(
  path: string,
  body: unknown,
  failure: string,
  idempotencyKey?: string,
): Promise<PaymentIntentResponse> {
  return api.post(path, body, {
    schema: ZPaymentIntentResponseSchema,
    invalid: failure,
    idempotencyKey,
  });
}

export const createCreditPackage = (packageId: string, idempotencyKey?: string) =>
  createIntent(
    '/api/v1/payments/create-credit-package',
    { package_id: packageId },
    MESSAGES.creditPaymentFailed,
    idempotencyKey,
  );

export const createCreditPayment = (creditPackId: string, idempotencyKey?: string) =>
  createIntent(
    '/api/v1/payments/create-credit-payment',
    { credit_pack_id: creditPackId },
    MESSAGES.creditPaymentFailed,
    idempotencyKey,
  );

/**
 * A plan subscription; without a plan, one training slot at the default training fee. The price
 * is the billing period's (a year's for annual billing), as the page showed it.
 */
export const createTrainingPayment = (
  plan?: {
    name: string;
    priceDollars: number;
    credits: number;
    billingCycle: BillingCycle;
  } | null,
  idempotencyKey?: string,
) =>
  createIntent(
    '/api/v1/payments/create-training-payment',
    plan
      ? {
          plan_name: plan.name,
          plan_price: plan.priceDollars,
          plan_credits: plan.credits,
          billing_cycle: plan.billingCycle,
        }
      : {},
    MESSAGES.trainingPaymentFailed,
    idempotencyKey,
  );

export const createTrainingPurchase = (quantity: number, idempotencyKey?: string) =>
  createIntent(
    '/api/v1/payments/create-training-purchase',
    { quantity },
    MESSAGES.trainingPurchaseFailed,
    idempotencyKey,
  );

export const createGenerationPayment = (
  order: { style?: string; prompt?: string },
  idempotencyKey?: string,
) =>
  createIntent(
    '/api/v1/users/create-payment-intent',
    order,
    MESSAGES.generationPaymentFailed,
    idempotencyKey,
  );

/** The message shown when live card collection is unavailable to this client. */
export const LIVE_CARDS_UNAVAILABLE =
  'Card payments are not available right now. Please try again later.';

/**
 * Takes the money: attaches the card to the intent. In test mode the API plays the part of
 * Stripe.js (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined). Rejects with the
 * provider's message, e.g. 'Your card was declined.'
 */
export async function chargeCard(
  intent: Pick<PaymentIntentResponse, 'payment_intent_id' | 'client_secret'>,
  card: CardDetails,
  testMode: boolean,
): Promise<void> {
  if (!testMode) {
    throw new ApiError({ status: 0, code: 'card_unavailable', detail: LIVE_CARDS_UNAVAILABLE });
  }
  await api.post(
    '/api/v1/payments/test/confirm-card',
    {
      payment_intent_id: intent.payment_intent_id,
      client_secret: intent.client_secret,
      card: { number: card.number, expiry: card.expiry, cvc: card.cvc, name: card.name.trim() },
    },
    { schema: ZTestCardConfirmResponseSchema, invalid: MESSAGES.purchaseFailed },
  );
}

export async function confirmCreditPackage(paymentIntentId: string) {
  return api.post(
    '/api/v1/payments/confirm-credit-package',
    { payment_intent_id: paymentIntentId },
    { schema: ZConfirmCreditPackageResponseSchema, invalid: MESSAGES.confirmFailed },
  );
}

export async function confirmPayment(paymentIntentId: string) {
  return api.post(
    '/api/v1/payments/confirm-payment',
    { payment_intent_id: paymentIntentId },
    { schema: ZConfirmPaymentResponseSchema, invalid: MESSAGES.confirmFailed },
  );
}

export interface TrainingConfirmation {
  message: string;
  training_limit?: number;
}

function trainingConfirmation(answer: TrainingConfirmation): TrainingConfirmation {
  return {
    message: answer.message || MESSAGES.trainingUploadNext,
    training_limit: answer.training_limit,
  };
}

export async function confirmPlanSubscription(
  paymentIntentId: string,
): Promise<TrainingConfirmation> {
  return trainingConfirmation(
    await api.post(
      '/api/v1/payments/confirm-plan-subscription',
      { payment_intent_id: paymentIntentId },
      { schema: ZConfirmPlanSubscriptionResponseSchema, invalid: MESSAGES.confirmFailed },
    ),
  );
}

export async function confirmAdditionalTraining(input: {
  paymentIntentId: string;
  packId: string;
  amountCents: number;
}): Promise<TrainingConfirmation> {
  return trainingConfirmation(
    await api.post(
      '/api/v1/payments/confirm-additional-training',
      {
        payment_intent_id: input.paymentIntentId,
        pack_id: input.packId,
        amount: input.amountCents,
        payment_method: 'stripe',
      },
      { schema: ZConfirmAdditionalTrainingResponseSchema, invalid: MESSAGES.confirmFailed },
    ),
  );
}

export async function fetchSubscription(): Promise<SubscriptionResponse> {
  return api.get('/api/v1/payments/subscription', {
    schema: ZSubscriptionResponseSchema,
    invalid: MESSAGES.subscriptionMissing,
  });
}

export async function cancelSubscription() {
  return api.post('/api/v1/payments/cancel-subscription', undefined, {
    schema: ZCancelSubscriptionResponseSchema,
    invalid: MESSAGES.cancelFailed,
  });
}

export async function reactivateSubscription(): Promise<{ message: string }> {
  return api.post('/api/v1/payments/reactivate-subscription', undefined, {
    schema: ZReactivateSubscriptionResponseSchema,
    invalid: MESSAGES.reactivateFailed,
  });
}
