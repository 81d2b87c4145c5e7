import { MESSAGES } from '@studioshot/contracts/messages';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { toast } from '../../lib/toast';
import { MAX_PHOTOS } from './constants';
import { isMobileDevice, optimizeFiles, optimizeSettings } from './optimize';
import {
  fileIdentity,
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

let nextKey = 1;
let nextRejection = 1;

function previewFor(file: File): string | null {
  try {
    return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
  } catch {
    return null;
  }
}

export function revokePreview(url: string | null): void {
  if (url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
}

/**
 * The photos picked on this device (docs/spec/screens.md#upload): each pick is validated
 * against the set's room (`uploaded` photos already in it) and optimised, and waits here until
 * it is sent. Refusals are listed beside the drop zone until dismissed.
 */
export function usePhotoSelection(uploaded: number) {
  const settings = useMemo(() => optimizeSettings(isMobileDevice()), []);
  const [local, setLocal] = useState<LocalPhoto[]>([]);
  const [optimizing, setOptimizing] = useState<{ done: number; total: number } | null>(null);
  const [pickErrors, setPickErrors] = useState<PickRejection[]>([]);
  const localRef = useRef(local);
  localRef.current = local;
  /** The photos as they are now, for a callback that outlives a render. */
  const current = useCallback(() => localRef.current, []);

  // Free the previews when the page goes away.
  useEffect(
    () => () => {
      for (const photo of localRef.current) revokePreview(photo.previewUrl);
    },
    [],
  );

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
      const current = localRef.current;
      const { accepted, rejected } = validateSelection(picked, {
        alreadyChosen: uploaded + countedLocal(current).length,
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
        const room = Math.max(0, MAX_PHOTOS - uploaded - countedLocal(localRef.current).length);
        const kept = added.slice(0, room);
        const extra = added.slice(room);
        for (const photo of extra) revokePreview(photo.previewUrl);
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
    [uploaded, reportRejections, settings],
  );

  const dismissPickErrors = useCallback(() => setPickErrors([]), []);

  const removeLocal = useCallback((key: string) => {
    setLocal((list) => {
      const photo = list.find((p) => p.key === key);
      if (!photo || photo.state === 'uploading') return list;
      revokePreview(photo.previewUrl);
      return list.filter((p) => p.key !== key);
    });
  }, []);

  /** Empties the queue (a photo being sent stays) and the list of refusals. */
  const clearQueue = useCallback(() => {
    setLocal((list) => {
      for (const photo of list) if (photo.state !== 'uploading') revokePreview(photo.previewUrl);
      return list.filter((p) => p.state === 'uploading');
    });
    setPickErrors([]);
  }, []);

  /** Changes one photo's send state. */
  const patchLocal = useCallback(
    (key: string, changes: Partial<LocalPhoto>) =>
      setLocal((list) => list.map((p) => (p.key === key ? { ...p, ...changes } : p))),
    [],
  );

  /** A photo the server now holds leaves this device's queue. */
  const dropSent = useCallback((key: string) => {
    setLocal((list) => {
      const done = list.find((p) => p.key === key);
      revokePreview(done?.previewUrl ?? null);
      return list.filter((p) => p.key !== key);
    });
  }, []);

  /** After a run: files cancelled before they were sent wait again. */
  const requeueUnsent = useCallback(() => {
    setLocal((list) =>
      list.map((p) => (p.state === 'uploading' ? { ...p, state: 'queued', progress: 0 } : p)),
    );
  }, []);

  /** For a new set: every photo waits again, except one the server refused (it would again). */
  const requeueForNewSet = useCallback(() => {
    setLocal((list) =>
      list.map((p) =>
        p.state === 'rejected' ? p : { ...p, state: 'queued', progress: 0, error: null },
      ),
    );
  }, []);

  return {
    local,
    current,
    pendingLocal: sendableLocal(local),
    countedLocal: countedLocal(local),
    optimizing,
    pickErrors,
    addFiles,
    dismissPickErrors,
    removeLocal,
    clearQueue,
    patchLocal,
    dropSent,
    requeueUnsent,
    requeueForNewSet,
  };
}

export type PhotoSelection = ReturnType<typeof usePhotoSelection>;
