import { MESSAGES } from '@studioshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageState } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';
import { CardForm } from '../features/payments/CardForm';
import {
  formatDollars,
  findUpgradeOffer,
  planLabel,
  pricePerCredit,
} from '../features/payments/catalogue';
import {
  completeOrder,
  createFailureMessage,
  createIntentFor,
  type PaymentSuccess,
} from '../features/payments/checkout';
import { readSelectedPlan } from '../features/payments/client-storage';
import { usePricing } from '../features/payments/hooks';
import { ArrowLeftIcon, CheckIcon, SuccessIcon } from '../features/payments/icons';
import {
  orderKey,
  parsePaymentParams,
  paymentBackTarget,
  paymentHeading,
  type PaymentOrder,
} from '../features/payments/payment-params';
import { chargeCard, type PaymentIntentResponse } from '../features/payments/payments-api';
import { errorMessage } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { appStorage, STORAGE_KEYS } from '../lib/storage';

const INTENT_QUERY_KEY = 'payment-intent';

const BACK_LABELS: Record<string, string> = {
  '/pricing': 'Back to pricing',
  '/generate': 'Back to generate',
  '/dashboard': 'Back to dashboard',
};

interface Summary {
  title: string;
  lines: string[];
  badge?: string | null;
  /** Shown after the total, e.g. '/month'. */
  per?: string;
}

function summaryOf(order: PaymentOrder): Summary {
  switch (order.kind) {
    case 'training-plan':
      return {
        title: `${order.plan.name} plan`,
        lines: [
          'Monthly subscription, cancel any time',
          `${order.plan.training_limit} personal AI ${order.plan.training_limit === 1 ? 'model' : 'models'}`,
          `${order.plan.credits} headshot credits every month`,
        ],
        per: '/month',
      };
    case 'training-slot':
      return {
        title: 'Extra model training',
        lines: ['1 additional model training', 'Train a new personal AI model from your photos'],
      };
    case 'training-pack':
      return {
        title: order.pack.quantity === 1 ? 'Extra model training' : 'Training pack',
        lines: [
          `${order.pack.quantity} additional model ${order.pack.quantity === 1 ? 'training' : 'trainings'}`,
          'Train new personal AI models from your photos',
        ],
        badge: order.pack.savings,
      };
    case 'upgrade': {
      const offer = findUpgradeOffer(order.plan.id);
      return {
        title: `Upgrade to ${order.plan.name}`,
        lines: [
          `From your ${planLabel(order.from)} plan`,
          offer
            ? `${offer.trainings} extra trainings and ${offer.credits} credits included`
            : `${order.plan.training_limit} personal AI models`,
          'Takes effect immediately',
        ],
        per: '/month',
      };
    }
    case 'credits':
      return {
        title: order.pack.name,
        lines: [
          `${order.pack.credits} headshot credits`,
          `$${pricePerCredit(order.pack)} per credit`,
          'Credits never expire',
        ],
        badge: order.pack.savings,
      };
    case 'generation':
      return {
        title: 'Professional headshots',
        lines: ['4 AI headshots at 1024x1024', `Style: ${order.style}`, `Prompt: ${order.prompt}`],
      };
  }
}

function OrderSummary({ order, amount }: { order: PaymentOrder; amount: number }) {
  const summary = summaryOf(order);
  return (
    <section aria-labelledby="summary-heading" className={`${cardClass} p-6 sm:p-8`}>
      <h2
        id="summary-heading"
        className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase"
      >
        Order summary
      </h2>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <p className="font-display text-2xl font-semibold text-stone-950">{summary.title}</p>
        {summary.badge && (
          <span className="rounded-full bg-accent-100 px-2.5 py-0.5 text-xs font-semibold text-accent-800">
            {summary.badge}
          </span>
        )}
      </div>
      <ul className="mt-4 space-y-2 text-sm text-stone-700">
        {summary.lines.map((line) => (
          <li key={line} className="flex gap-2 break-words">
            <CheckIcon className="mt-0.5 size-4 shrink-0 text-accent-600" />
            <span className="min-w-0">{line}</span>
          </li>
        ))}
      </ul>
      <div className="mt-6 flex items-baseline justify-between border-t border-stone-200 pt-4">
        <span className="font-medium text-stone-900">Total due today</span>
        <span className="font-display text-3xl font-semibold text-stone-950">
          {formatDollars(amount)}
          {summary.per && (
            <span className="font-sans text-base font-normal text-stone-500">{summary.per}</span>
          )}
        </span>
      </div>
      <p className="mt-4 text-xs text-stone-500">30-day money-back guarantee. No hidden fees.</p>
    </section>
  );
}

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
      <Link to="/dashboard" className={`${buttonClass('primary')} mt-6`}>
        Go to Dashboard
      </Link>
    </div>
  );
}

function Checkout({
  order,
  onSuccess,
}: {
  order: PaymentOrder;
  onSuccess: (success: PaymentSuccess) => void;
}) {
  const pricing = usePricing();
  const intent = useQuery({
    queryKey: [INTENT_QUERY_KEY, orderKey(order)],
    queryFn: () => createIntentFor(order),
    // One visit, one intent: never re-created behind the user's back.
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  if (intent.isError) {
    return (
      <Problem message={errorMessage(intent.error, createFailureMessage(order))}>
        <button
          type="button"
          onClick={() => void intent.refetch()}
          className={buttonClass('primary')}
        >
          Try Again
        </button>
      </Problem>
    );
  }
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
  if (!intent.data || !pricing.data) {
    return <PageState title="Loading payment information..." busy />;
  }

  const paymentIntent: PaymentIntentResponse = intent.data;
  const testMode = pricing.data.test_mode;
  const paid = async () => {
    const success = await completeOrder(order, paymentIntent);
    queryClient.removeQueries({ queryKey: [INTENT_QUERY_KEY] });
    onSuccess(success);
  };

  return (
    <div className="mt-8 grid items-start gap-6 lg:grid-cols-[1fr_1.1fr]">
      <OrderSummary order={order} amount={paymentIntent.amount} />
      <section aria-labelledby="card-heading" className={`${cardClass} p-6 sm:p-8`}>
        <h2 id="card-heading" className="mb-5 font-display text-xl font-semibold text-stone-950">
          Payment details
        </h2>
        <CardForm
          amountCents={paymentIntent.amount}
          testMode={testMode}
          charge={(card) => chargeCard(paymentIntent, card, testMode)}
          onSuccess={paid}
        />
      </section>
    </div>
  );
}

function Problem({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div role="alert" className={`${cardClass} mx-auto mt-8 max-w-lg p-8 text-center`}>
      <p className="font-display text-xl font-semibold text-stone-950">
        We can't take this payment
      </p>
      <p className="mt-2 text-red-800">{message}</p>
      {children && <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div>}
    </div>
  );
}

export function Component() {
  const { status, user } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Read once per visit: a finished purchase clears it, the page must not change its order.
  const [selectedPlan] = useState(readSelectedPlan);
  const [success, setSuccess] = useState<PaymentSuccess | null>(null);

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => void navigate(success.redirectTo), success.delayMs);
    return () => clearTimeout(timer);
  }, [success, navigate]);

  const token = appStorage.getItem(STORAGE_KEYS.accessToken);
  if (status !== 'authenticated' || !user || !token) return <Navigate to="/auth" replace />;

  const parsed = parsePaymentParams(params, {
    selectedPlan,
    currentPlan: user.plan_type ?? null,
  });
  const back = paymentBackTarget(parsed.type);

  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Payment · Studioshot</title>
      <Link to={back} className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
        <ArrowLeftIcon /> {BACK_LABELS[back] ?? 'Back'}
      </Link>
      <h1 className="mt-4 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
        {paymentHeading(parsed.type)}
      </h1>
      <p className="mt-2 text-stone-600">Secure checkout. You are charged once, when you pay.</p>

      {success ? (
        <SuccessPanel success={success} />
      ) : parsed.error !== undefined ? (
        <Problem message={parsed.error}>
          <Link to={back} className={buttonClass('primary')}>
            {BACK_LABELS[back] ?? 'Back'}
          </Link>
        </Problem>
      ) : (
        <Checkout key={orderKey(parsed.order)} order={parsed.order} onSuccess={setSuccess} />
      )}
    </section>
  );
}
