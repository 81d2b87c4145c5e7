import { MESSAGES, type PhotoSet, type PhotoSetDeletion } from '@studioshot/contracts';
import { useMutation } from '@tanstack/react-query';
import { DeletionActions } from '../../components/DeletionActions';
import { Modal } from '../../components/Modal';
import { formatDate } from './format';
import { deletePhotoSet } from './settings-api';

/** What is said of the model before confirming: deleting its photos does not touch it. */
export function modelKeepsWorking(modelName: string): string {
  return `${modelName} keeps working: a trained model holds what it needs to make headshots, so it does not need these photos.`;
}

const photoCount = (n: number) => `${n} ${n === 1 ? 'photo' : 'photos'}`;

/**
 * Asks before deleting a photo set, saying what goes (the photos and every copy of them) and
 * that the model trained from them keeps working. Cancel has the focus first; a refusal (a
 * training still reads the photos) is shown here and changes nothing. Focus returns to the
 * Delete button on cancel, and to `returnFocusTo` once the set is gone.
 */
export function DeletePhotoSetDialog({
  set,
  onClose,
  onDeleted,
  returnFocusTo,
}: {
  set: PhotoSet | null;
  onClose: () => void;
  onDeleted: (set: PhotoSet, answer: PhotoSetDeletion) => void;
  returnFocusTo: () => HTMLElement | null;
}) {
  const remove = useMutation({
    mutationFn: (row: PhotoSet) => deletePhotoSet(row.id),
    onSuccess: (answer, row) => onDeleted(row, answer),
  });
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };

  return (
    <Modal
      open={set !== null}
      onClose={close}
      eyebrow="Delete photos"
      title="Delete these photos?"
      returnFocusTo={returnFocusTo}
    >
      {set && (
        <>
          <p className="text-stone-700">
            This deletes, for good, the photos you uploaded on {formatDate(set.created_at)}:
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-stone-700">
            <li>{photoCount(set.photo_count)}, as you uploaded them</li>
            <li>every copy we made of them: resized versions and thumbnails</li>
          </ul>
          {set.model ? (
            <p className="mt-4 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
              {modelKeepsWorking(set.model.name)}
            </p>
          ) : (
            <p className="mt-4 text-sm text-stone-600">No model was trained from these photos.</p>
          )}
          <p className="mt-4 text-sm text-stone-600">
            Your headshots stay. To train another model you would upload photos again.
          </p>
          <DeletionActions
            error={remove.error}
            fallback={MESSAGES.photoSetDeleteFailed}
            pending={remove.isPending}
            confirmLabel="Delete photos"
            onCancel={close}
            onConfirm={() => remove.mutate(set)}
          />
        </>
      )}
    </Modal>
  );
}
