import { MESSAGES } from '@studioshot/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { appStorage, STORAGE_KEYS } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { CHECKS_POLL_MS, MAX_PHOTOS, MIN_PHOTOS } from './constants';
import { CURRENT_SET_QUERY_KEY } from './current-set';
import { isMobileDevice, optimizeFiles, optimizeSettings } from './optimize';
import {
  completeUploadSession,
  CONFIRM_FAILED,
  confirmSamePerson,
  createUploadSession,
  deleteUploadedPhoto,
  fetchSessionStatus,
  uploadPhoto,
  type UploadedPhoto,
  type UploadSessionStatus,
} from './upload-api';
import { UploadRunner, type UploadProgress, type UploadResult } from './upload-queue';
import {
  fileIdentity,
  startUploadError,
  summariseRejections,
  validateSelection,
  type RejectedFile,
} from './validation';

/** A photo picked on this device and not uploaded yet. */
export interface LocalPhoto {
  key: string;
  /** What will be sent: the optimised file, or the original. */
  file: File;
  /** The name as picked. */
  name: string;
  /** The size as picked, before optimisation. */
  originalSize: number;
  previewUrl: string | null;
  optimized: boolean;
  identity: string;
  /**
   * queued: waiting to be sent; uploading: being sent; failed: given up after retries or with
   * the session, and sent again by the next upload; rejected: refused by the server for good
   * (its reason stays beside it), never sent again and not counted in the set.
   */
  state: 'queued' | 'uploading' | 'failed' | 'rejected';
  /** Percent of this file sent. */
  progress: number;
  error: string | null;
}

/** A file the page did not take when it was picked, and why: listed until dismissed. */
export interface PickRejection extends RejectedFile {
  id: number;
}

/** Photos on this device that still count toward the set (a refused one does not). */
export function countedLocal(local: readonly LocalPhoto[]): LocalPhoto[] {
  return local.filter((p) => p.state !== 'rejected');
}

/** Photos the next upload sends: waiting ones and those whose upload failed. */
export function sendableLocal(local: readonly LocalPhoto[]): LocalPhoto[] {
  return local.filter((p) => p.state === 'queued' || p.state === 'failed');
}

export const sessionQueryKey = (sessionId: string | null) => ['upload-session', sessionId] as const;

export interface UploadFlowEvents {
  /** A new session exists (the page puts it in the URL). */
  onSessionChange: (sessionId: string | null) => void;
  /** The server says the plan cannot train (403): choose a plan. */
  onPlanRequired: () => void;
  /** The server says every training slot is used (403). */
  onLimitReached: () => void;
  /** Gender is still missing: uploading waits for the profile. */
  canUpload: () => boolean;
}

let nextKey = 1;
let nextRejection = 1;

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

/** Applies a local change to the session, after stopping a poll that would answer with the old set. */
async function updateSession(
  key: ReturnType<typeof sessionQueryKey>,
  change: (old: UploadSessionStatus | undefined) => UploadSessionStatus | undefined,
): Promise<void> {
  await queryClient.cancelQueries({ queryKey: key });
  queryClient.setQueryData<UploadSessionStatus>(key, change);
}

function previewFor(file: File): string | null {
  try {
    return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
  } catch {
    return null;
  }
}

function revoke(url: string | null): void {
  if (url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
}

function mergePhoto(
  status: UploadSessionStatus | undefined,
  photo: UploadedPhoto,
): UploadSessionStatus | undefined {
  if (!status) return status;
  const photos = [...status.photos.filter((p) => p.id !== photo.id), photo];
  return {
    ...status,
    photos,
    uploaded_files: photos.length,
    usable_files: photos.filter((p) => p.usable === true).length,
    checks_pending: photos.filter((p) => p.check_status === 'pending').length,
  };
}

function withoutPhoto(
  status: UploadSessionStatus | undefined,
  photoId: string,
): UploadSessionStatus | undefined {
  if (!status) return status;
  const photos = status.photos.filter((p) => p.id !== photoId);
  return {
    ...status,
    photos,
    uploaded_files: photos.length,
    usable_files: photos.filter((p) => p.usable === true).length,
    checks_pending: photos.filter((p) => p.check_status === 'pending').length,
  };
}

/**
 * The upload flow (product spec, section 4): pick (validate, optimise), then upload (create the
 * session, send the queue one file at a time), then follow each photo's checks until the set is
 * ready, then complete the session for training.
 */
export function useUploadFlow(initialSessionId: string | null, events: UploadFlowEvents) {
  const settings = useMemo(() => optimizeSettings(isMobileDevice()), []);
  const [sessionId, setSessionId] = useState<string | null>(initialSessionId);
  const [local, setLocal] = useState<LocalPhoto[]>([]);
  const [optimizing, setOptimizing] = useState<{ done: number; total: number } | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [lastResult, setLastResult] = useState<UploadResult | null>(null);
  const [pickErrors, setPickErrors] = useState<PickRejection[]>([]);
  const [startError, setStartError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState<ReadonlySet<string>>(new Set());
  const [completing, setCompleting] = useState(false);
  const [expired, setExpired] = useState(false);
  const runner = useRef(new UploadRunner());
  const [running, setRunning] = useState(false);
  // Set synchronously on the first click, before the session exists and the runner starts.
  const starting = useRef(false);
  const localRef = useRef(local);
  localRef.current = local;
  const eventsRef = useRef(events);
  eventsRef.current = events;

  const status = useQuery({
    queryKey: sessionQueryKey(sessionId),
    queryFn: ({ signal }) => fetchSessionStatus(sessionId ?? '', signal),
    enabled: sessionId !== null,
    staleTime: 0,
    // Poll while any photo is still being checked; checks finish within seconds.
    refetchInterval: (query) =>
      query.state.data && query.state.data.checks_pending > 0 ? CHECKS_POLL_MS : false,
    retry: (failureCount, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
  });
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

  // Cancel a running upload and free previews when the page goes away.
  useEffect(() => {
    const current = runner.current;
    return () => {
      current.cancel();
      for (const photo of localRef.current) revoke(photo.previewUrl);
    };
  }, []);

  // Ask before closing the tab while photos are being prepared or sent.
  const busy = running || optimizing !== null;
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const pendingLocal = sendableLocal(local);
  const counted = countedLocal(local);
  // A closed set (expired, missing, or sent to training) takes no more photos: the next upload
  // starts a new one, so its photos do not count toward the 20.
  const setClosed = sessionGone || sessionMissing || session?.status === 'completed';
  const activeUploaded = setClosed ? 0 : photos.length;
  const chosenCount = activeUploaded + counted.length;

  /** Adds refusals to the list beside the drop zone; it stays until dismissed. */
  const reportRejections = useCallback((rejected: readonly RejectedFile[]) => {
    if (rejected.length === 0) return;
    setPickErrors((list) => [
      ...list,
      ...rejected.map((entry) => ({ ...entry, id: nextRejection++ })),
    ]);
  }, []);

  const addFiles = useCallback(
    async (picked: readonly File[]) => {
      if (picked.length === 0) return;
      setStartError(null);
      const current = localRef.current;
      const { accepted, rejected } = validateSelection(picked, {
        alreadyChosen: activeUploaded + countedLocal(current).length,
        knownIdentities: new Set(current.map((p) => p.identity)),
      });
      reportRejections(rejected);
      for (const message of summariseRejections(rejected)) toast.error(message);
      if (accepted.length === 0) return;
      setOptimizing({ done: 0, total: accepted.length });
      try {
        const outcomes = await optimizeFiles(accepted, {
          settings,
          onProgress: (done, total) => setOptimizing({ done, total }),
        });
        const added = outcomes.map<LocalPhoto>((outcome) => ({
          key: `local-${nextKey++}`,
          file: outcome.file,
          name: outcome.original.name,
          originalSize: outcome.original.size,
          previewUrl: previewFor(outcome.file),
          optimized: outcome.optimized,
          identity: fileIdentity(outcome.original),
          state: 'queued',
          progress: 0,
          error: null,
        }));
        // The set may have filled up while these were being prepared.
        const room = Math.max(
          0,
          MAX_PHOTOS - activeUploaded - countedLocal(localRef.current).length,
        );
        const kept = added.slice(0, room);
        const extra = added.slice(room);
        for (const photo of extra) revoke(photo.previewUrl);
        if (extra.length > 0) {
          reportRejections(extra.map((p) => ({ name: p.name, error: MESSAGES.tooManyPhotos })));
          toast.error(MESSAGES.tooManyPhotos);
        }
        setLocal((list) => [...list, ...kept]);
      } catch {
        reportRejections(
          accepted.map((file) => ({ name: file.name, error: MESSAGES.optimizeFailed })),
        );
        toast.error(MESSAGES.optimizeFailed);
      } finally {
        setOptimizing(null);
      }
    },
    [activeUploaded, reportRejections, settings],
  );

  const dismissPickErrors = useCallback(() => setPickErrors([]), []);

  const removeLocal = useCallback((key: string) => {
    setLocal((list) => {
      const photo = list.find((p) => p.key === key);
      if (!photo || photo.state === 'uploading') return list;
      revoke(photo.previewUrl);
      return list.filter((p) => p.key !== key);
    });
  }, []);

  const clearQueue = useCallback(() => {
    setLocal((list) => {
      for (const photo of list) if (photo.state !== 'uploading') revoke(photo.previewUrl);
      return list.filter((p) => p.state === 'uploading');
    });
    setPickErrors([]);
    setStartError(null);
  }, []);

  const patchLocal = (key: string, changes: Partial<LocalPhoto>) =>
    setLocal((list) => list.map((p) => (p.key === key ? { ...p, ...changes } : p)));

  const startUpload = useCallback(async () => {
    const queue = sendableLocal(localRef.current);
    const problem = startUploadError({
      running: starting.current || runner.current.running,
      hasToken: Boolean(appStorage.getItem(STORAGE_KEYS.accessToken)),
      pending: queue.length,
      uploaded: activeUploaded,
    });
    if (problem) {
      setStartError(problem);
      toast.error(problem);
      return;
    }
    if (optimizing) return;
    if (!eventsRef.current.canUpload()) return;
    starting.current = true;
    setStartError(null);
    setLastResult(null);
    setRunning(true);
    try {
      let id = setClosed ? null : sessionId;
      if (!id) {
        let created: { session_id: string; expires_at: string };
        try {
          created = await createUploadSession(Math.min(MAX_PHOTOS, queue.length));
          id = created.session_id;
        } catch (error) {
          const message = errorMessage(error, MESSAGES.sessionCreateFailed);
          if (error instanceof ApiError && error.status === 403) {
            if (message === MESSAGES.trainingLimit) eventsRef.current.onLimitReached();
            else eventsRef.current.onPlanRequired();
          }
          setStartError(message);
          toast.error(message);
          return;
        }
        queryClient.setQueryData<UploadSessionStatus>(sessionQueryKey(id), {
          session_id: id,
          session_type: 'training',
          status: 'uploading',
          training_id: null,
          expected_files: queue.length,
          expires_at: created.expires_at,
          uploaded_files: 0,
          usable_files: 0,
          checks_pending: 0,
          min_photos: MIN_PHOTOS,
          max_photos: MAX_PHOTOS,
          photos: [],
        });
        setExpired(false);
        setSessionId(id);
        eventsRef.current.onSessionChange(id);
      }
      const sessionKey = sessionQueryKey(id);
      for (const photo of queue) patchLocal(photo.key, { state: 'queued', error: null });
      const result = await runner.current.run<UploadedPhoto>({
        sessionId: id,
        items: queue.map((p) => ({ key: p.key, file: p.file, filename: p.name })),
        upload: (file, context) => uploadPhoto(id, file, context),
        onProgress: setProgress,
        onFileStart: (item) => patchLocal(item.key, { state: 'uploading', progress: 0 }),
        onFileProgress: (item, percent) => patchLocal(item.key, { progress: percent }),
        onFileUploaded: (item, photo) => {
          void updateSession(sessionKey, (old) => mergePhoto(old, photo));
          setLocal((list) => {
            const done = list.find((p) => p.key === item.key);
            revoke(done?.previewUrl ?? null);
            return list.filter((p) => p.key !== item.key);
          });
        },
        // A file the server refused for good keeps its reason and leaves the queue; one that
        // failed otherwise (network, server fault, the session) is sent again by Retry.
        onFileFailed: (item, error) =>
          patchLocal(item.key, {
            state: error.refused ? 'rejected' : 'failed',
            progress: 0,
            error: error.error,
          }),
      });
      // Files cancelled before they were sent go back to the queue.
      setLocal((list) =>
        list.map((p) => (p.state === 'uploading' ? { ...p, state: 'queued', progress: 0 } : p)),
      );
      setLastResult(result);
      if (result.fatalError === MESSAGES.sessionExpired) setExpired(true);
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
      void queryClient.invalidateQueries({ queryKey: sessionKey });
    } catch (error) {
      const message = errorMessage(error, MESSAGES.uploadFailed);
      setStartError(message);
      toast.error(message);
    } finally {
      starting.current = false;
      setRunning(false);
      setProgress(null);
    }
  }, [activeUploaded, optimizing, setClosed, sessionId]);

  const cancelUpload = useCallback(() => runner.current.cancel(), []);

  const removeUploaded = useCallback(
    async (photoId: string) => {
      if (!sessionId) return;
      setRemoving((set) => new Set(set).add(photoId));
      try {
        await deleteUploadedPhoto(photoId);
        await updateSession(sessionQueryKey(sessionId), (old) => withoutPhoto(old, photoId));
        toast.info('Photo removed');
      } catch (error) {
        // Already gone is what was asked for.
        if (error instanceof ApiError && error.status === 404) {
          await updateSession(sessionQueryKey(sessionId), (old) => withoutPhoto(old, photoId));
        } else {
          toast.error(errorMessage(error, 'Failed to remove the photo. Please try again.'));
        }
      } finally {
        setRemoving((set) => {
          const next = new Set(set);
          next.delete(photoId);
          return next;
        });
        // The other photos' same-person check depends on the whole set.
        void queryClient.invalidateQueries({ queryKey: sessionQueryKey(sessionId) });
      }
    },
    [sessionId],
  );

  /** "This is me" on a photo the same-person check flagged: it then counts toward the set. */
  const confirmUploaded = useCallback(
    async (photoId: string) => {
      if (!sessionId) return;
      setConfirming((set) => new Set(set).add(photoId));
      try {
        const photo = await confirmSamePerson(photoId);
        await updateSession(sessionQueryKey(sessionId), (old) => mergePhoto(old, photo));
        toast.success(
          photo.usable
            ? 'Thanks for confirming: this photo now counts toward your set.'
            : 'Thanks for confirming. This photo still needs attention for its other checks.',
        );
      } catch (error) {
        toast.error(errorMessage(error, CONFIRM_FAILED));
      } finally {
        setConfirming((set) => {
          const next = new Set(set);
          next.delete(photoId);
          return next;
        });
        void queryClient.invalidateQueries({ queryKey: sessionQueryKey(sessionId) });
      }
    },
    [sessionId],
  );

  /** Completes the session; resolves to true when training may start. */
  const completeSession = useCallback(async (): Promise<boolean> => {
    if (!sessionId) return false;
    if (session?.status === 'completed') return true;
    setCompleting(true);
    try {
      const answer = await completeUploadSession(sessionId);
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: CURRENT_SET_QUERY_KEY });
      return true;
    } catch (error) {
      const message = errorMessage(error, MESSAGES.sessionCompleteFailed);
      if (message === MESSAGES.sessionAlreadyComplete) return true;
      toast.error(message);
      if (error instanceof ApiError && error.status === 410) setExpired(true);
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey(sessionId) });
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
  const adoptSession = useCallback((id: string) => {
    if (starting.current || runner.current.running || sessionIdRef.current !== null) return;
    setSessionId(id);
    eventsRef.current.onSessionChange(id);
  }, []);

  /** Forgets the session (expired, missing or completed) to start a new set. */
  const startOver = useCallback(() => {
    runner.current.cancel();
    setSessionId(null);
    setExpired(false);
    setLastResult(null);
    setStartError(null);
    // A refused file stays refused: the server would answer the same in a new set.
    setLocal((list) =>
      list.map((p) =>
        p.state === 'rejected' ? p : { ...p, state: 'queued', progress: 0, error: null },
      ),
    );
    eventsRef.current.onSessionChange(null);
  }, []);

  return {
    sessionId,
    session,
    status,
    photos,
    local,
    pendingLocal,
    countedLocal: counted,
    chosenCount,
    optimizing,
    progress,
    lastResult,
    pickErrors,
    dismissPickErrors,
    startError,
    running,
    removing,
    confirming,
    confirmUploaded,
    completing,
    sessionGone,
    sessionMissing,
    addFiles,
    removeLocal,
    clearQueue,
    startUpload,
    cancelUpload,
    removeUploaded,
    completeSession,
    adoptSession,
    startOver,
  };
}

export type UploadFlow = ReturnType<typeof useUploadFlow>;
