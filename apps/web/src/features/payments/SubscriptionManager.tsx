import { MESSAGES } from '@studioshot/contracts';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/PageState';
import { buttonClass, cardClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { CardForm } from './CardForm';
import {
  findPlan,
  formatDate,
  formatDollars,
  planLabel,
  planPeriodPriceCents,
  PLANS,
} from './catalogue';
import { usePricing, useSubscription } from './hooks';
import {
  cancelSubscription,
  reactivateSubscription,
  type SubscriptionResponse,
} from './payments-api';
import { payRenewal, putCardOnFile } from './renewals-api';
import { authKeys } from '../auth/query-keys';
import { paymentKeys } from './query-keys';

type CancelAnswer = Awaited<ReturnType<typeof cancelSubscription>>;

const LOWEST_PLAN_CENTS = Math.min(...PLANS.map((plan) => plan.price_cents));

const STATUS_BADGES = {
  active: { label: 'Active', className: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  cancelling: { label: 'Cancelling', className: 'bg-accent-50 text-accent-800 ring-accent-200' },
  past_due: { label: 'Payment failed', className: 'bg-red-50 text-red-800 ring-red-200' },
  free: { label: 'Free', className: 'bg-stone-100 text-stone-700 ring-stone-200' },
} as const;

function ErrorLine({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div
      role="alert"
      className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      <span>{message}</span>
      {onRetry && (
        <button
          type="button"
          className="font-medium underline underline-offset-4"
          onClick={onRetry}
        >
          Retry
        </button>
      )}
    </div>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">{label}</dt>
      <dd className="mt-0.5 text-stone-900">{value}</dd>
    </div>
  );
}

/** '$9.99 on December 22, 2026': a charge and its date. */
export function chargeLine(charge: { amount_cents: number; date: string }): string {
  return `${formatDollars(charge.amount_cents)} on ${formatDate(charge.date)}`;
}

/** How often the subscription is asked for again once Stripe's payment page was opened. */
export const PAID_AT_STRIPE_POLL_MS = 5_000;

/**
 * Stripe mode: the failed invoice is paid on Stripe's own page (a new card, whatever the bank
 * asks), opened in a new tab so this one stays. Once it was opened, the subscription is asked for
 * again while this tab is visible, until Stripe's word that the invoice is paid reaches us.
 */
function PayAtStripe({ url, amountCents }: { url: string; amountCents: number }) {
  const [opened, setOpened] = useState(false);
  useSubscription({ refetchInterval: opened ? PAID_AT_STRIPE_POLL_MS : undefined });
  useEffect(() => {
    if (!opened) return;
    // Gone once the renewal is paid: the credits it granted show in the profile too.
    return () => void queryClient.invalidateQueries({ queryKey: authKeys.profile() });
  }, [opened]);
  return (
    <>
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        onClick={() => setOpened(true)}
        className={`${buttonClass('primary', 'sm')} mt-3`}
      >
        Update card and pay {formatDollars(amountCents)}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
      <p className="mt-2 text-xs">
        {opened
          ? 'Paid on Stripe’s page? Your plan shows as active here as soon as Stripe confirms it.'
          : 'Stripe’s secure payment page opens in a new tab.'}
      </p>
    </>
  );
}

/**
 * A failed renewal being retried: what failed, when it is tried again, and a way to pay it now
 * with a new card: Stripe's page for the failed invoice (Stripe mode), or (test payment mode) a
 * card form that puts a new card on file and pays the renewal.
 */
function PastDue({
  data,
  testMode,
  onPaid,
}: {
  data: SubscriptionResponse;
  testMode: boolean;
  onPaid: () => Promise<void>;
}) {
  const [paying, setPaying] = useState(false);
  const problem = data.renewal_problem;
  const amount = data.next_charge?.amount_cents;
  const payUrl = problem?.pay_url;
  return (
    <div
      role="alert"
      className="mt-4 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
    >
      <p className="font-medium">The renewal payment of your {planLabel(data.tier)} plan failed.</p>
      {problem && (
        <p className="mt-1">
          {problem.reason} We will try again on {formatDate(problem.next_attempt_at)}. If the last
          try on {formatDate(problem.final_attempt_at)} fails, your account returns to the Free
          plan; your credits stay yours.
        </p>
      )}
      {payUrl && amount !== undefined && <PayAtStripe url={payUrl} amountCents={amount} />}
      {testMode && amount !== undefined && !paying && (
        <button
          type="button"
          onClick={() => setPaying(true)}
          className={`${buttonClass('primary', 'sm')} mt-3`}
        >
          Update card and pay {formatDollars(amount)}
        </button>
      )}
      {testMode && amount !== undefined && paying && (
        <div className="mt-3 rounded-xl bg-white p-4 text-stone-900">
          <CardForm
            amountCents={amount}
            testMode
            charge={async (card) => {
              await putCardOnFile(card);
              await payRenewal();
            }}
            onSuccess={async () => {
              toast.success('Renewal paid: your plan is active again');
              await onPaid();
            }}
          />
        </div>
      )}
    </div>
  );
}

/**
 * Subscription manager (product spec, dashboard and Subscription): active (the next charge and
 * its amount, when credits and trainings renew), cancelling (access until the period end,
 * Reactivate), past due (a failed renewal being retried) or free (a way to /pricing; why, when
 * a renewal failed). Cancelling asks first.
 */
export function SubscriptionManager({ className = '' }: { className?: string }) {
  const subscription = useSubscription();
  const pricing = usePricing();
  const [confirming, setConfirming] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  // The cancel answer: its message, the end of access and the credits kept.
  const [cancelled, setCancelled] = useState<CancelAnswer | null>(null);

  const afterChange = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: paymentKeys.subscription() }),
      queryClient.invalidateQueries({ queryKey: authKeys.profile() }),
    ]);
  };

  const cancel = useMutation({
    mutationFn: cancelSubscription,
    onMutate: () => setActionError(null),
    onSuccess: async (answer) => {
      setConfirming(false);
      setCancelled(answer);
      toast.success('Subscription cancelled');
      await afterChange();
    },
    onError: (error) => setActionError(errorMessage(error, MESSAGES.cancelFailed)),
  });

  const reactivate = useMutation({
    mutationFn: reactivateSubscription,
    onMutate: () => setActionError(null),
    onSuccess: async (answer) => {
      setCancelled(null);
      toast.success(answer.message || 'Subscription reactivated');
      await afterChange();
    },
    onError: (error) => setActionError(errorMessage(error, MESSAGES.reactivateFailed)),
  });

  const data = subscription.data;
  const plan = data && data.tier !== 'free' ? findPlan(data.tier) : undefined;
  const busy = cancel.isPending || reactivate.isPending;
  const cycle = data?.billing_cycle === 'annual' ? 'annual' : 'monthly';
  const lapsed = data?.renewal_problem?.state === 'lapsed' ? data.renewal_problem : null;
  // A cancelled plan whose credit month ends with it renews nothing: it ends.
  const resetsAt =
    data?.allowance_resets_at &&
    !(data.status === 'cancelling' && data.allowance_resets_at === data.next_billing_date)
      ? data.allowance_resets_at
      : null;

  return (
    <section
      id="subscription"
      aria-labelledby="subscription-heading"
      aria-busy={subscription.isPending || busy || undefined}
      className={`${cardClass} p-6 ${className}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="subscription-heading" className="font-display text-xl font-semibold text-stone-950">
          Subscription
        </h2>
        {data && (
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${STATUS_BADGES[data.status].className}`}
          >
            {STATUS_BADGES[data.status].label}
          </span>
        )}
      </div>

      {subscription.isPending ? (
        <p className="mt-4 flex items-center gap-2 text-sm text-stone-600">
          <Spinner className="size-4" /> Loading subscription...
        </p>
      ) : subscription.isError && !data ? (
        <ErrorLine
          message={errorMessage(subscription.error, MESSAGES.subscriptionLoadFailed)}
          onRetry={() => void subscription.refetch()}
        />
      ) : !data ? (
        <ErrorLine message={MESSAGES.subscriptionMissing} />
      ) : data.status === 'free' ? (
        <>
          {lapsed && (
            <p className="mt-3 rounded-xl bg-red-50 px-4 py-3 text-sm text-red-900">
              Your {planLabel(lapsed.tier)} plan ended on {formatDate(lapsed.lapsed_at)} because its
              renewal payment failed: {lapsed.reason} Your credits are still yours.
            </p>
          )}
          <p className="mt-3 text-stone-700">
            You are on the <span className="font-medium">Free</span> plan. Subscribe to train your
            own AI model and get credits every month.
          </p>
          <p className="mt-1 text-sm text-stone-500">
            Plans start at {formatDollars(LOWEST_PLAN_CENTS)}/month. Cancel any time.
          </p>
          <Link to="/pricing" className={`${buttonClass('primary', 'sm')} mt-5`}>
            View Plans
          </Link>
        </>
      ) : (
        <>
          <p className="mt-3 text-stone-700">
            <span className="font-display text-2xl font-semibold text-stone-950">
              {planLabel(data.tier)}
            </span>
            {plan && (
              <span className="ml-2 text-stone-600">
                {formatDollars(planPeriodPriceCents(plan, cycle))}/
                {cycle === 'annual' ? 'year' : 'month'}
              </span>
            )}
          </p>
          <dl className="mt-4 grid gap-4 sm:grid-cols-2">
            <Detail label="Billing" value={cycle === 'annual' ? 'Annual' : 'Monthly'} />
            {data.status === 'cancelling' ? (
              <Detail
                label="Access until"
                value={formatDate(data.next_billing_date) || 'Not scheduled'}
              />
            ) : (
              <Detail
                label={data.status === 'past_due' ? 'Next try' : 'Next charge'}
                value={data.next_charge ? chargeLine(data.next_charge) : 'Not scheduled'}
              />
            )}
            {resetsAt && (
              <Detail
                label={
                  plan
                    ? `${plan.credits} credits and trainings renew`
                    : 'Credits and trainings renew'
                }
                value={formatDate(resetsAt)}
              />
            )}
            <Detail
              label="Model trainings"
              value={`${data.features.training_jobs} ${data.features.training_jobs === 1 ? 'model' : 'models'}`}
            />
          </dl>

          {data.status === 'past_due' && (
            <PastDue data={data} testMode={pricing.data?.test_mode === true} onPaid={afterChange} />
          )}

          {data.status === 'cancelling' && (
            <div className="mt-4 rounded-xl bg-accent-50 px-4 py-3 text-sm text-stone-700">
              {cancelled ? (
                <>
                  <p>{cancelled.message}</p>
                  <p className="mt-1">
                    {cancelled.credits_retained}{' '}
                    {cancelled.credits_retained === 1 ? 'credit' : 'credits'} retained.
                  </p>
                </>
              ) : (
                <p>
                  Your subscription is cancelled and ends on{' '}
                  <span className="font-medium">{formatDate(data.next_billing_date)}</span>. You
                  keep your plan until then, and your credits stay yours.
                </p>
              )}
            </div>
          )}

          {actionError && <ErrorLine message={actionError} />}

          <div className="mt-5 flex flex-wrap gap-3">
            {data.can_reactivate && (
              <button
                type="button"
                onClick={() => reactivate.mutate()}
                disabled={busy}
                className={buttonClass('primary', 'sm')}
              >
                {reactivate.isPending && <Spinner className="size-4" />}
                {reactivate.isPending ? 'Reactivating...' : 'Reactivate Subscription'}
              </button>
            )}
            {data.can_cancel && !confirming && (
              <button
                type="button"
                onClick={() => {
                  setActionError(null);
                  setConfirming(true);
                }}
                className={buttonClass('secondary', 'sm')}
              >
                Cancel Subscription
              </button>
            )}
            <Link to="/pricing" className={buttonClass('ghost', 'sm')}>
              Change plan
            </Link>
          </div>

          {data.can_cancel && confirming && (
            <div
              role="group"
              aria-labelledby="cancel-confirm-heading"
              className="mt-5 rounded-xl border border-stone-200 bg-stone-50 p-4"
            >
              <p id="cancel-confirm-heading" className="font-medium text-stone-900">
                Cancel your {planLabel(data.tier)} subscription?
              </p>
              <p className="mt-1 text-sm text-stone-600">
                You keep access until {formatDate(data.next_billing_date)} and keep all your
                credits. You can reactivate before then.
              </p>
              <div className="mt-4 flex flex-wrap gap-3">
                <button
                  type="button"
                  onClick={() => cancel.mutate()}
                  disabled={busy}
                  className={`${buttonClass('secondary', 'sm')} border-red-300 text-red-800 hover:border-red-400 hover:bg-red-50`}
                >
                  {cancel.isPending && <Spinner className="size-4" />}
                  {cancel.isPending ? 'Cancelling...' : 'Yes, Cancel Subscription'}
                </button>
                <button
                  type="button"
                  onClick={() => setConfirming(false)}
                  disabled={busy}
                  className={buttonClass('ghost', 'sm')}
                >
                  Keep Subscription
                </button>
              </div>
            </div>
          )}
        </>
      )}
    </section>
  );
}
