import { MESSAGES } from '@studioshot/contracts/messages';
import { Link } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { buttonClass } from '../../components/ui';
import type { GenerationState } from './generation-machine';

/** The server's 409 for a user with neither a model nor a checked photo to generate from. */
export function needsPhotos(state: Extract<GenerationState, { phase: 'failed' }>): boolean {
  return state.failure.kind === 'rejected' && state.failure.status === 409;
}

/**
 * A generation that did not work, and the way on: Buy Credits (402), Upload Photos (nothing to
 * generate from, where `offerUpload`), else Try Again (the same key when the last call got no
 * answer).
 */
export function GenerationFailure({
  state,
  onRetry,
  offerUpload = false,
}: {
  state: Extract<GenerationState, { phase: 'failed' }>;
  onRetry: () => void;
  /** The page can generate without a model, so a 409 means there are no photos to use yet. */
  offerUpload?: boolean;
}) {
  const { failure } = state;
  const credits = failure.kind === 'credits';
  const photos = offerUpload && needsPhotos(state);
  const title = credits
    ? 'Out of credits'
    : photos
      ? 'Upload your photos first'
      : 'Generation failed';
  return (
    <section
      role="alert"
      aria-labelledby="generation-failed-title"
      className="rounded-2xl border border-red-200 bg-red-50 p-6"
    >
      <div className="flex items-start gap-3">
        <AlertIcon className="mt-1 size-5 shrink-0 text-red-700" />
        <div className="min-w-0">
          <h2
            id="generation-failed-title"
            className="font-display text-xl font-semibold text-red-900"
          >
            {title}
          </h2>
          <p className="mt-1 text-sm break-words text-red-800">
            {credits ? MESSAGES.insufficientCredits : failure.message}
          </p>
          {failure.kind === 'failed' && !/given back|refunded/i.test(failure.message) && (
            <p className="mt-1 text-sm text-red-800">Your credit has been given back.</p>
          )}
        </div>
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        {credits ? (
          <Link to="/credits" className={buttonClass('primary', 'sm')}>
            Buy Credits
          </Link>
        ) : photos ? (
          <Link to="/upload" className={buttonClass('primary', 'sm')}>
            Upload Photos
          </Link>
        ) : (
          <button type="button" onClick={onRetry} className={buttonClass('primary', 'sm')}>
            Try Again
          </button>
        )}
      </div>
    </section>
  );
}
