import { MESSAGES } from '@studioshot/contracts/messages';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PhotoIcon } from '../../components/icons';
import { Spinner } from '../../components/PageState';
import { buttonClass } from '../../components/ui';
import { ApiError, errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { MIN_PHOTOS } from './constants';
import { continueTarget, type CurrentPhotoSet } from './current-set';
import { uploadKeys } from './query-keys';
import { completeUploadSession } from './upload-api';
import { markSessionCompleted } from './use-upload-session';

/**
 * The photo set the user left off with, wherever they are: 'Continue: N usable photos' and the
 * one action that picks it up (start training when it is ready, else back to the upload).
 */
export function ContinueCard({
  set,
  className = '',
}: {
  set: CurrentPhotoSet;
  className?: string;
}) {
  const navigate = useNavigate();
  const [starting, setStarting] = useState(false);
  const photos = `${set.usable} usable ${set.usable === 1 ? 'photo' : 'photos'}`;

  const startTraining = async () => {
    setStarting(true);
    try {
      if (set.status === 'uploading') {
        try {
          await completeUploadSession(set.id);
        } catch (error) {
          const already =
            error instanceof ApiError && error.detail === MESSAGES.sessionAlreadyComplete;
          if (!already) throw error;
        }
        await markSessionCompleted(set.id);
      }
      void queryClient.invalidateQueries({ queryKey: uploadKeys.currentSet() });
      await navigate(continueTarget({ id: set.id, status: 'completed' }));
    } catch (error) {
      toast.error(errorMessage(error, MESSAGES.sessionCompleteFailed));
      void queryClient.invalidateQueries({ queryKey: uploadKeys.currentSet() });
    } finally {
      setStarting(false);
    }
  };

  return (
    <section
      aria-labelledby="continue-set-title"
      className={`flex flex-wrap items-center justify-between gap-4 rounded-2xl border border-accent-200 bg-accent-50 px-5 py-4 ${className}`}
    >
      <div className="flex min-w-0 items-start gap-3">
        <PhotoIcon className="size-6 shrink-0 text-accent-700" />
        <div className="min-w-0">
          <h2 id="continue-set-title" className="font-display text-lg font-semibold text-stone-950">
            Continue: {photos}
          </h2>
          <p className="mt-0.5 text-sm text-stone-700">
            {set.ready
              ? 'Your photos are uploaded and checked. Name your model and start training.'
              : set.checksPending > 0
                ? `We are still checking ${set.checksPending} of your photos.`
                : `Add ${Math.max(0, MIN_PHOTOS - set.usable)} more usable photos to train a model.`}
          </p>
        </div>
      </div>
      {set.ready ? (
        <button
          type="button"
          onClick={() => void startTraining()}
          disabled={starting}
          className={buttonClass('primary')}
        >
          {starting && <Spinner className="size-4" />}
          Start training
        </button>
      ) : (
        <Link to={continueTarget(set)} className={buttonClass('primary')}>
          Continue upload
        </Link>
      )}
    </section>
  );
}
