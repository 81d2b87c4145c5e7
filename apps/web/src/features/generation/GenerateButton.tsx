import type { ReactNode } from 'react';
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

/**
 * Where a generation page's Generate button and its line below live. On phones and tablets the
 * settings run a screen or more above it, so there it stays at the foot of the screen, one tap
 * away; the page keeps DOCKED_PAGE_PADDING free below its content so nothing stays hidden under it.
 */
export function GenerateDock({ children }: { children: ReactNode }) {
  return (
    <div className="max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-20 max-lg:border-t max-lg:border-stone-200 max-lg:bg-paper/95 max-lg:px-4 max-lg:pt-3 max-lg:pb-2 max-lg:backdrop-blur">
      {children}
    </div>
  );
}

/** The bottom padding of a page with a GenerateDock: room for it below the page's content. */
export const DOCKED_PAGE_PADDING = 'pb-32 lg:pb-14';
