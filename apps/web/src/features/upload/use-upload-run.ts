import { MESSAGES } from '@studioshot/contracts/messages';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api-client';
import { appStorage, STORAGE_KEYS } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { MAX_PHOTOS } from './constants';
import { createUploadSession, uploadPhoto, type UploadedPhoto } from './upload-api';
import { UploadRunner, type UploadProgress, type UploadResult } from './upload-queue';
import { sendableLocal, type PhotoSelection } from './use-photo-selection';
import { addSessionPhoto, refreshUploadSession, seedUploadSession } from './use-upload-session';
import { startUploadError } from './validation';

export interface UploadRunEvents {
  /** The server says the plan cannot train (403): choose a plan. */
  onPlanRequired: () => void;
  /** The server says every training slot is used (403). */
  onLimitReached: () => void;
  /** Gender is still missing: uploading waits for the profile. */
  canUpload: () => boolean;
}

export interface UploadRunOptions {
  selection: PhotoSelection;
  /** The set the photos go to; null when the next upload starts a new one. */
  openSessionId: string | null;
  /** Photos already in that set. */
  uploaded: number;
  events: UploadRunEvents;
  /** A new set was created for this run. */
  onSessionCreated: (sessionId: string) => void;
  /** The server said the set has expired. */
  onSessionExpired: () => void;
}

/**
 * Sending the picked photos (docs/spec/screens.md#upload): into the open set, or a new one
 * created for them, one file at a time with retries; each photo the server takes joins the
 * session at once, and the page is asked before closing the tab while it runs.
 */
export function useUploadRun(options: UploadRunOptions) {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [lastResult, setLastResult] = useState<UploadResult | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const runner = useRef(new UploadRunner());
  // Set synchronously on the first click, before the session exists and the runner starts.
  const starting = useRef(false);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  // Cancel a running upload when the page goes away.
  useEffect(() => {
    const current = runner.current;
    return () => current.cancel();
  }, []);

  // Ask before closing the tab while photos are being prepared or sent.
  const busy = running || options.selection.optimizing !== null;
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const fail = useCallback((message: string) => {
    setStartError(message);
    toast.error(message);
  }, []);

  const { openSessionId, uploaded } = options;
  const optimizing = options.selection.optimizing !== null;
  const startUpload = useCallback(async () => {
    const { selection, events, onSessionCreated, onSessionExpired } = optionsRef.current;
    const queue = sendableLocal(selection.current());
    const problem = startUploadError({
      running: starting.current || runner.current.running,
      hasToken: Boolean(appStorage.getItem(STORAGE_KEYS.accessToken)),
      pending: queue.length,
      uploaded,
    });
    if (problem) return fail(problem);
    if (optimizing) return;
    if (!events.canUpload()) return;
    starting.current = true;
    setStartError(null);
    setLastResult(null);
    setRunning(true);
    try {
      let id = openSessionId;
      if (!id) {
        const expected = Math.min(MAX_PHOTOS, queue.length);
        try {
          const created = await createUploadSession(expected);
          seedUploadSession(created, expected);
          id = created.session_id;
        } catch (error) {
          const message = errorMessage(error, MESSAGES.sessionCreateFailed);
          if (error instanceof ApiError && error.status === 403) {
            if (message === MESSAGES.trainingLimit) events.onLimitReached();
            else events.onPlanRequired();
          }
          return fail(message);
        }
        onSessionCreated(id);
      }
      const sessionId = id;
      for (const photo of queue) selection.patchLocal(photo.key, { state: 'queued', error: null });
      const result = await runner.current.run<UploadedPhoto>({
        sessionId,
        items: queue.map((p) => ({ key: p.key, file: p.file, filename: p.name })),
        upload: (file, context) => uploadPhoto(sessionId, file, context),
        onProgress: setProgress,
        onFileStart: (item) => selection.patchLocal(item.key, { state: 'uploading', progress: 0 }),
        onFileProgress: (item, percent) => selection.patchLocal(item.key, { progress: percent }),
        onFileUploaded: (item, photo) => {
          void addSessionPhoto(sessionId, photo);
          selection.dropSent(item.key);
        },
        // A file the server refused for good keeps its reason and leaves the queue; one that
        // failed otherwise (network, server fault, the session) is sent again by Retry.
        onFileFailed: (item, error) =>
          selection.patchLocal(item.key, {
            state: error.refused ? 'rejected' : 'failed',
            progress: 0,
            error: error.error,
          }),
      });
      // Files cancelled before they were sent go back to the queue.
      selection.requeueUnsent();
      setLastResult(result);
      if (result.fatalError === MESSAGES.sessionExpired) onSessionExpired();
      announce(result);
      refreshUploadSession(sessionId);
    } catch (error) {
      fail(errorMessage(error, MESSAGES.uploadFailed));
    } finally {
      starting.current = false;
      setRunning(false);
      setProgress(null);
    }
  }, [uploaded, optimizing, openSessionId, fail]);

  const cancelUpload = useCallback(() => runner.current.cancel(), []);

  /** Forgets the last run's outcome (a new set starts). */
  const reset = useCallback(() => {
    runner.current.cancel();
    setLastResult(null);
    setStartError(null);
  }, []);

  const clearStartError = useCallback(() => setStartError(null), []);

  /** Whether a run is under way or about to start (for a decision taken outside a render). */
  const isBusy = useCallback(() => starting.current || runner.current.running, []);

  return {
    progress,
    lastResult,
    startError,
    running,
    isBusy,
    startUpload,
    cancelUpload,
    reset,
    clearStartError,
  };
}

/** The run's outcome, in a toast. */
function announce(result: UploadResult): void {
  if (result.cancelled) toast.info(MESSAGES.uploadCancelled);
  else if (result.status === 'failed') toast.error(result.fatalError ?? MESSAGES.uploadFailed);
  else if (result.errors.length > 0) {
    toast.error(
      `${result.uploadedFiles} of ${result.totalFiles} photos uploaded; ${result.errors.length} could not be uploaded.`,
    );
  } else {
    toast.success(
      `${result.uploadedFiles} ${result.uploadedFiles === 1 ? 'photo' : 'photos'} uploaded. Checking them now...`,
    );
  }
}
