import { MESSAGES, type PhotoSet, type PhotoSetDeletion } from '@studioshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/PageState';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { DeletePhotoSetDialog } from './DeletePhotoSetDialog';
import { formatDate, formatDateTime } from './format';
import { usePrivacyFacts } from './privacy-facts';
import { continueTarget } from '../upload/current-set';
import { fetchPhotoSets } from './settings-api';
import { settingsKeys } from './query-keys';

/** How often the list is read again while a set is still being deleted. */
export const PHOTO_SET_DELETING_POLL_MS = 1000;

const HEADING_ID = 'photo-sets-heading';

/** After a set is deleted, focus lands on the heading of the list it was in. */
function focusPhotoSetsHeading(): HTMLElement | null {
  return document.getElementById(HEADING_ID);
}

const MODEL_STATUS_LABELS = {
  pending: 'waiting to train',
  training: 'training',
  failed: 'training failed',
} as const;

/** What happens to the set's photos, in a line: when they go (or went), or why they stay. */
export function retentionLine(set: PhotoSet): string {
  if (set.photos_purged_at) return `Deleted automatically on ${formatDate(set.photos_purged_at)}`;
  if (set.photos_purge_due_at)
    return `Deleted automatically on ${formatDate(set.photos_purge_due_at)}`;
  if (!set.model) return 'Not used for a model: kept until you delete them';
  if (set.model.status === 'pending' || set.model.status === 'training')
    return 'Kept while the model trains';
  // A model from before generation's format is rebuilt from its photos at its first use.
  return 'Kept until you first generate headshots with this model';
}

function PhotoSetRow({
  set,
  deleting,
  onDelete,
}: {
  set: PhotoSet;
  deleting: boolean;
  onDelete: (set: PhotoSet) => void;
}) {
  const purged = set.photos_purged_at !== null;
  // A set that trained nothing yet and is still open can be picked up where it was left.
  const trainable =
    !purged && set.model === null && set.status !== 'expired' && set.photo_count > 0;
  const titleId = `photo-set-${set.id}`;
  return (
    <li
      aria-labelledby={titleId}
      className="flex flex-wrap items-start justify-between gap-3 py-4 first:pt-0 last:pb-0"
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-stone-900">
          <span id={titleId}>Uploaded {formatDate(set.created_at)}</span>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${purged ? 'bg-stone-100 text-stone-700' : 'bg-accent-50 text-accent-800'}`}
          >
            {purged
              ? 'Photos deleted'
              : `${set.photo_count} ${set.photo_count === 1 ? 'photo' : 'photos'} held`}
          </span>
        </p>
        <p className="mt-1 text-sm break-words text-stone-600">
          {set.model ? (
            <>
              Model: <span className="font-medium text-stone-800">{set.model.name}</span>
              {set.model.status !== 'completed' && ` (${MODEL_STATUS_LABELS[set.model.status]})`}
            </>
          ) : (
            'No model trained from these photos'
          )}
        </p>
        <p className="text-sm text-stone-600">{retentionLine(set)}</p>
      </div>
      {deleting ? (
        <p role="status" className="flex items-center gap-2 text-sm text-stone-600">
          <Spinner className="size-4" /> Deleting...
        </p>
      ) : (
        !purged && (
          <div className="flex flex-wrap gap-2">
            {trainable && (
              <Link
                to={continueTarget(set)}
                aria-label={`Train from these photos, uploaded ${formatDateTime(set.created_at)}`}
                className={buttonClass('primary', 'sm')}
              >
                Train from these photos
              </Link>
            )}
            <button
              type="button"
              onClick={() => onDelete(set)}
              aria-label={`Delete photos uploaded ${formatDateTime(set.created_at)}`}
              className={buttonClass('secondary', 'sm')}
            >
              Delete photos
            </button>
          </div>
        )
      )}
    </li>
  );
}

/**
 * The 'Your data' section's list of photo sets: for each, the photos held (or when the purge
 * took them), the model trained from them and when they go; 'Delete photos' asks first.
 */
export function PhotoSetsList() {
  const [confirming, setConfirming] = useState<PhotoSet | null>(null);
  // Sets whose deletion is still running (answered 202), and those gone: a read that started
  // before a deletion finished must not bring one back.
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(() => new Set());
  const [gone, setGone] = useState<ReadonlySet<string>>(() => new Set());
  const days = usePrivacyFacts().data?.photo_retention_days;
  const sets = useQuery({
    queryKey: settingsKeys.photoSets(),
    queryFn: fetchPhotoSets,
    refetchInterval: (query) =>
      query.state.data?.some((set) => deleting.has(set.id)) ? PHOTO_SET_DELETING_POLL_MS : false,
  });
  const rows = (sets.data ?? []).filter((set) => !gone.has(set.id));

  const deleted = (set: PhotoSet, answer: PhotoSetDeletion) => {
    setConfirming(null);
    if (answer.status === 'deleted') {
      setGone((ids) => new Set(ids).add(set.id));
      queryClient.setQueryData<PhotoSet[]>(settingsKeys.photoSets(), (list) =>
        list?.filter((row) => row.id !== set.id),
      );
    } else {
      setDeleting((ids) => new Set(ids).add(set.id));
    }
    toast.success(answer.message);
    void queryClient.invalidateQueries({ queryKey: settingsKeys.photoSets() });
  };

  return (
    <div className="mt-8 border-t border-stone-200 pt-6">
      <h3
        id={HEADING_ID}
        tabIndex={-1}
        className="font-display text-lg font-semibold text-stone-950 focus:outline-none"
      >
        Your photos
      </h3>
      <p className="mt-1 text-sm text-stone-600">
        The photos you uploaded to train a model. We delete them automatically{' '}
        {days !== undefined ? `${days} ${days === 1 ? 'day' : 'days'}` : 'a set time'} after the
        training finishes; you can delete them sooner. A model trained from them keeps working.
      </p>
      <div className="mt-4">
        {sets.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-stone-600">
            <Spinner className="size-4" /> Loading your photos...
          </p>
        ) : sets.isError ? (
          <div role="alert" className="space-y-3">
            <p className="text-sm text-red-800">
              {errorMessage(sets.error, MESSAGES.photoSetsLoadFailed)}
            </p>
            <button
              type="button"
              onClick={() => void sets.refetch()}
              className={buttonClass('secondary', 'sm')}
            >
              Try again
            </button>
          </div>
        ) : rows.length === 0 ? (
          <p className="text-sm text-stone-600">
            You have no uploaded photos.{' '}
            <Link to="/upload" className="font-medium text-accent-700 underline underline-offset-4">
              Upload photos
            </Link>{' '}
            to train a model.
          </p>
        ) : (
          <ul aria-labelledby={HEADING_ID} className="divide-y divide-stone-200">
            {rows.map((set) => (
              <PhotoSetRow
                key={set.id}
                set={set}
                deleting={deleting.has(set.id)}
                onDelete={setConfirming}
              />
            ))}
          </ul>
        )}
      </div>
      <DeletePhotoSetDialog
        set={confirming}
        onClose={() => setConfirming(null)}
        onDeleted={deleted}
        returnFocusTo={focusPhotoSetsHeading}
      />
    </div>
  );
}
