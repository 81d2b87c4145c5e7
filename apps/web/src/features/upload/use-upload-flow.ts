import { MESSAGES } from '@studioshot/contracts/messages';
import { useCallback, useMemo, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { uploadKeys } from './query-keys';
import {
  completeUploadSession,
  CONFIRM_FAILED,
  confirmSamePerson,
  deleteUploadedPhoto,
  type UploadedPhoto,
} from './upload-api';
import { usePhotoSelection } from './use-photo-selection';
import { useUploadRun, type UploadRunEvents } from './use-upload-run';
import {
  addSessionPhoto,
  markSessionCompleted,
  refreshUploadSession,
  removeSessionPhoto,
  useUploadSession,
} from './use-upload-session';

export interface UploadFlowEvents extends UploadRunEvents {
  /** A new session exists (the page puts it in the URL). */
  onSessionChange: (sessionId: string | null) => void;
}

/** Signed thumbnail addresses last an hour; reuse one for 45 minutes. */
const THUMBNAIL_REUSE_MS = 45 * 60_000;

function stableThumbnail(
  cache: Map<string, { url: string; at: number }>,
  photo: UploadedPhoto,
): UploadedPhoto {
  const now = Date.now();
  const known = cache.get(photo.id);
  if (known && now - known.at < THUMBNAIL_REUSE_MS) {
    return known.url === photo.thumbnail_url ? photo : { ...photo, thumbnail_url: known.url };
  }
  cache.set(photo.id, { url: photo.thumbnail_url, at: now });
  return photo;
}

/** Photos with a call on its way (removing, confirming): their buttons wait for it. */
function usePhotosInFlight() {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  /** Runs `call` for `photoId`, the photo marked busy until it settles. */
  const track = useCallback(async (photoId: string, call: () => Promise<void>) => {
    setIds((set) => new Set(set).add(photoId));
    try {
      await call();
    } finally {
      setIds((set) => {
        const next = new Set(set);
        next.delete(photoId);
        return next;
      });
    }
  }, []);
  return [ids, track] as const;
}

/**
 * The upload page's flow (docs/spec/screens.md#upload), made of three parts: the photos picked
 * on this device (usePhotoSelection), the run that sends them (useUploadRun) and the session they
 * go to (useUploadSession), whose checks are followed until the set is ready and which is then
 * completed for training.
 */
export function useUploadFlow(initialSessionId: string | null, events: UploadFlowEvents) {
  const [sessionId, setSessionId] = useState<string | null>(initialSessionId);
  const [removing, trackRemoval] = usePhotosInFlight();
  const [confirming, trackConfirmation] = usePhotosInFlight();
  const [completing, setCompleting] = useState(false);
  const [expired, setExpired] = useState(false);
  const eventsRef = useRef(events);
  eventsRef.current = events;

  const status = useUploadSession(sessionId);
  const session = status.data;
  // Thumbnail addresses are signed afresh on every poll; keep the first one of each photo (valid
  // for an hour) so the images are not fetched again every 1.5 s.
  const thumbnails = useRef(new Map<string, { url: string; at: number }>());
  const photos = useMemo(
    () => (session?.photos ?? []).map((photo) => stableThumbnail(thumbnails.current, photo)),
    [session],
  );
  const sessionGone =
    expired ||
    session?.status === 'expired' ||
    (status.error instanceof ApiError && status.error.status === 410);
  const sessionMissing =
    !session && status.error instanceof ApiError && status.error.status === 404;
  // A closed set (expired, missing, or sent to training) takes no more photos: the next upload
  // starts a new one, so its photos do not count toward the 20.
  const setClosed = sessionGone || sessionMissing || session?.status === 'completed';
  const activeUploaded = setClosed ? 0 : photos.length;

  const selection = usePhotoSelection(activeUploaded);
  const run = useUploadRun({
    selection,
    openSessionId: setClosed ? null : sessionId,
    uploaded: activeUploaded,
    events: {
      onPlanRequired: () => eventsRef.current.onPlanRequired(),
      onLimitReached: () => eventsRef.current.onLimitReached(),
      canUpload: () => eventsRef.current.canUpload(),
    },
    onSessionCreated: (id) => {
      setExpired(false);
      setSessionId(id);
      eventsRef.current.onSessionChange(id);
    },
    onSessionExpired: () => setExpired(true),
  });

  const { addFiles: pick, clearQueue: emptyQueue } = selection;
  const { clearStartError } = run;
  const addFiles = useCallback(
    async (picked: readonly File[]) => {
      if (picked.length === 0) return;
      clearStartError();
      await pick(picked);
    },
    [clearStartError, pick],
  );

  const clearQueue = useCallback(() => {
    emptyQueue();
    clearStartError();
  }, [clearStartError, emptyQueue]);

  const removeUploaded = useCallback(
    async (photoId: string) => {
      if (!sessionId) return;
      await trackRemoval(photoId, async () => {
        try {
          await deleteUploadedPhoto(photoId);
          await removeSessionPhoto(sessionId, photoId);
          toast.info('Photo removed');
        } catch (error) {
          // Already gone is what was asked for.
          if (error instanceof ApiError && error.status === 404) {
            await removeSessionPhoto(sessionId, photoId);
          } else {
            toast.error(errorMessage(error, 'Failed to remove the photo. Please try again.'));
          }
        }
      });
      // The other photos' same-person check depends on the whole set.
      refreshUploadSession(sessionId);
    },
    [sessionId, trackRemoval],
  );

  /** "This is me" on a photo the same-person check flagged: it then counts toward the set. */
  const confirmUploaded = useCallback(
    async (photoId: string) => {
      if (!sessionId) return;
      await trackConfirmation(photoId, async () => {
        try {
          const photo = await confirmSamePerson(photoId);
          await addSessionPhoto(sessionId, photo);
          toast.success(
            photo.usable
              ? 'Thanks for confirming: this photo now counts toward your set.'
              : 'Thanks for confirming. This photo still needs attention for its other checks.',
          );
        } catch (error) {
          toast.error(errorMessage(error, CONFIRM_FAILED));
        }
      });
      refreshUploadSession(sessionId);
    },
    [sessionId, trackConfirmation],
  );

  /** Completes the session; resolves to true when training may start. */
  const completeSession = useCallback(async (): Promise<boolean> => {
    if (!sessionId) return false;
    if (session?.status === 'completed') return true;
    setCompleting(true);
    try {
      const answer = await completeUploadSession(sessionId);
      // Every page showing the session sees it closed for training, /training/start included.
      await markSessionCompleted(sessionId);
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: uploadKeys.currentSet() });
      return true;
    } catch (error) {
      const message = errorMessage(error, MESSAGES.sessionCompleteFailed);
      if (message === MESSAGES.sessionAlreadyComplete) {
        await markSessionCompleted(sessionId);
        return true;
      }
      toast.error(message);
      if (error instanceof ApiError && error.status === 410) setExpired(true);
      refreshUploadSession(sessionId);
      return false;
    } finally {
      setCompleting(false);
    }
  }, [session?.status, sessionId]);

  /**
   * Picks up the user's current set (server state) when the page was opened without one, so a
   * reload or a visit from another page finds the photos already uploaded.
   */
  const sessionIdRef = useRef(sessionId);
  sessionIdRef.current = sessionId;
  const { isBusy } = run;
  const adoptSession = useCallback(
    (id: string) => {
      if (isBusy() || sessionIdRef.current !== null) return;
      setSessionId(id);
      eventsRef.current.onSessionChange(id);
    },
    [isBusy],
  );

  /** Forgets the session (expired, missing or completed) to start a new set. */
  const { reset: resetRun } = run;
  const { requeueForNewSet } = selection;
  const startOver = useCallback(() => {
    resetRun();
    setSessionId(null);
    setExpired(false);
    requeueForNewSet();
    eventsRef.current.onSessionChange(null);
  }, [requeueForNewSet, resetRun]);

  return {
    sessionId,
    session,
    status,
    photos,
    local: selection.local,
    pendingLocal: selection.pendingLocal,
    countedLocal: selection.countedLocal,
    chosenCount: activeUploaded + selection.countedLocal.length,
    optimizing: selection.optimizing,
    progress: run.progress,
    lastResult: run.lastResult,
    pickErrors: selection.pickErrors,
    dismissPickErrors: selection.dismissPickErrors,
    startError: run.startError,
    running: run.running,
    removing,
    confirming,
    confirmUploaded,
    completing,
    sessionGone,
    sessionMissing,
    addFiles,
    removeLocal: selection.removeLocal,
    clearQueue,
    startUpload: run.startUpload,
    cancelUpload: run.cancelUpload,
    removeUploaded,
    completeSession,
    adoptSession,
    startOver,
  };
}

export type UploadFlow = ReturnType<typeof useUploadFlow>;
