import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { CheckCircleIcon } from '../../components/icons';
import { OutcomePanel } from '../../components/OutcomePanel';
import { Spinner } from '../../components/PageState';
import { buttonClass } from '../../components/ui';
import type { TrainingJob } from './training-api';
import { displayName, STARTED_REDIRECT_MS } from './training-logic';
import { useTrainingExpectation } from './use-training-expectation';

/** After a successful start: the started state, then the dashboard after 3 s. */
export function StartedPanel({ job }: { job: TrainingJob }) {
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
