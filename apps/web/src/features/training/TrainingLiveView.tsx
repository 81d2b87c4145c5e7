import { MESSAGES } from '@studioshot/contracts/messages';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageState } from '../../components/PageState';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { useSession } from '../auth/session-store';
import { generateEligibility } from '../payments/eligibility';
import { isNotFound, useConnectionState, useTrainingJob } from './hooks';
import { AlertIcon, CheckCircleIcon } from '../../components/icons';
import { OutcomePanel } from '../../components/OutcomePanel';
import type { TrainingJob } from './training-api';
import {
  COMPLETED_REDIRECT_FROM_LIST_MS,
  COMPLETED_REDIRECT_MS,
  displayName,
} from './training-logic';
import { TrainingProgressCard } from './TrainingProgressCard';
import { announceJob } from './tracker';

/** The page frame of the training screens: eyebrow, heading, content. */
export function TrainingPage({
  title,
  eyebrow = 'Your AI model',
  children,
}: {
  title: string;
  eyebrow?: string;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">{eyebrow}</p>
      <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight break-words text-stone-950 sm:text-4xl">
        {title}
      </h1>
      <div className="mt-8">{children}</div>
    </section>
  );
}

function CompletedPanel({
  job,
  redirectMs,
  onStay,
}: {
  job: TrainingJob;
  /** null: the visitor chose to stay on this page. */
  redirectMs: number | null;
  onStay: () => void;
}) {
  const navigate = useNavigate();
  const { user } = useSession();
  const generate = () => {
    const target = generateEligibility(user, job.id);
    void navigate(target.to, { state: target.state });
  };
  return (
    <OutcomePanel
      tone="success"
      titleId="training-complete-title"
      title={`${displayName(job)} is ready!`}
      icon={<CheckCircleIcon className="size-6" />}
      actions={
        <>
          <button type="button" onClick={generate} className={buttonClass('primary')}>
            Generate Headshots
          </button>
          <Link to="/dashboard" className={buttonClass('secondary')}>
            Go to Dashboard
          </Link>
          {redirectMs !== null && (
            <button type="button" onClick={onStay} className={buttonClass('ghost')}>
              Stay on this page
            </button>
          )}
        </>
      }
    >
      <p className="mt-1 text-stone-600">
        Your model finished training
        {job.training_photos > 0 ? ` on ${job.training_photos} photos` : ''}.
        {redirectMs !== null &&
          ` Taking you to your dashboard in ${Math.round(redirectMs / 1000)} seconds...`}
      </p>
    </OutcomePanel>
  );
}

function FailedPanel({ job }: { job: TrainingJob }) {
  return (
    <OutcomePanel
      tone="error"
      role="alert"
      titleId="training-failed-title"
      title={`${displayName(job)} could not be trained`}
      icon={<AlertIcon className="size-6" />}
      actions={
        <>
          <Link to="/upload" className={buttonClass('primary')}>
            Upload New Photos
          </Link>
          <Link to="/dashboard" className={buttonClass('secondary')}>
            Go to Dashboard
          </Link>
        </>
      }
    >
      <p className="mt-1 break-words text-red-800">
        {job.error_message?.trim() || MESSAGES.unknownError}
      </p>
      <p className="mt-2 text-sm text-stone-600">
        A fresh set of clear, well-lit photos of just you usually fixes it.
      </p>
    </OutcomePanel>
  );
}

/**
 * Live status of one training, addressed by the job's id or its upload session's id: loading,
 * not found, error, progress, completed (toast once, then the dashboard after 2 s, or 3 s when
 * opened from the model list) and failed (error toast once, a way back to /upload).
 */
export function TrainingLiveView({
  id,
  fromModelList = false,
  title,
}: {
  id: string;
  fromModelList?: boolean;
  /** The page heading while in progress. */
  title?: string;
}) {
  const navigate = useNavigate();
  const query = useTrainingJob(id);
  const job = query.data;
  const notFound = isNotFound(query.error);
  const connection = useConnectionState(!query.isError || notFound);
  // The spec's move to the dashboard after completion, unless the visitor chooses to stay.
  const [staying, setStaying] = useState(false);
  const redirectMs = fromModelList ? COMPLETED_REDIRECT_FROM_LIST_MS : COMPLETED_REDIRECT_MS;
  const status = job?.status;

  useEffect(() => {
    if (job && (job.status === 'completed' || job.status === 'failed')) announceJob(job);
  }, [job]);

  useEffect(() => {
    if (status !== 'completed' || staying) return;
    const timer = setTimeout(() => void navigate('/dashboard'), redirectMs);
    return () => clearTimeout(timer);
  }, [status, redirectMs, navigate, staying]);

  if (!job) {
    if (query.isPending) {
      return (
        <PageState title="Loading training status..." message="Getting the latest progress" busy />
      );
    }
    if (notFound) {
      return (
        <PageState
          title={MESSAGES.trainingNotFound}
          message="There is no training with this address on your account. It may have been removed, or the link is incomplete."
          tone="error"
        >
          <Link to="/dashboard" className={buttonClass('primary')}>
            Go to Dashboard
          </Link>
          <Link to="/upload" className={buttonClass('secondary')}>
            Upload Photos
          </Link>
        </PageState>
      );
    }
    return (
      <PageState
        title={MESSAGES.trainingStatusFailed}
        message={errorMessage(query.error, MESSAGES.network)}
        tone="error"
      >
        <button
          type="button"
          onClick={() => void query.refetch()}
          className={buttonClass('primary')}
        >
          Try Again
        </button>
        <Link to="/dashboard" className={buttonClass('secondary')}>
          Go to Dashboard
        </Link>
      </PageState>
    );
  }

  if (job.status === 'completed') {
    return (
      <TrainingPage title="Training complete">
        <CompletedPanel
          job={job}
          redirectMs={staying ? null : redirectMs}
          onStay={() => setStaying(true)}
        />
      </TrainingPage>
    );
  }
  if (job.status === 'failed') {
    return (
      <TrainingPage title="Training failed">
        <FailedPanel job={job} />
      </TrainingPage>
    );
  }
  return (
    <TrainingPage title={title ?? 'Training your model'}>
      <TrainingProgressCard job={job} connection={connection} />
    </TrainingPage>
  );
}
