import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES } from '@studioshot/contracts/messages';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageState, Spinner } from '../components/PageState';
import { TextField } from '../components/TextField';
import { buttonClass, cardClass } from '../components/ui';
import { setAuthRedirect, useSession } from '../features/auth/session-store';
import { NEED_UPGRADE_STATE, trainingEligibility } from '../features/payments/eligibility';
import { useProfile } from '../features/auth/use-profile';
import { TrainingLimitModal } from '../features/payments/TrainingLimitModal';
import { useConnectionState, useTrainingJobs } from '../features/training/hooks';
import { CheckCircleIcon } from '../components/icons';
import { OutcomePanel } from '../components/OutcomePanel';
import { ZModelNameFormSchema, type ModelNameForm } from '../features/training/model-name-schema';
import { startProblem, type StartProblem } from '../features/training/start-problem';
import { startTraining, type TrainingJob } from '../features/training/training-api';
import { applyJobUpdate } from '../features/training/training-cache';
import {
  defaultModelName,
  displayName,
  isActiveStatus,
  MODEL_NAME_MAX,
  STARTED_REDIRECT_MS,
} from '../features/training/training-logic';
import { TrainingLiveView, TrainingPage } from '../features/training/TrainingLiveView';
import { TrainingProgressCard } from '../features/training/TrainingProgressCard';
import { refreshUploadSession, useUploadSession } from '../features/upload/use-upload-session';
import { ContinueCard } from '../features/upload/ContinueCard';
import { useCurrentPhotoSet } from '../features/upload/current-set';
import { uploadKeys } from '../features/upload/query-keys';
import { durationPhrase, expectedSeconds } from '../features/queue/durations';
import { useWaitEstimate } from '../features/queue/use-durations';
import { ApiError, errorMessage } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { authKeys } from '../features/auth/query-keys';
import { trainingKeys } from '../features/training/query-keys';

/** The session id from ?session= or from the navigation state /upload sends. */
function sessionFrom(search: URLSearchParams, state: unknown): string | null {
  const fromQuery = search.get('session')?.trim();
  if (fromQuery) return fromQuery;
  if (typeof state === 'object' && state !== null) {
    const fromState = (state as { sessionId?: unknown }).sessionId;
    if (typeof fromState === 'string' && fromState.trim()) return fromState.trim();
  }
  return null;
}

function Panel({
  title,
  tone = 'neutral',
  children,
  actions,
}: {
  title: string;
  tone?: 'neutral' | 'warning' | 'error';
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const tones = {
    neutral: 'border-stone-200 bg-white',
    warning: 'border-amber-200 bg-amber-50/70',
    error: 'border-red-200 bg-red-50',
  } as const;
  return (
    <section
      role={tone === 'error' ? 'alert' : 'status'}
      aria-label={title}
      className={`rounded-2xl border p-6 shadow-sm sm:p-8 ${tones[tone]}`}
    >
      <h2 className="font-display text-xl font-semibold text-stone-950">{title}</h2>
      {children && <div className="mt-2 text-stone-700">{children}</div>}
      {actions && <div className="mt-5 flex flex-col gap-3 sm:flex-row">{actions}</div>}
    </section>
  );
}

/** No trainings on the plan: choose one first. */
function PlanPanel() {
  return (
    <Panel
      title="Choose a plan to train"
      tone="warning"
      actions={
        <Link to="/pricing" className={buttonClass('primary')}>
          View Plans
        </Link>
      }
    >
      {MESSAGES.planRequired}
    </Panel>
  );
}

/** Limit reached: the spec's message, the upgrade path and extra trainings. */
function LimitPanel({
  plan,
  limit,
  trained,
}: {
  plan: string | null | undefined;
  limit: number;
  trained: number;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Panel
        title={MESSAGES.trainingLimit}
        tone="warning"
        actions={
          <>
            {plan !== 'premium' && (
              <Link to="/pricing" state={NEED_UPGRADE_STATE} className={buttonClass('primary')}>
                Upgrade Plan
              </Link>
            )}
            <button
              type="button"
              onClick={() => setOpen(true)}
              className={buttonClass(plan === 'premium' ? 'primary' : 'secondary')}
            >
              Buy More Trainings
            </button>
            <Link to="/dashboard" className={buttonClass('ghost')}>
              Go to Dashboard
            </Link>
          </>
        }
      >
        You have trained {trained} of {limit} {limit === 1 ? 'model' : 'models'} on your plan. Your
        photos stay uploaded: add a training or upgrade, then start this one.
      </Panel>
      <TrainingLimitModal
        open={open}
        onClose={() => setOpen(false)}
        currentPlan={plan}
        trainingLimit={limit}
        modelsTrained={trained}
      />
    </>
  );
}

/**
 * How long a training started now should take: the queue's wait plus the median of the engine's
 * recent trainings, in the spec's words when they are true ('about 2 hours', '15-30 minutes'...);
 * null when that is not known.
 */
function useTrainingExpectation(): string | null {
  const estimate = useWaitEstimate('training');
  // undefined: still loading, or the call failed; null: no training timed yet on this engine.
  if (estimate.data === undefined) return null;
  if (estimate.data === null) return UNTIMED_TRAINING;
  if (estimate.data.waitSeconds === null) {
    return 'No training worker is connected right now: your training waits in the queue until one is.';
  }
  const phrase = durationPhrase('training', expectedSeconds(estimate.data));
  if (!phrase) return UNTIMED_TRAINING;
  return `Training should take ${phrase}, going by the queue right now and our recent trainings.`;
}

/** What the page says instead of a figure while no training has been timed. */
export const UNTIMED_TRAINING =
  'We have not timed a training on this engine yet, so we cannot say how long yours will take.';

/** After a successful start: the started state, then the dashboard after 3 s. */
function StartedPanel({ job }: { job: TrainingJob }) {
  const navigate = useNavigate();
  const expectation = useTrainingExpectation();
  useEffect(() => {
    const timer = setTimeout(() => void navigate('/dashboard'), STARTED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <OutcomePanel
      tone="success"
      role="status"
      titleId="training-started-title"
      title="Training started"
      icon={<CheckCircleIcon className="size-6" />}
      actions={
        <>
          <Link to="/dashboard" className={buttonClass('primary')}>
            Go to Dashboard
          </Link>
          <Link to={`/training/${job.id}`} className={buttonClass('secondary')}>
            Watch live progress
          </Link>
        </>
      }
    >
      <p className="mt-1 break-words text-stone-700">
        <span className="font-medium">{displayName(job)}</span> is in the queue
        {job.training_photos > 0 ? ` with ${job.training_photos} photos` : ''}.
      </p>
      <p className="mt-3 text-stone-700">
        {expectation ? `${expectation} ` : ''}We will let you know when your model is ready.
      </p>
      <p className="mt-2 text-sm text-stone-600">Training cannot be stopped once started.</p>
      <p className="mt-4 flex items-center gap-2 text-sm text-stone-500">
        <Spinner className="size-4" /> Taking you to your dashboard...
      </p>
    </OutcomePanel>
  );
}

function StartForm({
  sessionId,
  photos,
  onStarted,
  onAlreadyStarted,
}: {
  sessionId: string;
  photos: number;
  onStarted: (job: TrainingJob) => void;
  onAlreadyStarted: () => void;
}) {
  const { user } = useSession();
  const navigate = useNavigate();
  const expectation = useTrainingExpectation();
  const [problem, setProblem] = useState<StartProblem | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ModelNameForm>({
    resolver: zodResolver(ZModelNameFormSchema),
    defaultValues: { model_name: defaultModelName(user) },
  });

  const start = useMutation({
    mutationFn: (values: ModelNameForm) =>
      startTraining({ model_name: values.model_name, session_id: sessionId, user_id: user?.id }),
    onMutate: () => setProblem(null),
    onSuccess: ({ job }) => {
      applyJobUpdate(job);
      void queryClient.invalidateQueries({ queryKey: authKeys.profile() });
      void queryClient.invalidateQueries({ queryKey: trainingKeys.userModels() });
      void queryClient.invalidateQueries({ queryKey: uploadKeys.currentSet() });
      // The session now names its training.
      refreshUploadSession(sessionId);
      onStarted(job);
    },
    onError: (error) => {
      const next = startProblem(error);
      // Someone (another tab) already started this set: show that training instead.
      if (error instanceof ApiError && error.detail === MESSAGES.sessionAlreadyTrained) {
        onAlreadyStarted();
      }
      if (next.kind === 'limit')
        void queryClient.invalidateQueries({ queryKey: authKeys.profile() });
      setProblem(next);
    },
  });

  const signInAgain = () => {
    setAuthRedirect(`/training/start?session=${encodeURIComponent(sessionId)}`);
    void navigate('/auth');
  };

  if (problem?.kind === 'plan') return <PlanPanel />;
  if (problem?.kind === 'limit') {
    return (
      <LimitPanel
        plan={user?.plan_type}
        limit={user?.training_limit ?? 0}
        trained={user?.models_trained ?? 0}
      />
    );
  }

  return (
    <section aria-labelledby="start-form-title" className={`${cardClass} p-6 sm:p-8`}>
      <h2 id="start-form-title" className="font-display text-2xl font-semibold text-stone-950">
        Name your model
      </h2>
      <p className="mt-1 text-stone-600">
        {photos > 0
          ? `${photos} ${photos === 1 ? 'photo is' : 'photos are'} ready for training.`
          : 'Your photos are ready for training.'}{' '}
        The name is how you will find this model on your dashboard.
      </p>
      <form
        noValidate
        aria-label="Start training"
        className="mt-6 space-y-5"
        onSubmit={handleSubmit((values) => start.mutate(values))}
      >
        <TextField
          label="Model name"
          autoComplete="off"
          maxLength={MODEL_NAME_MAX}
          error={errors.model_name?.message}
          hint="For example your name, or what the headshots are for."
          {...register('model_name')}
        />

        <ul className="space-y-2 rounded-xl bg-stone-50 px-4 py-3 text-sm text-stone-700">
          <li>
            {expectation
              ? `${expectation} You can follow it live.`
              : 'You can follow your training live.'}
          </li>
          <li>Training cannot be stopped once started.</li>
        </ul>

        {problem?.kind === 'auth' && (
          <div
            role="alert"
            className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
          >
            <span>Authentication error. Please log in again.</span>
            <button
              type="button"
              onClick={signInAgain}
              className="font-medium underline underline-offset-4"
            >
              Log In
            </button>
          </div>
        )}
        {problem?.kind === 'session' && (
          <div
            role="alert"
            className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
          >
            <span>{problem.message}</span>
            <Link to="/upload" className="font-medium underline underline-offset-4">
              Upload Photos
            </Link>
          </div>
        )}
        {problem?.kind === 'other' && (
          <p
            role="alert"
            className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
          >
            {problem.message}
          </p>
        )}

        <div className="flex flex-col gap-3 sm:flex-row">
          <button type="submit" disabled={start.isPending} className={buttonClass('primary', 'lg')}>
            {start.isPending && <Spinner className="size-4" />}
            {start.isPending ? 'Starting...' : 'Start Training'}
          </button>
          <Link to="/dashboard" className={buttonClass('ghost', 'lg')}>
            Go to Dashboard
          </Link>
        </div>
      </form>
    </section>
  );
}

/** /training/start with an upload session: its training if it has one, else the name form. */
function StartForSession({ sessionId }: { sessionId: string }) {
  const { user } = useSession();
  const profile = useProfile();
  const [started, setStarted] = useState<TrainingJob | null>(null);
  const session = useUploadSession(sessionId);

  if (started) {
    return (
      <TrainingPage title="Start Training">
        <StartedPanel job={started} />
      </TrainingPage>
    );
  }

  const jobId = session.data?.training_id;
  if (jobId) return <TrainingLiveView id={jobId} />;

  if (session.isPending) {
    return <PageState title="Checking your upload session..." message="One moment" busy />;
  }
  if (session.isError) {
    const missing = session.error instanceof ApiError && session.error.status === 404;
    return (
      <PageState
        title={missing ? MESSAGES.sessionNotFound : 'Failed to check upload session'}
        message={
          missing
            ? 'This upload session does not exist or belongs to another account. Upload your photos to start a new one.'
            : errorMessage(session.error, MESSAGES.network)
        }
        tone="error"
      >
        {missing ? (
          <Link to="/upload" className={buttonClass('primary')}>
            Upload Photos
          </Link>
        ) : (
          <button
            type="button"
            onClick={() => void session.refetch()}
            className={buttonClass('primary')}
          >
            Try Again
          </button>
        )}
        <Link to="/dashboard" className={buttonClass('secondary')}>
          Go to Dashboard
        </Link>
      </PageState>
    );
  }

  const account = profile.data ?? user;
  const eligibility = trainingEligibility(account);
  let body: ReactNode;
  if (session.data.status === 'expired') {
    body = (
      <Panel
        title="Upload session expired"
        tone="warning"
        actions={
          <Link to="/upload" className={buttonClass('primary')}>
            Upload Photos
          </Link>
        }
      >
        {MESSAGES.sessionExpired}
      </Panel>
    );
  } else if (session.data.status !== 'completed') {
    body = (
      <Panel
        title="Finish your upload first"
        tone="warning"
        actions={
          <Link
            to={`/upload?session=${encodeURIComponent(sessionId)}`}
            className={buttonClass('primary')}
          >
            Back to Upload
          </Link>
        }
      >
        {MESSAGES.sessionNotReady}
      </Panel>
    );
  } else if (eligibility.kind === 'pricing') {
    body = <PlanPanel />;
  } else if (eligibility.kind === 'limit') {
    body = (
      <LimitPanel
        plan={account?.plan_type}
        limit={eligibility.limit}
        trained={account?.models_trained ?? 0}
      />
    );
  } else {
    body = (
      <StartForm
        sessionId={sessionId}
        photos={session.data.usable_files}
        onStarted={setStarted}
        onAlreadyStarted={() => void session.refetch()}
      />
    );
  }
  return <TrainingPage title="Start Training">{body}</TrainingPage>;
}

/** /training/start without a session: the training in progress, if any; else a way to /upload. */
function WithoutSession() {
  const jobs = useTrainingJobs();
  const connection = useConnectionState(!jobs.isError);
  const active = jobs.data?.find((job) => isActiveStatus(job.status));
  const currentSet = useCurrentPhotoSet();

  if (active) {
    return (
      <TrainingPage title="Training your model">
        <TrainingProgressCard job={active} connection={connection} />
      </TrainingPage>
    );
  }
  if (jobs.isPending || currentSet.isPending) {
    return <PageState title="Checking your trainings..." message="One moment" busy />;
  }
  if (currentSet.data) {
    return (
      <TrainingPage title="Start Training">
        <ContinueCard set={currentSet.data} />
      </TrainingPage>
    );
  }
  return (
    <PageState
      title="Upload your photos first"
      message="A model is trained from 10-20 photos of you. Upload them, then name your model here."
    >
      <Link to="/upload" className={buttonClass('primary')}>
        Upload Photos
      </Link>
      <Link to="/dashboard" className={buttonClass('secondary')}>
        Go to Dashboard
      </Link>
    </PageState>
  );
}

export function Component() {
  const [search] = useSearchParams();
  const location = useLocation();
  const sessionId = sessionFrom(search, location.state);
  return (
    <>
      <title>Start Training · Studioshot</title>
      {sessionId ? <StartForSession key={sessionId} sessionId={sessionId} /> : <WithoutSession />}
    </>
  );
}
