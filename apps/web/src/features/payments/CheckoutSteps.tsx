import { MESSAGES } from '@studioshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SuccessIcon } from '../../components/icons';
import { PageState } from '../../components/PageState';
import { buttonClass, cardClass } from '../../components/ui';
import { ApiError, errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { fetchPaymentIntent, type PaymentIntentDetails } from './billing-api';
import { formatDollars } from './catalogue';
import {
  completeOrder,
  createFailureMessage,
  createIntentFor,
  quoteFor,
  type CheckoutIntent,
  type CheckoutQuote,
  type PaymentSuccess,
} from './checkout';
import { CheckoutForm } from './CheckoutForm';
import { usePricing } from './hooks';
import { useIntentOnPay } from './intent-on-pay';
import { OrderSummary } from './OrderSummary';
import {
  orderFromIntent,
  orderKey,
  paymentRecovery,
  type PaymentOrder,
  type Recovery,
} from './payment-params';
import { paymentKeys } from './query-keys';

// The steps of /payment: a new order priced and paid, a resumed intent, a paid one confirmed.

/** What Stripe adds to the address when a bank's 3-D Secure page sends the buyer back. */
const RETURN_PARAMS = ['payment_intent', 'payment_intent_client_secret', 'redirect_status'];

export function SuccessPanel({ success }: { success: PaymentSuccess }) {
  return (
    <div
      role="status"
      className={`${cardClass} mx-auto mt-8 flex max-w-lg flex-col items-center p-8 text-center sm:p-10`}
    >
      <SuccessIcon />
      <h2 className="mt-4 font-display text-2xl font-semibold text-stone-950">
        Payment Successful!
      </h2>
      <p className="mt-2 text-stone-700">{success.message}</p>
      <p className="mt-1 text-sm text-stone-500">Taking you there in a moment...</p>
      <Link to={success.redirectTo} className={`${buttonClass('primary')} mt-6`}>
        {success.nextLabel}
      </Link>
    </div>
  );
}

export function Problem({
  title = "We can't take this payment",
  message,
  children,
}: {
  title?: string;
  message: string;
  children?: ReactNode;
}) {
  return (
    <div role="alert" className={`${cardClass} mx-auto mt-8 max-w-lg p-8 text-center`}>
      <p className="font-display text-xl font-semibold text-stone-950">{title}</p>
      <p className="mt-2 text-red-800">{message}</p>
      {children && <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div>}
    </div>
  );
}

export function RecoveryLink({ recovery }: { recovery: Recovery }) {
  return (
    <Link to={recovery.to} className={buttonClass('primary')}>
      {recovery.label}
    </Link>
  );
}

/** Said when the intent made on Pay charges another amount than the page showed. */
function priceChangedMessage(amountCents: number): string {
  return `The price is now ${formatDollars(amountCents)}. Press Pay to pay it.`;
}

/**
 * The order summary beside the card step. Nothing is created until Pay: the page shows the
 * quote, and Pay makes the intent (or pays the resumed one).
 */
function CheckoutBody({
  order,
  quote,
  intent,
  notice,
  onCreated,
  onPaid,
}: {
  order: PaymentOrder;
  quote: CheckoutQuote;
  /** An intent made on an earlier visit (resumed); without one, Pay makes it. */
  intent?: CheckoutIntent | null;
  notice?: string;
  onCreated?: (paymentIntentId: string) => void;
  onPaid: (success: PaymentSuccess) => void;
}) {
  const pricing = usePricing();
  // What the page shows and charges; the made intent's own figures replace the quote's.
  const [shown, setShown] = useState({ amount: quote.amount, proration: quote.proration });
  const obtain = useIntentOnPay((key) => createIntentFor(order, key), {
    existing: intent,
    onCreated: (made) => onCreated?.(made.payment_intent_id),
  });

  if (pricing.isError) {
    return (
      <Problem message={MESSAGES.paymentInfoFailed}>
        <button
          type="button"
          onClick={() => void pricing.refetch()}
          className={buttonClass('primary')}
        >
          Try Again
        </button>
      </Problem>
    );
  }
  if (!pricing.data) return <PageState title="Loading payment information..." busy />;

  /** The intent Pay charges, refused while it asks another amount than the page shows. */
  const intentToPay = async (): Promise<CheckoutIntent> => {
    let made: CheckoutIntent;
    try {
      made = await obtain();
    } catch (error) {
      if (error instanceof ApiError && error.detail) throw error;
      throw new ApiError({ status: 0, code: 'intent_failed', detail: createFailureMessage(order) });
    }
    if (made.amount !== shown.amount) {
      // A prorated amount moves with time: the customer sees the new one before paying it.
      setShown({ amount: made.amount, proration: made.proration ?? shown.proration });
      throw new ApiError({
        status: 0,
        code: 'price_changed',
        detail: priceChangedMessage(made.amount),
      });
    }
    return made;
  };

  const paid = async () => {
    const success = await completeOrder(order, await obtain());
    queryClient.removeQueries({ queryKey: paymentKeys.quotes() });
    queryClient.removeQueries({ queryKey: paymentKeys.resumedIntents() });
    onPaid(success);
  };

  return (
    <>
      {notice && (
        <p
          role="note"
          className="mt-6 rounded-xl border border-accent-200 bg-accent-50 px-4 py-3 text-sm text-stone-700"
        >
          {notice}
        </p>
      )}
      <div className="mt-8 grid items-start gap-6 lg:grid-cols-[1fr_1.1fr]">
        <OrderSummary order={order} amount={shown.amount} proration={shown.proration} />
        <section aria-labelledby="card-heading" className={`${cardClass} p-6 sm:p-8`}>
          <h2 id="card-heading" className="mb-5 font-display text-xl font-semibold text-stone-950">
            Payment details
          </h2>
          <CheckoutForm
            amountCents={shown.amount}
            currency={quote.currency}
            mode={quote.mode}
            obtainIntent={intentToPay}
            createdIntent={intent}
            pricing={pricing.data}
            onSuccess={paid}
          />
        </section>
      </div>
    </>
  );
}

/** A new order: priced from the catalogue or the server's quote; Pay makes its intent. */
export function NewCheckout({
  order,
  notice,
  recovery,
  onCreated,
  onPaid,
}: {
  order: PaymentOrder;
  notice?: string;
  /** Where to choose again when the order cannot be priced. */
  recovery: Recovery;
  onCreated: (paymentIntentId: string) => void;
  onPaid: (success: PaymentSuccess) => void;
}) {
  const quote = useQuery({
    queryKey: paymentKeys.quote(orderKey(order)),
    queryFn: () => quoteFor(order),
    // The price shown stays put while the page is open; Pay's intent says if it moved.
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  if (quote.isError) {
    return (
      <Problem message={errorMessage(quote.error, createFailureMessage(order))}>
        <button
          type="button"
          onClick={() => void quote.refetch()}
          className={buttonClass('primary')}
        >
          Try Again
        </button>
        <RecoveryLink recovery={recovery} />
      </Problem>
    );
  }
  if (!quote.data) return <PageState title="Loading payment information..." busy />;
  return (
    <CheckoutBody
      order={order}
      quote={quote.data}
      notice={notice}
      onCreated={onCreated}
      onPaid={onPaid}
    />
  );
}

/** An intent already paid (a reload after paying, a bank's return): its purchase is confirmed. */
function CompletePaid({
  order,
  intent,
  onPaid,
}: {
  order: PaymentOrder;
  intent: PaymentIntentDetails;
  onPaid: (success: PaymentSuccess) => void;
}) {
  const completed = useQuery({
    queryKey: paymentKeys.completion(intent.payment_intent_id),
    queryFn: () => completeOrder(order, intent),
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
  useEffect(() => {
    if (completed.data) onPaid(completed.data);
  }, [completed.data, onPaid]);
  if (completed.isError) {
    return <Problem message={errorMessage(completed.error, MESSAGES.confirmAfterPaymentFailed)} />;
  }
  return <PageState title="Confirming your payment..." busy />;
}

/** /payment?payment_intent=...: resumes the created intent instead of making another. */
export function ResumedCheckout({
  intent,
  params,
  userId,
  onPaid,
}: {
  intent: ReturnType<typeof useResumedIntent>;
  params: URLSearchParams;
  userId: string;
  onPaid: (success: PaymentSuccess) => void;
}) {
  const startAgain = startAgainPath(params);
  const again = (label = 'Start Again') => (
    <Link to={startAgain} className={buttonClass('secondary')}>
      {label}
    </Link>
  );
  if (intent.isError) {
    return (
      <Problem
        title={MESSAGES.paymentIntentLoadFailed}
        message={errorMessage(intent.error, MESSAGES.paymentIntentLoadFailed)}
      >
        <button
          type="button"
          onClick={() => void intent.refetch()}
          className={buttonClass('primary')}
        >
          Try Again
        </button>
        {again()}
      </Problem>
    );
  }
  if (!intent.data) return <PageState title="Loading payment information..." busy />;
  const details = intent.data;
  const parsed = orderFromIntent(details, params, { userId });
  if (parsed.error !== undefined) return <Problem message={parsed.error}>{again()}</Problem>;
  if (details.status === 'succeeded')
    return <CompletePaid order={parsed.order} intent={details} onPaid={onPaid} />;
  if (details.status !== 'requires_payment')
    return <Problem message={MESSAGES.paymentIntentClosed}>{again()}</Problem>;
  return (
    <CheckoutBody
      order={parsed.order}
      quote={{
        amount: details.amount,
        currency: details.currency,
        mode: details.kind === 'subscription' ? 'subscription' : 'payment',
        proration: details.proration ?? null,
      }}
      intent={details}
      onPaid={onPaid}
    />
  );
}

export function useResumedIntent(paymentIntentId: string | null) {
  return useQuery({
    queryKey: paymentKeys.resumedIntent(paymentIntentId),
    queryFn: () => fetchPaymentIntent(paymentIntentId!),
    enabled: paymentIntentId !== null,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** The same purchase without the intent: a fresh start, or the page to choose again. */
function startAgainPath(params: URLSearchParams): string {
  const fresh = new URLSearchParams(params);
  for (const name of RETURN_PARAMS) fresh.delete(name);
  return fresh.has('type') ? `/payment?${fresh.toString()}` : paymentRecovery('').to;
}
