import { useQuery } from '@tanstack/react-query';
import { queryClient } from '../../lib/query-client';
import { CHECKS_POLL_MS, MAX_PHOTOS, MIN_PHOTOS } from './constants';
import { uploadKeys } from './query-keys';
import { fetchSessionStatus, type UploadedPhoto, type UploadSessionStatus } from './upload-api';

/**
 * An upload session as the server last told it: one cache entry, read by every page that shows
 * the session. While any photo is still being checked it is asked again every 1.5 s (checks
 * finish within seconds).
 */
export function useUploadSession(sessionId: string | null) {
  return useQuery({
    queryKey: uploadKeys.session(sessionId ?? ''),
    queryFn: ({ signal }) => fetchSessionStatus(sessionId ?? '', signal),
    enabled: sessionId !== null,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data && query.state.data.checks_pending > 0 ? CHECKS_POLL_MS : false,
  });
}

/** Applies a local change to the session, after stopping a poll that would answer with the old set. */
async function changeSession(
  sessionId: string,
  change: (old: UploadSessionStatus) => UploadSessionStatus,
): Promise<void> {
  const key = uploadKeys.session(sessionId);
  await queryClient.cancelQueries({ queryKey: key });
  queryClient.setQueryData<UploadSessionStatus>(key, (old) => (old ? change(old) : old));
}

/** The session holding `photos`, its counts taken from them. */
function withPhotos(status: UploadSessionStatus, photos: UploadedPhoto[]): UploadSessionStatus {
  return {
    ...status,
    photos,
    uploaded_files: photos.length,
    usable_files: photos.filter((p) => p.usable === true).length,
    checks_pending: photos.filter((p) => p.check_status === 'pending').length,
  };
}

/** A session just created: empty, open for `expectedFiles` photos, until the server says more. */
export function seedUploadSession(
  created: { session_id: string; expires_at: string },
  expectedFiles: number,
): void {
  queryClient.setQueryData<UploadSessionStatus>(uploadKeys.session(created.session_id), {
    session_id: created.session_id,
    session_type: 'training',
    status: 'uploading',
    training_id: null,
    expected_files: expectedFiles,
    expires_at: created.expires_at,
    uploaded_files: 0,
    usable_files: 0,
    checks_pending: 0,
    min_photos: MIN_PHOTOS,
    max_photos: MAX_PHOTOS,
    photos: [],
  });
}

/** A photo as the server answered it (uploaded, or confirmed): it joins the set, or replaces its older self. */
export function addSessionPhoto(sessionId: string, photo: UploadedPhoto): Promise<void> {
  return changeSession(sessionId, (old) =>
    withPhotos(old, [...old.photos.filter((p) => p.id !== photo.id), photo]),
  );
}

/** A photo deleted from the set. */
export function removeSessionPhoto(sessionId: string, photoId: string): Promise<void> {
  return changeSession(sessionId, (old) =>
    withPhotos(
      old,
      old.photos.filter((p) => p.id !== photoId),
    ),
  );
}

/** The server closed the set for training (its complete call answered). */
export function markSessionCompleted(sessionId: string): Promise<void> {
  return changeSession(sessionId, (old) => ({ ...old, status: 'completed' }));
}

/** Reads the session again (a change on the server this page did not make itself). */
export function refreshUploadSession(sessionId: string): void {
  void queryClient.invalidateQueries({ queryKey: uploadKeys.session(sessionId) });
}
