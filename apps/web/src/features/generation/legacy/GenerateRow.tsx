import { useId, type ReactNode } from 'react';
import { GenerateButton, NoCreditsReason } from '../GenerateButton';

/**
 * A legacy settings form's last row: what Generate makes (`children`) and the button, then at a
 * balance of 0 why the button is disabled. `reasonClassName` spaces that line under the row.
 */
export function GenerateRow({
  label,
  busy,
  outOfCredits,
  className = '',
  reasonClassName,
  children,
}: {
  label: string;
  busy: boolean;
  outOfCredits: boolean;
  className?: string;
  reasonClassName: string;
  children: ReactNode;
}) {
  const reasonId = useId();
  return (
    <>
      <div
        className={`${className} flex flex-col gap-3 border-t border-stone-100 pt-6 sm:flex-row sm:items-center sm:justify-between`}
      >
        <p className="text-sm text-stone-600">{children}</p>
        <GenerateButton
          label={label}
          busy={busy}
          blockedBy={outOfCredits ? reasonId : null}
          className="w-full shrink-0 sm:w-auto"
        />
      </div>
      {outOfCredits && (
        <NoCreditsReason id={reasonId} className={`${reasonClassName} sm:text-right`} />
      )}
    </>
  );
}
