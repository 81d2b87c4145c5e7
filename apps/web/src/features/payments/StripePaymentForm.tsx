// Stripe mode's card step: Stripe Elements (the Payment Element) through the official React
// bindings. Loaded only by the payment screens in Stripe mode (CheckoutForm imports it lazily),
// so no other page downloads it or Stripe.js.
import { MESSAGES } from '@studioshot/contracts/messages';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeError } from '@stripe/stripe-js';
// The pure entry injects Stripe.js when loadStripe is called, not when this module loads.
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Spinner } from '../../components/PageState';
import { FormError } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { formatDollars } from './catalogue';
import type { IntentRef } from './payments-api';
import { waitForPaymentConfirmation } from './payment-confirmation';
import { LockIcon } from '../../components/icons';

export interface StripePaymentFormProps {
  publishableKey: string;
  /** What the button charges, in cents. */
  amountCents: number;
  currency: string;
  /** A one-off payment, or a subscription's first invoice: how Elements is set up before Pay. */
  mode: 'payment' | 'subscription';
  /** The intent Pay confirms, made on the first press; rejects with why it could not be. */
  obtainIntent: () => Promise<IntentRef>;
  /** An intent made on an earlier visit: Elements opens on its client secret. */
  createdIntent: IntentRef | null;
  /** Called once the payment went through; its error is shown here. */
  onSuccess: () => Promise<void>;
  /** Where a bank's own authentication page returns to; this page when unset. */
  returnUrl?: string;
}

/** Said when Stripe's own error has no message for the customer. */
export const STRIPE_PAYMENT_FAILED = 'Your payment could not be completed. Please try again.';
/** Said when Stripe.js cannot be loaded (blocked, offline). */
export const STRIPE_UNAVAILABLE =
  'The secure card form could not be loaded. Check your connection and reload the page.';
/** Said when the bank has not confirmed yet after we waited. */
export const PAYMENT_STILL_PROCESSING =
  'Your bank is still confirming this payment. It will be added to your account as soon as it is confirmed; you can leave this page.';

/** One Stripe.js instance per key for the whole visit (loadStripe injects the script once). */
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    // A failed load is tried again on the next visit, not remembered.
    stripe.catch(() => stripes.delete(publishableKey));
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/** The message a customer can act on: Stripe's own for card and form errors. */
function messageOf(error: StripeError): string {
  return (error.type === 'card_error' || error.type === 'validation_error') && error.message
    ? error.message
    : STRIPE_PAYMENT_FAILED;
}

export default function StripePaymentForm(props: StripePaymentFormProps) {
  const [stripe] = useState(() => stripeFor(props.publishableKey));
  const [loadFailed, setLoadFailed] = useState(false);
  useEffect(() => {
    let live = true;
    stripe.then(
      (loaded) => live && !loaded && setLoadFailed(true),
      () => live && setLoadFailed(true),
    );
    return () => {
      live = false;
    };
  }, [stripe]);
  if (loadFailed) return <FormError message={STRIPE_UNAVAILABLE} />;
  // Before an intent exists Elements is set up from the amount alone (Stripe's deferred intent):
  // the intent, and the payment our server stores with it, are made when Pay is pressed.
  const intentOptions = props.createdIntent
    ? { clientSecret: props.createdIntent.client_secret }
    : { mode: props.mode, amount: props.amountCents, currency: props.currency };
  return (
    <Elements
      stripe={stripe}
      options={{
        ...intentOptions,
        // Our palette in Stripe's frames: stone text, the accent for focus.
        appearance: {
          theme: 'stripe',
          variables: {
            colorPrimary: '#a3582c',
            colorText: '#1c1917',
            colorDanger: '#991b1b',
            borderRadius: '12px',
            fontFamily: 'ui-sans-serif, system-ui, sans-serif',
          },
        },
      }}
    >
      <PaymentForm {...props} />
    </Elements>
  );
}

function PaymentForm({
  amountCents,
  obtainIntent,
  createdIntent,
  onSuccess,
  returnUrl,
}: StripePaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [complete, setComplete] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const finishing = useRef(false);

  /** The card went through at Stripe: wait for our server to record it, then move on. */
  const finish = async (paymentIntentId: string) => {
    if (finishing.current) return;
    finishing.current = true;
    setProcessing(true);
    setError(null);
    const confirmed = await waitForPaymentConfirmation(paymentIntentId);
    if (!confirmed) {
      setNotice(PAYMENT_STILL_PROCESSING);
      setProcessing(false);
      return;
    }
    try {
      await onSuccess();
    } catch (failure) {
      setError(
        failure instanceof Error && failure.message ? failure.message : MESSAGES.confirmFailed,
      );
      finishing.current = false;
      setProcessing(false);
    }
  };

  // Back on this page after a redirect (3-D Secure by the bank's page, or a reload after paying):
  // the intent tells where the payment stands. A new checkout has no intent yet to ask about.
  const clientSecret = createdIntent?.client_secret;
  const createdId = createdIntent?.payment_intent_id;
  useEffect(() => {
    if (!stripe || !clientSecret || !createdId) return;
    let live = true;
    void stripe.retrievePaymentIntent(clientSecret).then(({ paymentIntent }) => {
      if (!live || !paymentIntent) return;
      if (paymentIntent.status === 'succeeded' || paymentIntent.status === 'processing') {
        void finish(createdId);
      } else if (paymentIntent.last_payment_error?.message) {
        setError(paymentIntent.last_payment_error.message);
      }
    });
    return () => {
      live = false;
    };
    // Once per intent: `finish` guards itself against a second run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stripe, clientSecret, createdId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || processing || !complete) return;
    setProcessing(true);
    setError(null);
    // Stripe has the form checked first, before anything else is awaited.
    const checked = await elements.submit();
    if (checked.error) {
      setError(messageOf(checked.error));
      setProcessing(false);
      return;
    }
    let intent: IntentRef;
    try {
      intent = await obtainIntent();
    } catch (failure) {
      setError(errorMessage(failure, STRIPE_PAYMENT_FAILED));
      setProcessing(false);
      return;
    }
    // Stripe.js runs 3-D Secure itself (a frame over the page); a bank that must take the customer
    // to its own page returns them here, to this same checkout, where the effect above resumes.
    const confirmParams = { return_url: returnUrl ?? window.location.href };
    const result = createdIntent
      ? await stripe.confirmPayment({ elements, confirmParams, redirect: 'if_required' })
      : await stripe.confirmPayment({
          elements,
          clientSecret: intent.client_secret,
          confirmParams,
          redirect: 'if_required',
        });
    if (result.error) {
      setError(messageOf(result.error));
      setProcessing(false);
      return;
    }
    const { paymentIntent } = result;
    if (paymentIntent.status === 'succeeded' || paymentIntent.status === 'processing') {
      await finish(intent.payment_intent_id);
      return;
    }
    setError(paymentIntent.last_payment_error?.message ?? STRIPE_PAYMENT_FAILED);
    setProcessing(false);
  };

  // The Pay button says why it cannot be pressed yet.
  // (While the form loads, the loading line above says so.)
  const disabledReason = ready && !complete ? 'Enter your card details to pay.' : null;
  const hint = !error && !notice && !processing ? disabledReason : null;

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Card details" noValidate>
      <div className="min-h-[11rem]" aria-busy={!ready || undefined}>
        {!ready && (
          <p className="flex items-center gap-2 text-sm text-stone-500" role="status">
            <Spinner className="size-4" /> Loading the secure card form...
          </p>
        )}
        <PaymentElement
          options={{ layout: 'tabs' }}
          onReady={() => setReady(true)}
          onChange={(change) => {
            setComplete(change.complete);
            setError(null);
          }}
          onLoadError={() => setError(STRIPE_UNAVAILABLE)}
        />
      </div>

      <div className="mt-5 space-y-3" aria-live="polite">
        <FormError message={error} />
        {notice && (
          <p className="rounded-xl border border-accent-200 bg-accent-50 px-4 py-3 text-sm text-stone-700">
            {notice}
          </p>
        )}
        {hint && (
          <p id="stripe-pay-hint" className="text-sm text-stone-500">
            {hint}
          </p>
        )}
      </div>

      <button
        type="submit"
        disabled={!stripe || !elements || !complete || processing || notice !== null}
        aria-describedby={hint ? 'stripe-pay-hint' : undefined}
        className={`${buttonClass('primary', 'lg')} mt-5 w-full`}
      >
        {processing ? <Spinner className="size-4" /> : <LockIcon />}
        {processing ? 'Processing Secure Payment...' : `Pay ${formatDollars(amountCents)}`}
      </button>
      <p className="mt-3 flex items-center justify-center gap-1.5 text-xs text-stone-500">
        <LockIcon className="size-3.5" /> Card details go straight to Stripe; we never see or store
        them.
      </p>
    </form>
  );
}
