import { MESSAGES } from '@studioshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageState } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';
import { fetchPaymentIntent, type PaymentIntentDetails } from '../features/payments/billing-api';
import { CheckoutForm } from '../features/payments/CheckoutForm';
import {
  completeOrder,
  createFailureMessage,
  createIntentFor,
  quoteFor,
  type CheckoutIntent,
  type CheckoutQuote,
  type PaymentSuccess,
} from '../features/payments/checkout';
import { formatDollars } from '../features/payments/catalogue';
import { useIntentOnPay } from '../features/payments/intent-on-pay';
import { readSelectedPlan } from '../features/payments/client-storage';
import { usePricing } from '../features/payments/hooks';
import { ArrowLeftIcon, SuccessIcon } from '../components/icons';
import { OrderSummary } from '../features/payments/OrderSummary';
import {
  BILLING_PARAM,
  orderFromIntent,
  orderKey,
  parsePaymentParams,
  paymentBackTarget,
  checkoutWording,
  paymentRecovery,
  readBillingCycle,
  type PaymentOrder,
  type Recovery,
} from '../features/payments/payment-params';
import { ApiError, errorMessage } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { appStorage, STORAGE_KEYS } from '../lib/storage';

const QUOTE_QUERY_KEY = 'checkout-quote';
const RESUMED_INTENT_QUERY_KEY = 'payment-intent-resumed';

/** What Stripe adds to the address when a bank's 3-D Secure page sends the buyer back. */
const RETURN_PARAMS = ['payment_intent', 'payment_intent_client_secret', 'redirect_status'];

const BACK_LABELS: Record<string, string> = {
  '/pricing': 'Back to pricing',
  '/generate': 'Back to generate',
  '/dashboard': 'Back to dashboard',
};

function SuccessPanel({ success }: { success: PaymentSuccess }) {
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

function Problem({
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

function RecoveryLink({ recovery }: { recovery: Recovery }) {
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
    queryClient.removeQueries({ queryKey: [QUOTE_QUERY_KEY] });
    queryClient.removeQueries({ queryKey: [RESUMED_INTENT_QUERY_KEY] });
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
function NewCheckout({
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
    queryKey: [QUOTE_QUERY_KEY, orderKey(order)],
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
    queryKey: ['payment-complete', intent.payment_intent_id],
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
function ResumedCheckout({
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

function useResumedIntent(paymentIntentId: string | null) {
  return useQuery({
    queryKey: [RESUMED_INTENT_QUERY_KEY, paymentIntentId],
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

export function Component() {
  const { status, user } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  // Read once per visit: a finished purchase clears it, the page must not change its order.
  const [selectedPlan] = useState(readSelectedPlan);
  const [success, setSuccess] = useState<PaymentSuccess | null>(null);
  // The intent this visit created: naming it in the address is not a resume.
  const createdHere = useRef<string | null>(null);
  const named = params.get('payment_intent')?.trim() || null;
  const resumeId = named !== null && named !== createdHere.current ? named : null;
  const resumed = useResumedIntent(resumeId);

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => void navigate(success.redirectTo), success.delayMs);
    return () => clearTimeout(timer);
  }, [success, navigate]);

  const token = appStorage.getItem(STORAGE_KEYS.accessToken);
  if (status !== 'authenticated' || !user || !token) return <Navigate to="/auth" replace />;

  const onCreated = (paymentIntentId: string) => {
    if (createdHere.current === paymentIntentId) return;
    createdHere.current = paymentIntentId;
    // A reload resumes this intent instead of creating another.
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('payment_intent', paymentIntentId);
        return next;
      },
      { replace: true },
    );
  };

  const parsed = resumeId
    ? resumed.data
      ? orderFromIntent(resumed.data, params, { userId: user.id ?? '' })
      : null
    : parsePaymentParams(params, { selectedPlan, currentPlan: user.plan_type ?? null });
  const type = params.get('type')?.trim() || parsed?.type || 'generation';
  const back = paymentBackTarget(type);
  const wording = checkoutWording(parsed && parsed.error === undefined ? parsed.order : null, type);
  // Back to the prices the plan was chosen from: the annual ones when it is billed yearly.
  const backTo =
    back === '/pricing' && type === 'training' && readBillingCycle(params) === 'annual'
      ? `/pricing?${BILLING_PARAM}=annual`
      : back;

  let body: ReactNode;
  if (success) body = <SuccessPanel success={success} />;
  else if (resumeId)
    body = (
      <ResumedCheckout
        intent={resumed}
        params={params}
        userId={user.id ?? ''}
        onPaid={setSuccess}
      />
    );
  else if (parsed?.error !== undefined)
    body = (
      <Problem message={parsed.error}>
        <RecoveryLink recovery={parsed.recovery ?? paymentRecovery(type)} />
      </Problem>
    );
  else if (parsed)
    body = (
      <NewCheckout
        key={orderKey(parsed.order)}
        order={parsed.order}
        notice={parsed.notice}
        recovery={paymentRecovery(type)}
        onCreated={onCreated}
        onPaid={setSuccess}
      />
    );

  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Payment · Studioshot</title>
      <Link to={backTo} className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
        <ArrowLeftIcon /> {BACK_LABELS[back] ?? 'Back'}
      </Link>
      <h1 className="mt-4 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
        {wording.heading}
      </h1>
      <p className="mt-2 text-stone-600">{wording.lead}</p>
      {body}
    </section>
  );
}
