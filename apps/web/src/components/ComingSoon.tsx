import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSession } from '../features/auth/session-store';
import { buttonClass, cardClass } from './ui';

/** An honest placeholder for a screen that is specified but not built yet. */
export function ComingSoon({
  title,
  summary,
  children,
}: {
  title: string;
  /** What the screen will do, from the product spec. */
  summary: string;
  children?: ReactNode;
}) {
  const { status } = useSession();
  return (
    <section className="mx-auto max-w-2xl px-4 py-16 sm:px-6 sm:py-24">
      <title>{`${title} · Studioshot`}</title>
      <div className={`${cardClass} p-8 sm:p-10`}>
        <p className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase">
          Coming soon
        </p>
        <h1 className="mt-3 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
          {title}
        </h1>
        <p className="mt-4 text-stone-700">This screen arrives in a coming release.</p>
        <p className="mt-2 text-sm text-stone-500">{summary}</p>
        {children}
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to="/" className={buttonClass('secondary')}>
            Back to home
          </Link>
          <Link
            to="/dashboard"
            className={buttonClass(status === 'authenticated' ? 'primary' : 'secondary')}
          >
            Go to dashboard
          </Link>
        </div>
      </div>
    </section>
  );
}
