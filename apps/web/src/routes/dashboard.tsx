import type { ModelDeletion } from '@studioshot/contracts/deletion';
import { MESSAGES } from '@studioshot/contracts/messages';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Spinner } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import { signOut } from '../features/auth/session-actions';
import { useSession } from '../features/auth/session-store';
import { formatDate, formatDollars, planLabel, PLANS } from '../features/payments/catalogue';
import {
  generateEligibility,
  NEED_PLAN_STATE,
  NEED_UPGRADE_STATE,
  trainingEligibility,
} from '../features/payments/eligibility';
import { useProfile } from '../features/auth/use-profile';
import { useSubscription } from '../features/payments/hooks';
import { LowCreditBanner } from '../features/payments/LowCreditBanner';
import { SubscriptionManager } from '../features/payments/SubscriptionManager';
import { durationPhrase } from '../features/queue/durations';
import { QueuePanel } from '../features/queue/QueuePanel';
import { useWaitEstimate } from '../features/queue/use-durations';
import {
  useTrainingJobs,
  useTrainingStatusChanged,
  useUserModels,
} from '../features/training/hooks';
import { AlertIcon, CheckCircleIcon, SparkIcon } from '../components/icons';
import { DeleteModelDialog } from '../features/training/DeleteModelDialog';
import { forgetModel } from '../features/training/model-deletion';
import { TrainedModels } from '../features/training/TrainedModels';
import {
  dashboardBanner,
  mergeModels,
  type DashboardBanner,
  type ModelRow,
} from '../features/training/training-logic';
import { ContinueCard } from '../features/upload/ContinueCard';
import { useCurrentPhotoSet } from '../features/upload/current-set';
import { errorMessage } from '../lib/api-client';
import { toast } from '../lib/toast';
import { welcomeName } from '../lib/display-name';
import { queryClient } from '../lib/query-client';
import { authKeys } from '../features/auth/query-keys';
import { trainingKeys } from '../features/training/query-keys';

/** The dashboard refreshes the profile and models every 10 s (api spec, sections 7.2 and 9). */
const DASHBOARD_REFRESH_MS = 10_000;
/** Refresh 2 s after a training change (docs/spec/constants.md), on trainingStatusChanged. */
const TRAINING_CHANGE_REFRESH_MS = 2_000;
const MODELS_LOAD_FAILED = 'Failed to load your models. Please try again.';

function limitText(plan: string | null | undefined, limit: number): string {
  return plan === 'premium'
    ? 'Premium plan - Maximum models reached'
    : `Plan limit reached (${modelsMax(limit)})`;
}

function ErrorBanner({ messages, onRetry }: { messages: string[]; onRetry: () => void }) {
  if (messages.length === 0) return null;
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      <span>{messages.join(' ')}</span>
      <button type="button" className="font-medium underline underline-offset-4" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/**
 * The models banner (product spec): training active, or 'All models ready!'. How long a training
 * takes is the median of the engine's recent trainings (the spec's '15-30 minutes' when that is
 * what they took); nothing is promised while that is unknown.
 */
function ModelsBanner({ banner }: { banner: DashboardBanner }) {
  const estimate = useWaitEstimate('training', banner?.kind === 'training');
  if (!banner) return null;
  const typical = estimate.data ? durationPhrase('training', estimate.data.medianSeconds) : null;
  const look =
    banner.kind === 'training'
      ? {
          tone: 'border-accent-200 bg-accent-50',
          icon: <SparkIcon className="size-6 shrink-0 animate-pulse text-accent-700" />,
          title:
            banner.count === 1 ? 'Training in progress' : `${banner.count} models are training`,
          body: typical
            ? `Your AI model is training. This typically takes ${typical}; we will let you know when it is ready.`
            : 'Your AI model is training. We will let you know when it is ready.',
        }
      : banner.kind === 'failed'
        ? {
            tone: 'border-red-200 bg-red-50',
            icon: <AlertIcon className="size-6 shrink-0 text-red-700" />,
            title:
              banner.count === 1
                ? 'A model failed to train'
                : `${banner.count} models failed to train`,
            body: 'See the reason below, then try again with a new upload.',
          }
        : {
            tone: 'border-emerald-200 bg-emerald-50',
            icon: <CheckCircleIcon className="size-6 shrink-0 text-emerald-700" />,
            title: 'All models ready!',
            body: 'Generate professional headshots with any of your models.',
          };
  return (
    <section
      aria-label="Model status"
      className={`flex items-start gap-3 rounded-2xl border px-5 py-4 ${look.tone}`}
    >
      {look.icon}
      <div className="min-w-0">
        <h2 className="font-display text-lg font-semibold text-stone-950">{look.title}</h2>
        <p className="mt-0.5 text-sm text-stone-700">{look.body}</p>
      </div>
    </section>
  );
}

export function Component() {
  const { user } = useSession();
  const navigate = useNavigate();
  const profile = useProfile({ refetchInterval: DASHBOARD_REFRESH_MS });
  // The plan's trainings count per period: when they start again.
  const subscription = useSubscription();
  const resetsAt = subscription.data?.allowance_resets_at;
  const models = useUserModels({ refetchInterval: DASHBOARD_REFRESH_MS });
  const jobs = useTrainingJobs();
  const [bannerDismissed, setBannerDismissed] = useState(false);
  // The model whose Delete was pressed (the dialog asks first), and those being deleted.
  const [confirmingDelete, setConfirmingDelete] = useState<ModelRow | null>(null);
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(() => new Set());
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(() => new Set());
  const tooltipId = useId();

  // A training just finished: models_trained and the model list change on the server.
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(refreshTimer.current ?? undefined), []);
  useTrainingStatusChanged(
    useCallback(() => {
      clearTimeout(refreshTimer.current ?? undefined);
      refreshTimer.current = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: trainingKeys.userModels() });
        void queryClient.invalidateQueries({ queryKey: authKeys.profile() });
      }, TRAINING_CHANGE_REFRESH_MS);
    }, []),
  );

  const logout = async () => {
    // Start leaving first: the protection wrapper leaves a page that is navigating away alone.
    await navigate('/', { flushSync: true });
    signOut();
  };

  const account = profile.data ?? user;
  const trained = account?.models_trained ?? 0;
  const limit = account?.training_limit ?? 0;
  const credits = account?.credits_balance ?? 0;
  const hasCredits = credits > 0;
  // The stored user is the last profile the server sent: good enough until the fresh one arrives.
  const training = trainingEligibility(account);
  const atLimit = training.kind === 'limit';
  const limitTooltip = `Plan limit reached (${modelsMax(limit)}). Upgrade your plan to train more.`;

  // A deleted model stays out even if a read started before its deletion still lists it.
  const rows = mergeModels(models.data ?? [], jobs.data ?? []).filter(
    (row) => !deleted.has(row.id),
  );
  const modelsExist = rows.length > 0 || trained > 0;
  const currentSet = useCurrentPhotoSet();
  // A new account without a plan has one thing to do: choose a plan, which brings the training.
  const firstStep = account !== null && training.kind === 'pricing' && !modelsExist;
  const firstReady = rows.find((row) => row.status === 'completed');
  // What the page shows under its heading depends on every one of these answers (the stored user
  // may be days old): it appears once they are all in, in one go, and the loading line holds its
  // place until then, so nothing on screen moves when they arrive one by one on a busy device.
  const settled =
    !profile.isPending &&
    !models.isPending &&
    !jobs.isPending &&
    !currentSet.isPending &&
    !subscription.isPending;

  const train = () => {
    if (training.kind === 'upload') void navigate('/upload');
    // Product spec, training eligibility (dashboard): at the limit, plans with more trainings.
    else if (training.kind === 'limit') void navigate('/pricing', { state: NEED_UPGRADE_STATE });
    else void navigate('/pricing', { state: NEED_PLAN_STATE });
  };

  const generate = (modelId?: string) => {
    const target = generateEligibility(account, modelId);
    void navigate(target.to, { state: target.state });
  };
  // Generate Premium Headshots opens the premium page (/generate-trained) with the first ready
  // model; without credits it leads to /pricing like every generate action.
  const generatePremium = () => {
    const target = generateEligibility(account, firstReady?.id);
    void navigate(target.to === '/generate' ? '/generate-trained' : target.to, {
      state: target.state,
    });
  };

  const modelDeleted = (row: ModelRow, answer: ModelDeletion) => {
    setConfirmingDelete(null);
    if (answer.status === 'deleted') {
      setDeleted((ids) => new Set(ids).add(row.id));
      forgetModel(row.id);
    } else {
      // Its training is still stopping on its worker: the row says so until it is gone.
      setDeleting((ids) => new Set(ids).add(row.id));
    }
    toast.success(answer.message);
    void queryClient.invalidateQueries({ queryKey: trainingKeys.userModels() });
    void queryClient.invalidateQueries({ queryKey: authKeys.profile() });
  };

  const errors = [
    profile.isError && !profile.data ? MESSAGES.profileLoadFailed : null,
    models.isError && !models.data ? errorMessage(models.error, MODELS_LOAD_FAILED) : null,
  ].filter((message): message is string => message !== null);
  const retry = () => {
    if (profile.isError) void profile.refetch();
    if (models.isError) void models.refetch();
  };

  const stats = account
    ? [
        {
          label: 'Models Trained / Limit',
          value: `${trained} / ${limit}`,
          note:
            limit === 0
              ? 'Training comes with a plan'
              : `${
                  trained >= limit
                    ? 'Limit reached'
                    : `${Math.max(0, limit - trained)} ${limit - trained === 1 ? 'slot' : 'slots'} remaining`
                }${resetsAt ? ` · resets ${formatDate(resetsAt)}` : ''}`,
        },
        { label: 'Credits Available', value: String(credits) },
        { label: 'Current Plan', value: planLabel(account.plan_type) },
        {
          label: 'Total Generations',
          value: String(account.total_generations ?? 0),
          link: { to: '/gallery', text: 'View Gallery' },
        },
      ]
    : [];

  return (
    <section className="mx-auto min-h-svh max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
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
              <button
                type="button"
                onClick={train}
                className={buttonClass(currentSet.data ? 'secondary' : 'primary')}
              >
                + Train New Model
              </button>
            ) : training.kind === 'limit' ? (
              <div className="flex flex-wrap items-center gap-3">
                <span className="text-sm text-stone-600">
                  {limitText(account?.plan_type, limit)}
                </span>
                {account.plan_type !== 'premium' && (
                  <button
                    type="button"
                    onClick={train}
                    title={limitTooltip}
                    className={buttonClass('primary')}
                  >
                    Upgrade Plan to Train More
                  </button>
                )}
              </div>
            ) : null)}
          <Link to="/settings" className={buttonClass('ghost')}>
            Settings
          </Link>
          <button type="button" onClick={() => void logout()} className={buttonClass('secondary')}>
            Logout
          </button>
        </div>
      </div>

      {!settled ? null : currentSet.data ? (
        <ContinueCard set={currentSet.data} className="mt-8" />
      ) : firstStep ? (
        <FirstStep onChoosePlan={train} />
      ) : null}

      {/* A new account that has made nothing yet is not "out of credits": no alarm on day one. */}
      {/* One next step at a time: a set waiting to train comes before the credits. */}
      {settled && !bannerDismissed && account && !currentSet.data && hasUsedProduct(account) && (
        <LowCreditBanner
          credits={credits}
          onDismiss={() => setBannerDismissed(true)}
          className="mt-8"
        />
      )}

      {/* The loading line has a fixed height and holds the place of what comes once every answer
          is in (settled), so nothing already on screen moves when they arrive. */}
      <div className="mt-6 space-y-4 empty:hidden" aria-live="polite">
        {errors.length > 0 ? (
          <ErrorBanner messages={errors} onRetry={retry} />
        ) : !settled ? (
          <p className="flex h-6 items-center gap-2 text-sm text-stone-600">
            <Spinner className="size-4" /> Loading your dashboard...
          </p>
        ) : (
          <div className="h-6" aria-hidden="true" />
        )}
      </div>

      {settled && stats.length > 0 && (
        <dl className="mt-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          {stats.map((stat) => (
            <div key={stat.label} className={`${cardClass} flex min-w-0 flex-col p-4 sm:p-5`}>
              <dt className="order-2 mt-1 text-sm text-stone-600">{stat.label}</dt>
              <dd className="order-1 font-display text-lg font-semibold text-stone-950 sm:text-2xl">
                {stat.value}
              </dd>
              {'note' in stat && stat.note && (
                <dd className="order-3 mt-1 text-xs font-medium text-accent-700">{stat.note}</dd>
              )}
              {'link' in stat && stat.link && (
                <dd className="order-3 mt-1 text-xs">
                  <Link
                    to={stat.link.to}
                    className="font-medium text-accent-700 underline underline-offset-4 hover:text-accent-800"
                  >
                    {stat.link.text}
                  </Link>
                </dd>
              )}
            </div>
          ))}
        </dl>
      )}

      <div className="mt-6 empty:hidden" aria-live="polite">
        {settled && <ModelsBanner banner={dashboardBanner(rows)} />}
      </div>

      <div
        className={`mt-6 grid items-start gap-6 lg:grid-cols-[1.6fr_1fr] ${settled ? '' : 'hidden'}`}
      >
        <TrainedModels
          rows={rows}
          loading={models.isPending || jobs.isPending}
          hasCredits={hasCredits}
          onGenerate={generate}
          onTrainFirst={firstStep || currentSet.data ? undefined : train}
          onDelete={setConfirmingDelete}
          deleting={deleting}
          trainAction={
            atLimit && rows.length > 0 ? (
              <span title={limitTooltip} className="inline-flex">
                <button
                  type="button"
                  disabled
                  aria-describedby={tooltipId}
                  className={buttonClass('secondary', 'sm')}
                >
                  Train New Model
                </button>
                <span id={tooltipId} className="sr-only">
                  {limitTooltip}
                </span>
              </span>
            ) : undefined
          }
        />

        <section aria-labelledby="quick-actions-heading" className={`${cardClass} p-6`}>
          <h2
            id="quick-actions-heading"
            className="font-display text-xl font-semibold text-stone-950"
          >
            Quick Actions
          </h2>
          <div className="mt-4 flex flex-col gap-3">
            {!firstStep && (
              <button
                type="button"
                onClick={train}
                title={atLimit ? limitTooltip : undefined}
                className={`${buttonClass(training.kind === 'upload' && !currentSet.data ? 'primary' : 'secondary')} w-full`}
              >
                {training.kind === 'pricing'
                  ? 'Upgrade to Train AI Model'
                  : training.kind === 'limit'
                    ? 'Plan limit reached - upgrade for more models'
                    : 'Train New Model'}
              </button>
            )}
            {modelsExist && (
              <button
                type="button"
                onClick={generatePremium}
                className={`${buttonClass('secondary')} w-full flex-wrap ${hasCredits ? '' : 'opacity-60'}`}
              >
                Generate Premium Headshots
                {!hasCredits && (
                  <span className="text-xs font-normal text-stone-500">(0 credits remaining)</span>
                )}
              </button>
            )}
            <Link to="/generate" className={`${buttonClass('ghost')} w-full`}>
              Use Base AI Models
            </Link>
            <Link to="/gallery" className={`${buttonClass('ghost')} w-full`}>
              My Headshots
            </Link>
            <Link to="/credits" className={`${buttonClass('ghost')} w-full`}>
              Buy Credits
            </Link>
            <Link to="/billing" className={`${buttonClass('ghost')} w-full`}>
              Billing and Receipts
            </Link>
          </div>
        </section>
      </div>

      <DeleteModelDialog
        model={confirmingDelete}
        onClose={() => setConfirmingDelete(null)}
        onDeleted={modelDeleted}
        returnFocusTo={focusModelsHeading}
      />

      <div className={`mt-6 grid items-start gap-6 lg:grid-cols-2 ${settled ? '' : 'hidden'}`}>
        <SubscriptionManager />
        <QueuePanel />
      </div>
    </section>
  );
}

/** The first step of a new account without a plan: why a plan, and the one button to choose it. */
function FirstStep({ onChoosePlan }: { onChoosePlan: () => void }) {
  const cheapest = Math.min(...PLANS.map((plan) => plan.price_cents));
  return (
    <section
      aria-labelledby="first-step-title"
      className="mt-8 flex flex-wrap items-center justify-between gap-4 rounded-2xl border border-accent-200 bg-accent-50 px-5 py-4"
    >
      <div className="min-w-0">
        <h2 id="first-step-title" className="font-display text-lg font-semibold text-stone-950">
          Choose a plan to train your model
        </h2>
        <p className="mt-0.5 max-w-2xl text-sm text-stone-700">
          Your headshots come from a personal model trained on 10-20 photos of you. Training comes
          with a monthly plan, from {formatDollars(cheapest)} a month; then you upload your photos.
        </p>
      </div>
      <button type="button" onClick={onChoosePlan} className={buttonClass('primary')}>
        Choose a plan
      </button>
    </section>
  );
}

/** After a model is deleted, focus lands on the list it was in. */
function focusModelsHeading(): HTMLElement | null {
  return document.getElementById('models-heading');
}

/** Whether the account has done anything credits are for: trained, generated or bought. */
function hasUsedProduct(account: {
  models_trained?: number | null;
  total_generations?: number | null;
  credits_balance?: number | null;
  plan_type?: string | null;
}): boolean {
  return (
    (account.models_trained ?? 0) > 0 ||
    (account.total_generations ?? 0) > 0 ||
    (account.credits_balance ?? 0) > 0 ||
    (account.plan_type ?? 'free') !== 'free'
  );
}

/** 'N models max', in the singular for one. */
function modelsMax(limit: number): string {
  return `${limit} ${limit === 1 ? 'model' : 'models'} max`;
}
