import type { ModelDeletion } from '@studioshot/contracts/deletion';
import { MESSAGES } from '@studioshot/contracts/messages';
import { useMutation } from '@tanstack/react-query';
import { DeletionActions } from '../../components/DeletionActions';
import { Modal } from '../../components/Modal';
import { deleteModel } from './model-deletion';
import { silenceJob } from './tracker';
import { isActiveStatus, type ModelRow } from './training-logic';

/** Said before confirming, as the spec of deletion asks: the slot a model used stays used. */
export const SLOT_NOT_RETURNED =
  'The training slot this model used is not given back: deleting it does not let you train another model on your plan.';

/**
 * Asks before deleting a model, saying what goes (its files, every headshot made with it, a
 * training still running) and that its training slot is not given back. Cancel has the focus
 * first; focus returns to the Delete button on cancel, and to `returnFocusTo` once the model is
 * gone.
 */
export function DeleteModelDialog({
  model,
  onClose,
  onDeleted,
  returnFocusTo,
}: {
  model: ModelRow | null;
  onClose: () => void;
  onDeleted: (model: ModelRow, answer: ModelDeletion) => void;
  returnFocusTo: () => HTMLElement | null;
}) {
  const remove = useMutation({
    mutationFn: (row: ModelRow) => {
      silenceJob(row.id);
      return deleteModel(row.id);
    },
    onSuccess: (answer, row) => onDeleted(row, answer),
  });
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  const training = model !== null && isActiveStatus(model.status);

  return (
    <Modal
      open={model !== null}
      onClose={close}
      eyebrow="Delete model"
      title={model ? `Delete ${model.name}?` : 'Delete model?'}
      returnFocusTo={returnFocusTo}
    >
      {model && (
        <>
          <p className="text-stone-700">This deletes, for good:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-stone-700">
            {training && <li>its training, which is stopped now</li>}
            <li>the model and its files</li>
            <li>every headshot generated with it</li>
          </ul>
          <p className="mt-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            {SLOT_NOT_RETURNED}
          </p>
          <p className="mt-4 text-sm text-stone-600">
            The photos you trained it with are not deleted with it.
          </p>
          <DeletionActions
            error={remove.error}
            fallback={MESSAGES.modelDeleteFailed}
            pending={remove.isPending}
            confirmLabel="Delete model"
            onCancel={close}
            onConfirm={() => remove.mutate(model)}
          />
        </>
      )}
    </Modal>
  );
}
