import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui';
import { LOW_CREDIT_THRESHOLD } from '../../payments/catalogue';

/**
 * The legacy pages' header (product spec, legacy style page): the page title, who is signed in
 * and their credits, with Buy Credits once the balance is low.
 */
export function LegacyHeader({
  eyebrow,
  title,
  name,
  credits,
  children,
}: {
  eyebrow: string;
  title: string;
  name: string;
  credits: number;
  /** A line or two under the title. */
  children?: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-5 md:flex-row md:items-end md:justify-between">
      <div className="min-w-0">
        <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
          {eyebrow}
        </p>
        <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
          {title}
        </h1>
        <p className="mt-2 text-stone-700">
          Welcome, <span className="font-medium break-words text-stone-950">{name}</span>
        </p>
        {children && <div className="mt-1 max-w-2xl text-stone-600">{children}</div>}
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-3">
        <p
          aria-live="polite"
          className="rounded-full border border-stone-200 bg-white px-4 py-2 text-sm font-medium text-stone-800 shadow-sm"
        >
          <span className="font-semibold text-stone-950 tabular-nums">{credits}</span>{' '}
          {credits === 1 ? 'credit' : 'credits'}
        </p>
        {credits <= LOW_CREDIT_THRESHOLD && (
          <Link to="/credits" className={buttonClass('primary', 'sm')}>
            Buy Credits
          </Link>
        )}
      </div>
    </header>
  );
}
