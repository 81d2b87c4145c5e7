import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageState } from '../../components/PageState';
import { buttonClass } from '../../components/ui';
import { useGenerationModels } from './model-choice';
import type { TrainedStudioProps } from './use-trained-studio';

const MODELS_LOAD_FAILED = 'Failed to load your models. Please try again.';

// The states of a generation page before it has a model to work with. `pageTitle`, where the
// page gives one, names the browser tab meanwhile.

function PageTitle({ title }: { title: string | undefined }) {
  return title ? <title>{title}</title> : null;
}

/** The model list is being read. */
export function ModelsLoading({ title, pageTitle }: { title: string; pageTitle?: string }) {
  return (
    <>
      <PageTitle title={pageTitle} />
      <PageState title={title} busy />
    </>
  );
}

/** The model list could not be read: say so (never "no models"), with Retry. */
export function ModelsLoadFailed({
  onRetry,
  pageTitle,
}: {
  onRetry: () => void;
  pageTitle?: string;
}) {
  return (
    <>
      <PageTitle title={pageTitle} />
      <PageState title="Could not load your models" message={MODELS_LOAD_FAILED} tone="error">
        <button type="button" onClick={onRetry} className={buttonClass('primary')}>
          Retry
        </button>
        <Link to="/dashboard" className={buttonClass('secondary')}>
          Back to Dashboard
        </Link>
      </PageState>
    </>
  );
}

/** A page that needs a trained model, for a user without a ready one: Train Your Model. */
export function NoTrainedModels({
  message,
  pageTitle,
  children,
}: {
  message: string;
  pageTitle?: string;
  children?: ReactNode;
}) {
  return (
    <>
      <PageTitle title={pageTitle} />
      <PageState title="No Trained Models Found" message={message}>
        <Link to="/upload" className={buttonClass('primary')}>
          Train Your Model
        </Link>
        {children}
      </PageState>
    </>
  );
}

/**
 * A page that generates from a trained model, until it has one: 'Loading your trained
 * models...', a list that could not be read, or no ready model (with `emptyActions` beside Train
 * Your Model, told whether the user has any model at all); then `children` with the ready ones.
 */
export function TrainedModelsGate({
  pageTitle,
  titleAlways = true,
  emptyMessage,
  emptyActions,
  children,
}: {
  /** The browser tab's title while the models load, and unless `titleAlways` is false after. */
  pageTitle: string;
  titleAlways?: boolean;
  emptyMessage: string;
  emptyActions?: (anyModel: boolean) => ReactNode;
  children: (ready: TrainedStudioProps) => ReactNode;
}) {
  const { models, completed, initialModelId } = useGenerationModels();
  const problemTitle = titleAlways ? pageTitle : undefined;
  if (models.isPending) {
    return <ModelsLoading title="Loading your trained models..." pageTitle={pageTitle} />;
  }
  if (models.isError && !models.data) {
    return <ModelsLoadFailed onRetry={() => void models.refetch()} pageTitle={problemTitle} />;
  }
  if (!completed?.length) {
    return (
      <NoTrainedModels message={emptyMessage} pageTitle={problemTitle}>
        {emptyActions?.(models.data.length > 0)}
      </NoTrainedModels>
    );
  }
  return children({ models: completed, initialModelId });
}
