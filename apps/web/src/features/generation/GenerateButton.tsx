import { Link } from 'react-router';
import { Spinner } from '../../components/PageState';
import { buttonClass } from '../../components/ui';

/**
 * A generation page's Generate button, large and primary (`className` places it): 'Generating...'
 * with a spinner while busy; disabled then, and while `blockedBy` names the element that says why
 * it cannot run.
 */
export function GenerateButton({
  label,
  busy,
  blockedBy,
  className,
  type = 'submit',
  form,
  onClick,
}: {
  label: string;
  busy: boolean;
  blockedBy: string | null;
  className: string;
  type?: 'submit' | 'button';
  form?: string;
  onClick?: () => void;
}) {
  return (
    <button
      type={type}
      form={form}
      onClick={onClick}
      disabled={busy || blockedBy !== null}
      aria-describedby={blockedBy ?? undefined}
      className={`${buttonClass('primary', 'lg')} ${className}`}
    >
      {busy && <Spinner className="size-4" />}
      {busy ? 'Generating...' : label}
    </button>
  );
}

/** Why Generate is disabled at a balance of 0, with the way to more credits. */
export function NoCreditsReason({ id, className }: { id: string; className: string }) {
  return (
    <p id={id} className={`${className} text-sm text-stone-600`}>
      You have 0 credits.{' '}
      <Link to="/credits" className="font-medium text-accent-700 underline underline-offset-4">
        Buy credits
      </Link>{' '}
      to generate.
    </p>
  );
}
