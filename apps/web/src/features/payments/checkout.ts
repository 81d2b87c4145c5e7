import { MESSAGES } from '@studioshot/contracts/messages';
import type { PaymentOrder } from './payment-params';
import { generationResultPath } from './payment-params';
import {
  confirmAdditionalTraining,
  confirmPayment,
  confirmPlanSubscription,
  createCreditPayment,
  createGenerationPayment,
  createTrainingPayment,
  createTrainingPurchase,
  type PaymentIntentResponse,
} from './payments-api';
import { createUpgrade, fetchUpgradeQuote, type UpgradeProration } from './billing-api';
import { CURRENCY, GENERATION_ORDER, planPeriodPriceCents } from './catalogue';
import { refreshProfile } from './hooks';
import { clearPurchaseSelection } from './client-storage';

/**
 * Success handling delays (docs/spec/screens.md#4-states-and-transitions,
 * docs/spec/constants.md#timing): 2 s, or 3 s after buying credits.
 */
export const REDIRECT_DELAY_MS = 2000;
export const CREDITS_REDIRECT_DELAY_MS = 3000;

/** A created or resumed intent; an upgrade's says how its amount was reached. */
export type CheckoutIntent = PaymentIntentResponse & { proration?: UpgradeProration | null };

/**
 * What the checkout shows before anything is created: the amount charged, in cents, from the
 * pricing catalogue (the server's own) or, for an upgrade, priced by the server. `mode` is how
 * Stripe takes it: a one-off payment, or the first invoice of a subscription.
 */
export interface CheckoutQuote {
  amount: number;
  currency: string;
  mode: 'payment' | 'subscription';
  proration: UpgradeProration | null;
}

/** The checkout's price for an order. Stores nothing: an intent is made only on Pay. */
export async function quoteFor(order: PaymentOrder): Promise<CheckoutQuote> {
  const oneOff = (amount: number): CheckoutQuote => ({
    amount,
    currency: CURRENCY,
    mode: 'payment',
    proration: null,
  });
  switch (order.kind) {
    case 'training-plan':
      return {
        amount: planPeriodPriceCents(order.plan, order.cycle),
        currency: CURRENCY,
        mode: 'subscription',
        proration: null,
      };
    case 'training-slot':
    case 'training-pack':
    case 'credits':
      return oneOff(order.pack.price_cents);
    case 'generation':
      return oneOff(GENERATION_ORDER.price_cents);
    case 'upgrade': {
      const quote = await fetchUpgradeQuote(order.plan.id, order.from);
      return {
        amount: quote.amount,
        currency: quote.currency,
        // Nothing running to prorate: the plan is bought as a new subscription.
        mode: quote.kind === 'subscription' ? 'subscription' : 'payment',
        proration: quote.proration,
      };
    }
  }
}

/**
 * Creates the payment intent an order is paid with (and the pending payment the server stores
 * with it): called on Pay only, with the checkout's key.
 */
export function createIntentFor(order: PaymentOrder, key: string): Promise<CheckoutIntent> {
  switch (order.kind) {
    case 'training-plan':
      return createTrainingPayment(
        {
          name: order.selected.planName || order.plan.name,
          priceDollars:
            planPeriodPriceCents({ price_cents: order.selected.price }, order.cycle) / 100,
          credits: order.selected.credits,
          billingCycle: order.cycle,
        },
        key,
      );
    case 'training-slot':
      return createTrainingPayment(null, key);
    case 'training-pack':
      return createTrainingPurchase(order.pack.quantity, key);
    case 'upgrade':
      return createUpgrade(order.plan.id, order.from, key);
    case 'credits':
      return createCreditPayment(order.pack.id, key);
    case 'generation':
      return createGenerationPayment({ style: order.style, prompt: order.prompt }, key);
  }
}

/** The spec's fallback message when creating the intent fails. */
export function createFailureMessage(order: PaymentOrder): string {
  switch (order.kind) {
    case 'training-plan':
    case 'training-slot':
      return MESSAGES.trainingPaymentFailed;
    case 'training-pack':
      return MESSAGES.trainingPurchaseFailed;
    case 'upgrade':
      return MESSAGES.upgradeFailed;
    case 'credits':
      return MESSAGES.creditPaymentFailed;
    case 'generation':
      return MESSAGES.generationPaymentFailed;
  }
}

export interface PaymentSuccess {
  message: string;
  /** Where the page goes by itself, after `delayMs`. */
  redirectTo: string;
  /** The success card's button, naming that page. */
  nextLabel: string;
  delayMs: number;
}

/** The card was charged but the purchase could not be confirmed. */
export class ConfirmationError extends Error {
  constructor() {
    super(MESSAGES.confirmAfterPaymentFailed);
    this.name = 'ConfirmationError';
  }
}

async function confirmTraining(
  order: Extract<
    PaymentOrder,
    { kind: 'training-plan' | 'training-slot' | 'training-pack' | 'upgrade' }
  >,
  intent: PaymentIntentResponse,
): Promise<string> {
  const id = intent.payment_intent_id;
  const additional = () =>
    confirmAdditionalTraining({
      paymentIntentId: id,
      packId:
        order.kind === 'training-pack' || order.kind === 'training-slot'
          ? order.pack.id
          : 'training_1',
      amountCents: intent.amount,
    });
  try {
    // Training packs bought with quantity and price take the additional-training flow directly.
    if (order.kind === 'training-pack') return (await additional()).message;
    try {
      return (await confirmPlanSubscription(id)).message;
    } catch {
      return (await additional()).message;
    }
  } catch {
    // Both confirmations failed: the payment went through, so success is still shown.
    return MESSAGES.trainingUploadNext;
  }
}

/**
 * Payment success handling (docs/spec/screens.md#4-states-and-transitions), after the card step
 * succeeded. Rejects with
 * 'Payment succeeded but failed to confirm. Please contact support.' when the purchase could
 * not be confirmed.
 */
export async function completeOrder(
  order: PaymentOrder,
  intent: PaymentIntentResponse,
): Promise<PaymentSuccess> {
  switch (order.kind) {
    case 'training-plan':
    case 'training-slot':
    case 'training-pack':
    case 'upgrade': {
      const message = await confirmTraining(order, intent);
      await refreshProfile();
      clearPurchaseSelection();
      return {
        message: message.includes(MESSAGES.trainingUploadNext)
          ? message
          : `${message} ${MESSAGES.trainingUploadNext}`,
        redirectTo: '/upload',
        nextLabel: 'Continue to Upload Photos',
        delayMs: REDIRECT_DELAY_MS,
      };
    }
    case 'credits': {
      let added: number;
      try {
        added = (await confirmPayment(intent.payment_intent_id)).credits_awarded;
      } catch (error) {
        throw confirmFailure(error);
      }
      await refreshProfile();
      return {
        message: `${added} credits have been added to your account.`,
        redirectTo: '/dashboard',
        nextLabel: 'Go to Dashboard',
        delayMs: CREDITS_REDIRECT_DELAY_MS,
      };
    }
    case 'generation': {
      try {
        await confirmPayment(intent.payment_intent_id);
      } catch (error) {
        throw confirmFailure(error);
      }
      await refreshProfile();
      return {
        message: 'Payment successful! Your 4 headshots are being prepared...',
        redirectTo: generationResultPath(order, intent.payment_intent_id),
        nextLabel: 'See Your Headshots',
        delayMs: REDIRECT_DELAY_MS,
      };
    }
  }
}

function confirmFailure(error: unknown): ConfirmationError {
  console.error('payment confirmation failed', error);
  return new ConfirmationError();
}
