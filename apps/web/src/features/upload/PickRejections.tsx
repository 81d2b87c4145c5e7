import { useId } from 'react';
import { AlertIcon } from '../../components/icons';
import { buttonClass } from '../../components/ui';
import type { PickRejection } from './use-photo-selection';

/**
 * The files a pick did not take (wrong type, over 50MB, already picked, past 20 photos), each
 * with its reason, beside the drop zone. The toast says it once; this list stays until the
 * visitor dismisses it, so a file's reason can still be read after the toast has gone.
 */
export function PickRejections({
  rejections,
  onDismiss,
}: {
  rejections: readonly PickRejection[];
  onDismiss: () => void;
}) {
  const titleId = useId();
  if (rejections.length === 0) return null;
  const count = rejections.length;
  return (
    <section
      aria-labelledby={titleId}
      className="mt-3 rounded-2xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={titleId} className="flex items-center gap-2 font-semibold">
          <AlertIcon className="size-4 shrink-0" />
          {count === 1 ? '1 file was not added' : `${count} files were not added`}
        </h2>
        <button type="button" onClick={onDismiss} className={buttonClass('ghost', 'sm')}>
          Dismiss
        </button>
      </div>
      <ul className="mt-2 space-y-1">
        {rejections.map((rejection) => (
          <li key={rejection.id} className="break-words">
            <span className="font-medium">{rejection.name}</span>: {rejection.error}
          </li>
        ))}
      </ul>
    </section>
  );
}
