import { MESSAGES } from '@studioshot/contracts/messages';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PageState } from '../../components/PageState';
import { buttonClass } from '../../components/ui';
import { ApiError, errorMessage } from '../../lib/api-client';
import { useSession } from '../auth/session-store';
import { useProfile } from '../auth/use-profile';
import { trainingEligibility } from '../payments/eligibility';
import { ContinueCard } from '../upload/ContinueCard';
import { useCurrentPhotoSet } from '../upload/current-set';
import { useUploadSession } from '../upload/use-upload-session';
import { useConnectionState, useTrainingJobs } from './hooks';
import { StartedPanel } from './StartedPanel';
import { StartForm } from './StartForm';
import { LimitPanel, Panel, PlanPanel } from './StartPanels';
import type { TrainingJob } from './training-api';
import { isActiveStatus } from './training-logic';
import { TrainingLiveView, TrainingPage } from './TrainingLiveView';
import { TrainingProgressCard } from './TrainingProgressCard';

/** /training/start with an upload session: its training if it has one, else the name form. */
export function StartForSession({ sessionId }: { sessionId: string }) {
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
export function StartWithoutSession() {
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
