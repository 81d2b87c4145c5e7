import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES } from '@studioshot/contracts/messages';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Spinner } from '../../components/PageState';
import { TextField } from '../../components/TextField';
import { buttonClass, cardClass } from '../../components/ui';
import { ApiError } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { authKeys } from '../auth/query-keys';
import { setAuthRedirect, useSession } from '../auth/session-store';
import { uploadKeys } from '../upload/query-keys';
import { refreshUploadSession } from '../upload/use-upload-session';
import { ZModelNameFormSchema, type ModelNameForm } from './model-name-schema';
import { trainingKeys } from './query-keys';
import { startProblem, type StartProblem } from './start-problem';
import { LimitPanel, PlanPanel } from './StartPanels';
import { startTraining, type TrainingJob } from './training-api';
import { applyJobUpdate } from './training-cache';
import { defaultModelName, MODEL_NAME_MAX } from './training-logic';
import { useTrainingExpectation } from './use-training-expectation';

export function StartForm({
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
