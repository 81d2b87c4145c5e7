import { MESSAGES } from '@studioshot/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/PageState';
import { buttonClass, cardClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { findPlan, formatDate, formatDollars, planLabel, PLANS } from './catalogue';
import { PROFILE_QUERY_KEY, SUBSCRIPTION_QUERY_KEY, useSubscription } from './hooks';
import { cancelSubscription, reactivateSubscription } from './payments-api';

type CancelAnswer = Awaited<ReturnType<typeof cancelSubscription>>;

const LOWEST_PLAN_CENTS = Math.min(...PLANS.map((plan) => plan.price_cents));

const STATUS_BADGES = {
  active: { label: 'Active', className: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  cancelling: { label: 'Cancelling', className: 'bg-accent-50 text-accent-800 ring-accent-200' },
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

/**
 * Subscription manager (product spec, dashboard and Subscription): active, cancelling (access
 * until the period end, Reactivate) or free (a way to /pricing). Cancelling asks first.
 */
export function SubscriptionManager({ className = '' }: { className?: string }) {
  const subscription = useSubscription();
  const [confirming, setConfirming] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  // The cancel answer: its message, the end of access and the credits kept.
  const [cancelled, setCancelled] = useState<CancelAnswer | null>(null);

  const afterChange = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
    ]);

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

  return (
    <section
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
          <p className="mt-3 text-stone-700">
            You are on the <span className="font-medium">Free</span> plan. Subscribe to train your
            own AI model and get headshot credits every month.
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
                {formatDollars(plan.price_cents)}/
                {data.billing_cycle === 'annual' ? 'year' : 'month'}
              </span>
            )}
          </p>
          <dl className="mt-4 grid gap-4 sm:grid-cols-3">
            <Detail
              label="Billing"
              value={data.billing_cycle === 'annual' ? 'Annual' : 'Monthly'}
            />
            <Detail
              label={data.status === 'cancelling' ? 'Access until' : 'Next billing date'}
              value={formatDate(data.next_billing_date) || 'Not scheduled'}
            />
            <Detail
              label="Model trainings"
              value={`${data.features.training_jobs} ${data.features.training_jobs === 1 ? 'model' : 'models'}`}
            />
          </dl>

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
