import { MESSAGES } from '@studioshot/contracts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Spinner } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import { signOut } from '../features/auth/session-actions';
import { useSession } from '../features/auth/session-store';
import { planLabel } from '../features/payments/catalogue';
import { generateEligibility, trainingEligibility } from '../features/payments/eligibility';
import { useProfile } from '../features/payments/hooks';
import { LowCreditBanner } from '../features/payments/LowCreditBanner';
import { SubscriptionManager } from '../features/payments/SubscriptionManager';
import { TrainingLimitModal } from '../features/payments/TrainingLimitModal';
import { welcomeName } from '../lib/display-name';

/** The dashboard refreshes the profile every 10 s (api spec, section 7.2). */
const PROFILE_REFRESH_MS = 10_000;

function limitText(plan: string | null | undefined, limit: number): string {
  return plan === 'premium'
    ? 'Premium plan - Maximum models reached'
    : `Plan limit reached (${limit} models max)`;
}

export function Component() {
  const { user } = useSession();
  const navigate = useNavigate();
  const profile = useProfile({ refetchInterval: PROFILE_REFRESH_MS });
  const [bannerDismissed, setBannerDismissed] = useState(false);
  const [limitModalOpen, setLimitModalOpen] = useState(false);

  const logout = async () => {
    // Start leaving first: the protection wrapper leaves a page that is navigating away alone.
    await navigate('/', { flushSync: true });
    signOut();
  };

  const account = profile.data ?? user;
  const trained = account?.models_trained ?? 0;
  const limit = account?.training_limit ?? 0;
  const credits = account?.credits_balance ?? 0;
  // The stored user is the last profile the server sent: good enough until the fresh one arrives.
  const training = trainingEligibility(account);
  const limitTooltip = `Plan limit reached (${limit} models max). Upgrade your plan to train more.`;

  const train = () => {
    if (training.kind === 'upload') void navigate('/upload');
    else if (training.kind === 'limit') setLimitModalOpen(true);
    else void navigate('/pricing');
  };

  const generate = () => {
    const target = generateEligibility(account);
    void navigate(target.to, { state: target.state });
  };

  const stats = account
    ? [
        {
          label: 'Models Trained / Limit',
          value: `${trained} / ${limit}`,
          note:
            limit > 0 && trained >= limit
              ? 'Limit reached'
              : `${Math.max(0, limit - trained)} ${limit - trained === 1 ? 'slot' : 'slots'} remaining`,
        },
        { label: 'Credits Available', value: String(credits) },
        { label: 'Current Plan', value: planLabel(account.plan_type) },
        { label: 'Total Generations', value: String(account.total_generations ?? 0) },
      ]
    : [];

  return (
    <section className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <title>Dashboard · Studioshot</title>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
            Dashboard
          </p>
          <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight break-words text-stone-950 sm:text-4xl">
            Welcome, {welcomeName(account)}
          </h1>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {account &&
            (training.kind === 'upload' ? (
              <button type="button" onClick={train} className={buttonClass('primary')}>
                + Train New Model
              </button>
            ) : training.kind === 'limit' ? (
              <div className="flex flex-wrap items-center gap-3">
                <span className="text-sm text-stone-600">
                  {limitText(account?.plan_type, limit)}
                </span>
                <button
                  type="button"
                  onClick={train}
                  title={limitTooltip}
                  className={buttonClass('primary')}
                >
                  Upgrade Plan to Train More
                </button>
              </div>
            ) : null)}
          <button type="button" onClick={() => void logout()} className={buttonClass('secondary')}>
            Logout
          </button>
        </div>
      </div>

      {!bannerDismissed && account && (
        <LowCreditBanner
          credits={credits}
          onDismiss={() => setBannerDismissed(true)}
          className="mt-8"
        />
      )}

      <div className="mt-8" aria-live="polite">
        {profile.isError && !profile.data ? (
          <div
            role="alert"
            className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
          >
            <span>{MESSAGES.profileLoadFailed}</span>
            <button
              type="button"
              className="font-medium underline underline-offset-4"
              onClick={() => void profile.refetch()}
            >
              Retry
            </button>
          </div>
        ) : profile.isPending ? (
          <p className="flex items-center gap-2 text-sm text-stone-600">
            <Spinner className="size-4" /> Loading your dashboard...
          </p>
        ) : null}
      </div>

      {stats.length > 0 && (
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          {stats.map((stat) => (
            <div key={stat.label} className={`${cardClass} flex min-w-0 flex-col p-4 sm:p-5`}>
              <dt className="order-2 mt-1 text-sm text-stone-600">{stat.label}</dt>
              <dd className="order-1 font-display text-xl font-semibold break-words text-stone-950 sm:text-2xl">
                {stat.value}
              </dd>
              {stat.note && (
                <dd className="order-3 mt-1 text-xs font-medium text-accent-700">{stat.note}</dd>
              )}
            </div>
          ))}
        </dl>
      )}

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[1.4fr_1fr]">
        <SubscriptionManager />

        <section aria-labelledby="quick-actions-heading" className={`${cardClass} p-6`}>
          <h2
            id="quick-actions-heading"
            className="font-display text-xl font-semibold text-stone-950"
          >
            Quick Actions
          </h2>
          <div className="mt-4 flex flex-col gap-3">
            <button
              type="button"
              onClick={train}
              title={training.kind === 'limit' ? limitTooltip : undefined}
              className={`${buttonClass(training.kind === 'upload' ? 'primary' : 'secondary')} w-full`}
            >
              {training.kind === 'pricing'
                ? 'Upgrade to Train AI Model'
                : training.kind === 'limit'
                  ? 'Plan limit reached - upgrade for more models'
                  : 'Train New Model'}
            </button>
            {trained > 0 && (
              <button
                type="button"
                onClick={generate}
                className={`${buttonClass('secondary')} w-full ${credits <= 0 ? 'opacity-60' : ''}`}
              >
                Generate Premium Headshots
                {credits <= 0 && (
                  <span className="text-xs font-normal text-stone-500">(0 credits remaining)</span>
                )}
              </button>
            )}
            <Link to="/generate" className={`${buttonClass('ghost')} w-full`}>
              Use Base AI Models
            </Link>
            <Link to="/credits" className={`${buttonClass('ghost')} w-full`}>
              Buy Credits
            </Link>
          </div>
        </section>
      </div>

      <div className={`${cardClass} mt-6 p-6 sm:p-8`}>
        <p className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase">
          Coming soon
        </p>
        <h2 className="mt-2 font-display text-2xl font-semibold text-stone-950">
          Your models and headshots
        </h2>
        <p className="mt-3 text-stone-700">
          This part of the dashboard arrives in a coming release.
        </p>
        <p className="mt-2 text-sm text-stone-500">
          Your trained models, their training status, the GPU queue and cost panel, and your
          generation history will live here.
        </p>
      </div>

      <TrainingLimitModal
        open={limitModalOpen}
        onClose={() => setLimitModalOpen(false)}
        currentPlan={account?.plan_type}
        trainingLimit={limit}
        modelsTrained={trained}
      />
    </section>
  );
}
