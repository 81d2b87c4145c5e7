import { errorMessage } from '../lib/api-client';
import { AlertIcon } from './icons';
import { Spinner } from './PageState';
import { buttonClass } from './ui';

/**
 * The foot of a deletion dialog: the refusal or failure (the server's message, else `fallback`),
 * then Cancel (focused first) and the red confirm button, both held while the deletion runs.
 */
export function DeletionActions({
  error,
  fallback,
  pending,
  confirmLabel,
  onCancel,
  onConfirm,
}: {
  error: unknown;
  fallback: string;
  pending: boolean;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <>
      {error != null && (
        <p role="alert" className="mt-4 flex items-start gap-2 text-sm text-red-700">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {errorMessage(error, fallback)}
        </p>
      )}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button
          type="button"
          onClick={onCancel}
          disabled={pending}
          className={buttonClass('secondary')}
          data-autofocus
        >
          Cancel
        </button>
        <button
          type="button"
          onClick={onConfirm}
          disabled={pending}
          className={buttonClass('danger')}
        >
          {pending && <Spinner className="size-4" />}
          {pending ? 'Deleting...' : confirmLabel}
        </button>
      </div>
    </>
  );
}
