import { MESSAGES } from '@studioshot/contracts';
import { useEffect, useId, useRef } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageState } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import { setAuthRedirect, useSession } from '../features/auth/session-store';
import { cycleFigures, monthsFreeText, perPeriod } from '../features/payments/billing-cycle';
import {
  COMING_SOON_CREDIT_PACKS,
  creditsWithHeadshots,
  formatDollars,
  isPlanType,
  planLabel,
  tierRank,
  type BillingCycle,
} from '../features/payments/catalogue';
import { storeSelectedPlan } from '../features/payments/client-storage';
import { readPricingState, type PricingNavigationState } from '../features/payments/eligibility';
import { useProfile } from '../features/auth/use-profile';
import { usePricing } from '../features/payments/hooks';
import { SolidCheckIcon } from '../components/icons';
import {
  BILLING_PARAM,
  readBillingCycle,
  trainingPaymentPath,
} from '../features/payments/payment-params';
import { plansOf, type PricingPlan, type PricingResponse } from '../features/payments/payments-api';

/** The sign-in address that comes back to `path`: '&' escaped, the rest as the spec writes it. */
function authPathFor(path: string): string {
  return `/auth?redirect=${path.replaceAll('&', '%26')}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Monthly or Annual: a pair of toggle buttons, the pressed one is the prices shown. */
function BillingToggle({
  cycle,
  onChange,
}: {
  cycle: BillingCycle;
  onChange: (cycle: BillingCycle) => void;
}) {
  const labelId = useId();
  const option = (value: BillingCycle, label: string, badge?: string) => {
    const on = cycle === value;
    return (
      <button
        type="button"
        aria-pressed={on}
        onClick={() => onChange(value)}
        className={`inline-flex min-h-11 items-center gap-2 rounded-full px-5 py-2 text-sm font-medium transition-colors ${
          on ? 'bg-stone-900 text-white' : 'text-stone-700 hover:bg-stone-100'
        }`}
      >
        {label}
        {badge && (
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
              on ? 'bg-white text-accent-800' : 'bg-accent-100 text-accent-800'
            }`}
          >
            {badge}
          </span>
        )}
      </button>
    );
  };
  return (
    <div role="group" aria-labelledby={labelId} className="flex flex-col items-center gap-2">
      <p id={labelId} className="text-sm font-medium text-stone-800">
        Billing period
      </p>
      <div className="inline-flex flex-wrap justify-center rounded-full border border-stone-300 bg-white p-1 shadow-sm">
        {option('monthly', 'Monthly')}
        {option('annual', 'Annual', capitalised(monthsFreeText()))}
      </div>
    </div>
  );
}

/** What a plan costs on the cycle shown: the month's price, or the year's with its month. */
function PlanPrice({ plan, cycle }: { plan: PricingPlan; cycle: BillingCycle }) {
  const figures = cycleFigures(plan.price, cycle);
  return (
    <>
      <p className="mt-5 flex items-baseline gap-1">
        <span className="font-display text-4xl font-semibold tracking-tight text-stone-950">
          {formatDollars(figures.periodCents)}
        </span>
        <span className="text-stone-500">{perPeriod(cycle)}</span>
      </p>
      {cycle === 'annual' && (
        <>
          <p className="mt-1 text-sm text-stone-600">
            {formatDollars(figures.perMonthCents)}/month billed yearly
          </p>
          <p className="mt-1 text-sm font-semibold text-stone-900">
            {capitalised(monthsFreeText())}: save {formatDollars(figures.savedCents)}
          </p>
        </>
      )}
    </>
  );
}

function PlanCard({
  plan,
  cycle,
  highlighted,
  actionLabel,
  onChoose,
}: {
  plan: PricingPlan;
  cycle: BillingCycle;
  highlighted: boolean;
  actionLabel: string;
  onChoose: () => void;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const card = ref.current;
    // Bring a preselected plan into view only when it starts out of sight (small screens).
    if (highlighted && card && card.getBoundingClientRect().top > window.innerHeight * 0.75) {
      card.scrollIntoView?.({ block: 'center' });
    }
  }, [highlighted]);
  const featured = highlighted || plan.popular;
  return (
    <article
      ref={ref}
      aria-labelledby={`plan-${plan.id}`}
      aria-current={highlighted ? 'true' : undefined}
      className={`${cardClass} relative flex w-full max-w-sm min-w-0 flex-1 basis-72 flex-col p-6 sm:p-7 ${
        highlighted
          ? 'ring-2 ring-accent-600'
          : plan.popular
            ? 'border-accent-300 ring-1 ring-accent-200'
            : ''
      }`}
    >
      <div
        className={`${plan.popular || highlighted ? 'flex' : 'hidden sm:flex'} min-h-7 flex-wrap items-center gap-2`}
      >
        {plan.popular && (
          <span className="rounded-full bg-accent-600 px-3 py-1 text-xs font-semibold tracking-wide text-white">
            Most Popular
          </span>
        )}
        {highlighted && (
          <span className="rounded-full bg-stone-900 px-3 py-1 text-xs font-semibold tracking-wide text-white">
            Selected
          </span>
        )}
      </div>
      <h2
        id={`plan-${plan.id}`}
        className="mt-3 font-display text-2xl font-semibold text-stone-950"
      >
        {plan.name}
      </h2>
      <p className="mt-2 min-h-12 text-sm text-stone-600">{plan.description}</p>
      <PlanPrice plan={plan} cycle={cycle} />
      <p className="mt-1 text-sm font-medium text-accent-700">
        {creditsWithHeadshots(plan.credits)} a month
      </p>
      <ul className="mt-6 flex-1 space-y-2.5 text-sm text-stone-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2.5">
            <SolidCheckIcon className="mt-0.5 size-4 shrink-0 text-accent-600" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={onChoose}
        className={`${buttonClass(featured ? 'primary' : 'secondary', 'lg')} mt-7 w-full`}
        aria-describedby={`plan-${plan.id}`}
      >
        {actionLabel}
      </button>
    </article>
  );
}

function NeedBanner({
  state,
  packs,
}: {
  state: PricingNavigationState;
  packs: PricingResponse['credit_packs'];
}) {
  if (state.reason === 'upgrade' || state.reason === 'plan') {
    return (
      <section
        aria-labelledby="need-heading"
        className="mx-auto mt-8 max-w-3xl rounded-2xl border border-accent-200 bg-accent-50 px-5 py-4 text-center"
      >
        <h2 id="need-heading" className="font-display text-lg font-semibold text-accent-800">
          {state.reason === 'plan' ? 'Choose a plan to train your model' : 'Upgrade to Train More'}
        </h2>
        <p className="mt-1 text-stone-700">{state.message}</p>
      </section>
    );
  }
  return (
    <section
      aria-labelledby="need-heading"
      className="mx-auto mt-8 max-w-4xl rounded-2xl border border-accent-200 bg-accent-50 p-5 sm:p-6"
    >
      <div className="text-center">
        <h2 id="need-heading" className="font-display text-xl font-semibold text-accent-800">
          Need Credits
        </h2>
        <p className="mt-1 text-stone-700">{state.message}</p>
      </div>
      <ul className="mt-5 grid gap-3 sm:grid-cols-3">
        {packs.map((pack) => (
          <li
            key={pack.id}
            className="flex flex-col items-center rounded-xl border border-stone-200 bg-white p-4 text-center"
          >
            <span className="rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-semibold text-stone-600">
              Coming Soon
            </span>
            <p className="mt-2 font-medium text-stone-900">{pack.name}</p>
            <p className="font-display text-2xl font-semibold text-stone-950">
              {formatDollars(pack.price_cents)}
            </p>
            <p className="text-xs text-stone-500">{pack.credits} credits</p>
            <button
              type="button"
              disabled
              className={`${buttonClass('secondary', 'sm')} mt-3 w-full`}
            >
              Coming Soon
            </button>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-center text-sm text-stone-700">
        Credit packages are available now.{' '}
        <Link to="/credits" className="font-medium text-accent-700 underline underline-offset-4">
          Buy credit packages
        </Link>
      </p>
    </section>
  );
}

export function Component() {
  const { status, user } = useSession();
  const signedIn = status === 'authenticated';
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const pricing = usePricing();
  // The tier decides which plans are offered: keep it fresh for signed-in visitors.
  const profile = useProfile({ enabled: signedIn });

  const requested = params.get('plan');
  const needState = readPricingState(location.state);
  const account = profile.data ?? user;
  const rawPlan = account?.plan_type;
  const currentPlan = signedIn ? (isPlanType(rawPlan) ? rawPlan : 'free') : null;
  const paid = currentPlan !== null && currentPlan !== 'free';
  // An upgrade keeps the subscriber's billing cycle (the server prices it so): show that one.
  const subscribedCycle: BillingCycle =
    account?.subscription_interval === 'annual' ? 'annual' : 'monthly';
  const cycle: BillingCycle = paid ? subscribedCycle : (readBillingCycle(params) ?? 'monthly');
  const chooseCycle = (next: BillingCycle) =>
    setParams(
      (current) => {
        const query = new URLSearchParams(current);
        if (next === 'annual') query.set(BILLING_PARAM, next);
        else query.delete(BILLING_PARAM);
        return query;
      },
      { replace: true, preventScrollReset: true },
    );

  const plans = pricing.data
    ? plansOf(pricing.data)
        .filter(
          (plan) =>
            currentPlan === null ||
            !isPlanType(plan.id) ||
            tierRank(plan.id) > tierRank(currentPlan),
        )
        .sort((a, b) => a.price - b.price)
    : [];

  const choose = (plan: PricingPlan) => {
    storeSelectedPlan({
      planId: plan.id,
      type: 'subscription',
      planName: plan.name,
      price: plan.price,
      credits: plan.credits,
    });
    if (paid) {
      // A subscriber moves up by the upgrade call, prorated for the rest of the period.
      void navigate(`/payment?type=upgrade&from=${encodeURIComponent(currentPlan)}`);
      return;
    }
    const paymentPath = trainingPaymentPath(cycle);
    if (signedIn) {
      void navigate(paymentPath);
      return;
    }
    setAuthRedirect(paymentPath);
    void navigate(authPathFor(paymentPath));
  };

  return (
    <section className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <title>Pricing · Studioshot</title>
      <header className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">Pricing</p>
        <h1 className="mt-3 font-display text-4xl font-semibold tracking-tight text-stone-950 sm:text-5xl">
          {paid ? 'Upgrade your plan' : 'Choose your plan'}
        </h1>
        <p className="mt-4 text-lg text-stone-600">
          {paid
            ? `You are on the ${planLabel(currentPlan)} plan. Move up for more personal models and more headshots every month: today you pay only the difference for the rest of your billing period.`
            : 'Train your personal AI model and get fresh credits every month. Cancel any time, with a 30-day money-back guarantee.'}
        </p>
      </header>

      {needState && (
        <NeedBanner
          state={needState}
          packs={
            pricing.data?.credit_packs ??
            COMING_SOON_CREDIT_PACKS.map((pack) => ({ ...pack, for_sale: false }))
          }
        />
      )}

      {/* Shown while the plans load too, so their arrival moves nothing below it. */}
      {!paid && !pricing.isError && !(pricing.data && plans.length === 0) && (
        <div className="mt-10">
          <BillingToggle cycle={cycle} onChange={chooseCycle} />
        </div>
      )}
      {paid && cycle === 'annual' && (
        <p className="mt-6 text-center text-sm text-stone-600">
          Your plan is billed yearly: upgrades are priced per year, and credits still come every
          month.
        </p>
      )}

      <div className="mt-10" aria-live="polite">
        {pricing.isPending ? (
          <PageState title="Loading plans..." message="Fetching the latest prices." busy />
        ) : pricing.isError ? (
          <PageState title="Pricing unavailable" message={MESSAGES.pricingLoadFailed} tone="error">
            <button
              type="button"
              onClick={() => window.location.reload()}
              className={buttonClass('primary')}
            >
              Try Again
            </button>
          </PageState>
        ) : plans.length === 0 ? (
          signedIn ? (
            <PageState
              title="You're on the highest plan!"
              message={`${planLabel(currentPlan)} already includes the most models and credits we offer.`}
            >
              <Link to="/dashboard" className={buttonClass('primary')}>
                Go to Dashboard
              </Link>
              <Link to="/credits" className={buttonClass('secondary')}>
                Buy Credits
              </Link>
            </PageState>
          ) : (
            <PageState
              title="No Plans Available"
              message="There are no plans to choose from right now. Please check back soon."
            />
          )
        ) : (
          <div className="flex flex-wrap items-stretch justify-center gap-6">
            {plans.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                cycle={cycle}
                highlighted={plan.id === requested}
                actionLabel={
                  paid
                    ? `Upgrade to ${plan.name}`
                    : cycle === 'annual'
                      ? 'Subscribe Annually'
                      : 'Subscribe Monthly'
                }
                onChoose={() => choose(plan)}
              />
            ))}
          </div>
        )}
      </div>

      <div className="mx-auto mt-12 grid max-w-4xl gap-4 text-center text-sm text-stone-600 sm:grid-cols-3">
        <p>
          <span className="block font-medium text-stone-900">Cancel any time</span>
          Keep your plan until the end of the {cycle === 'annual' ? 'year' : 'month'} you paid for.
        </p>
        <p>
          <span className="block font-medium text-stone-900">Credits never expire</span>
          Unused credits stay in your account.
        </p>
        <p>
          <span className="block font-medium text-stone-900">30-day money-back guarantee</span>
          Not happy with your headshots? Get your money back.
        </p>
      </div>
      {signedIn && (
        <p className="mt-8 text-center text-sm text-stone-600">
          Just need more headshots?{' '}
          <Link to="/credits" className="font-medium text-accent-700 underline underline-offset-4">
            Buy credit packages
          </Link>
        </p>
      )}
    </section>
  );
}
