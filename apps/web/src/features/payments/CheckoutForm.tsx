import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/PageState';
import { FormError } from '../../components/TextField';
import { CardForm } from './CardForm';
import {
  chargeCard,
  LIVE_CARDS_UNAVAILABLE,
  type PaymentIntentResponse,
  type PricingResponse,
} from './payments-api';

// Stripe Elements and Stripe.js load only when a Stripe-mode checkout shows its card step.
const StripePaymentForm = lazy(() => import('./StripePaymentForm'));

export interface CheckoutFormProps {
  intent: Pick<PaymentIntentResponse, 'payment_intent_id' | 'client_secret'>;
  /** What the button charges, in cents. */
  amountCents: number;
  /** The pricing call's answer: which provider takes the card, and its public key. */
  pricing: Pick<PricingResponse, 'test_mode' | 'stripe_publishable_key'>;
  /** Called once the payment went through; its error is shown in the form. */
  onSuccess: () => Promise<void>;
  /**
   * Stripe mode: where a bank's own authentication page sends the customer back to (Stripe adds
   * the intent to it); this page when unset.
   */
  returnUrl?: string;
}

/** The card step of a checkout: the test card form in test mode, Stripe Elements in Stripe mode. */
export function CheckoutForm({
  intent,
  amountCents,
  pricing,
  onSuccess,
  returnUrl,
}: CheckoutFormProps) {
  if (pricing.test_mode) {
    return (
      <CardForm
        amountCents={amountCents}
        testMode
        charge={(card) => chargeCard(intent, card, true)}
        onSuccess={onSuccess}
      />
    );
  }
  if (!pricing.stripe_publishable_key) return <FormError message={LIVE_CARDS_UNAVAILABLE} />;
  return (
    <Suspense
      fallback={
        <p className="flex min-h-[11rem] items-start gap-2 text-sm text-stone-500" role="status">
          <Spinner className="size-4" /> Loading the secure card form...
        </p>
      }
    >
      <StripePaymentForm
        publishableKey={pricing.stripe_publishable_key}
        paymentIntentId={intent.payment_intent_id}
        clientSecret={intent.client_secret}
        amountCents={amountCents}
        onSuccess={onSuccess}
        returnUrl={returnUrl}
      />
    </Suspense>
  );
}
