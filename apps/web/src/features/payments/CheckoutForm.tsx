import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/PageState';
import { FormError } from '../../components/TextField';
import { CardForm } from './CardForm';
import {
  chargeCard,
  type IntentRef,
  LIVE_CARDS_UNAVAILABLE,
  type PricingResponse,
} from './payments-api';

// Stripe Elements and Stripe.js load only when a Stripe-mode checkout shows its card step.
const StripePaymentForm = lazy(() => import('./StripePaymentForm'));

export interface CheckoutFormProps {
  /** What the button charges, in cents. */
  amountCents: number;
  /** Stripe mode: the currency and kind of charge the card form is set up for before Pay. */
  currency: string;
  mode: 'payment' | 'subscription';
  /**
   * The intent to pay, made when Pay is pressed (the same one however often it is pressed);
   * rejects with the reason it could not be made.
   */
  obtainIntent: () => Promise<IntentRef>;
  /** An intent made on an earlier visit (resumed): the card form opens on it. */
  createdIntent?: IntentRef | null;
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
  amountCents,
  currency,
  mode,
  obtainIntent,
  createdIntent,
  pricing,
  onSuccess,
  returnUrl,
}: CheckoutFormProps) {
  if (pricing.test_mode) {
    return (
      <CardForm
        amountCents={amountCents}
        testMode
        charge={async (card) => chargeCard(await obtainIntent(), card, true)}
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
        amountCents={amountCents}
        currency={currency}
        mode={mode}
        obtainIntent={obtainIntent}
        createdIntent={createdIntent ?? null}
        onSuccess={onSuccess}
        returnUrl={returnUrl}
      />
    </Suspense>
  );
}
