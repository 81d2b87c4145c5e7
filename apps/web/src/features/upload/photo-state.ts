import type { PhotoCheck, UploadedPhoto } from '@studioshot/contracts';
import { MIN_PHOTOS } from './constants';

/** What a photo's checks mean for the person looking at it. */
export type PhotoState = 'checking' | 'usable' | 'attention' | 'unchecked';

export function photoState(photo: Pick<UploadedPhoto, 'check_status' | 'usable'>): PhotoState {
  if (photo.check_status === 'pending') return 'checking';
  if (photo.check_status === 'failed') return 'unchecked';
  return photo.usable === true ? 'usable' : 'attention';
}

export const PHOTO_STATE_LABEL: Record<PhotoState, string> = {
  checking: 'Checking...',
  usable: 'Usable',
  attention: 'Needs attention',
  unchecked: 'Could not be checked',
};

/** Shown when the check itself failed (the photo counts as not usable). */
export const UNCHECKED_ADVICE =
  'We could not check this photo. Remove it and upload it again, or choose another photo.';

export function failedChecks(photo: Pick<UploadedPhoto, 'checks'>): PhotoCheck[] {
  return photo.checks.filter((check) => check.ok === false);
}

/** The set's standing: how many count, how many are still being checked, how many more needed. */
export function setSummary(photos: readonly Pick<UploadedPhoto, 'check_status' | 'usable'>[]) {
  const usable = photos.filter((p) => photoState(p) === 'usable').length;
  const checking = photos.filter((p) => photoState(p) === 'checking').length;
  const attention = photos.length - usable - checking;
  return {
    uploaded: photos.length,
    usable,
    checking,
    attention,
    needed: Math.max(0, MIN_PHOTOS - usable),
    ready: usable >= MIN_PHOTOS && checking === 0,
  };
}
