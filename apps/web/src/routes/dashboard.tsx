import { MESSAGES } from '@studioshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { Spinner } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import { fetchProfile } from '../features/auth/auth-api';
import { signOut } from '../features/auth/session-actions';
import { replaceUser, useSession } from '../features/auth/session-store';
import { welcomeName } from '../lib/display-name';

/** The dashboard refreshes the profile every 10 s (api spec, section 7.2). */
const PROFILE_REFRESH_MS = 10_000;

const PLAN_NAMES: Record<string, string> = {
  free: 'Free',
  starter: 'Starter',
  professional: 'Professional',
  premium: 'Premium',
};

export function Component() {
  const { user } = useSession();
  const navigate = useNavigate();
  const profile = useQuery({
    queryKey: ['profile'],
    queryFn: fetchProfile,
    refetchInterval: PROFILE_REFRESH_MS,
  });

  useEffect(() => {
    if (profile.data) replaceUser(profile.data);
  }, [profile.data]);

  const logout = async () => {
    // Start leaving first: the protection wrapper leaves a page that is navigating away alone.
    await navigate('/', { flushSync: true });
    signOut();
  };

  const account = profile.data ?? user;
  const stats = account
    ? [
        { label: 'Current plan', value: PLAN_NAMES[account.plan_type ?? 'free'] ?? 'Free' },
        { label: 'Credits available', value: String(account.credits_balance ?? 0) },
        {
          label: 'Models trained',
          value: `${account.models_trained ?? 0} / ${account.training_limit ?? 0}`,
        },
      ]
    : [];

  return (
    <section className="mx-auto max-w-4xl px-4 py-12 sm:px-6 sm:py-16">
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
        <button type="button" onClick={() => void logout()} className={buttonClass('secondary')}>
          Logout
        </button>
      </div>

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
        <dl className="mt-4 grid gap-4 sm:grid-cols-3">
          {stats.map((stat) => (
            <div key={stat.label} className={`${cardClass} flex flex-col-reverse p-5`}>
              <dt className="mt-1 text-sm text-stone-600">{stat.label}</dt>
              <dd className="font-display text-2xl font-semibold text-stone-950">{stat.value}</dd>
            </div>
          ))}
        </dl>
      )}

      <div className={`${cardClass} mt-6 p-6 sm:p-8`}>
        <p className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase">
          Coming soon
        </p>
        <h2 className="mt-2 font-display text-2xl font-semibold text-stone-950">
          Your models and headshots
        </h2>
        <p className="mt-3 text-stone-700">This screen arrives in a coming release.</p>
        <p className="mt-2 text-sm text-stone-500">
          Trained models, quick actions and generation history will live here.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to="/" className={buttonClass('secondary')}>
            Back to home
          </Link>
        </div>
      </div>
    </section>
  );
}
