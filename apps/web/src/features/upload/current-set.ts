import { useQuery } from '@tanstack/react-query';
import { fetchPhotoSets } from '../settings/settings-api';
import { MIN_PHOTOS } from './constants';
import { uploadKeys } from './query-keys';
import { fetchSessionStatus } from './upload-api';

/**
 * The user's current photo set: the newest one that holds photos and has trained no model yet.
 * It is the server's state, so a reload, another tab or another page finds the same set.
 */
export interface CurrentPhotoSet {
  id: string;
  status: 'uploading' | 'completed';
  uploaded: number;
  usable: number;
  checksPending: number;
  /** Checked, with enough usable photos: training can start from it. */
  ready: boolean;
}

export async function fetchCurrentPhotoSet(signal?: AbortSignal): Promise<CurrentPhotoSet | null> {
  const sets = await fetchPhotoSets();
  const open = sets.find(
    (set) =>
      set.model === null &&
      set.status !== 'expired' &&
      set.photos_purged_at === null &&
      set.photo_count > 0,
  );
  if (!open) return null;
  const status = await fetchSessionStatus(open.id, signal);
  if (status.training_id !== null || status.status === 'expired') return null;
  return {
    id: open.id,
    status: status.status,
    uploaded: status.uploaded_files,
    usable: status.usable_files,
    checksPending: status.checks_pending,
    ready: status.checks_pending === 0 && status.usable_files >= (status.min_photos || MIN_PHOTOS),
  };
}

/** Where the set is picked up: the name form once it is closed for training, else the upload page. */
export function continueTarget(set: { id: string; status: string }): string {
  const id = encodeURIComponent(set.id);
  return set.status === 'completed' ? `/training/start?session=${id}` : `/upload?session=${id}`;
}

export function useCurrentPhotoSet(enabled = true) {
  return useQuery({
    queryKey: uploadKeys.currentSet(),
    queryFn: ({ signal }) => fetchCurrentPhotoSet(signal),
    staleTime: 0,
    enabled,
  });
}
