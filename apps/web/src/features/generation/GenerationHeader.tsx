import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/ui';
import { bestName } from '../../lib/display-name';
import { LOW_CREDIT_THRESHOLD } from '../payments/catalogue';
import { ArrowLeftIcon } from '../../components/icons';
import { CreditBanner } from './CreditBanner';
import type { GenerationAccount } from './hooks';

/**
 * A generation page's header: the page title, a line or two about the page (`children`) and the
 * account's credit balance, with Buy Credits once it is low unless `offerCredits` is false. As a
 * page asks: Back to Dashboard above it, a welcome line by name (product spec, legacy style page)
 * and the low-credit banner under it.
 */
export function GenerationHeader({
  eyebrow,
  title,
  account,
  backLink = false,
  greet = false,
  offerCredits = true,
  lowCreditBanner = false,
  sibling,
  children,
}: {
  eyebrow: string;
  title: string;
  account: GenerationAccount;
  backLink?: boolean;
  greet?: boolean;
  offerCredits?: boolean;
  lowCreditBanner?: boolean;
  /** The other generation page, named by its title, with what it offers instead. */
  sibling?: { to: string; title: string; offers: string };
  children: ReactNode;
}) {
  const credits = account?.credits_balance ?? 0;
  return (
    <>
      {backLink && (
        <Link to="/dashboard" className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
          <ArrowLeftIcon /> Back to Dashboard
        </Link>
      )}
      <header
        className={`${backLink ? 'mt-4' : ''} flex flex-col gap-5 md:flex-row md:items-end md:justify-between`}
      >
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
            {eyebrow}
          </p>
          <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
            {title}
          </h1>
          {greet && (
            <p className="mt-2 text-stone-700">
              Welcome,{' '}
              <span className="font-medium break-words text-stone-950">{bestName(account)}</span>
            </p>
          )}
          <div className={`${greet ? 'mt-1' : 'mt-2'} max-w-2xl text-stone-600`}>{children}</div>
          {sibling && (
            <p className="mt-2 text-sm text-stone-600">
              {sibling.offers}:{' '}
              <Link
                to={sibling.to}
                className="font-medium text-accent-700 underline underline-offset-4"
              >
                {sibling.title}
              </Link>
            </p>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-3">
          <p
            aria-live="polite"
            className="rounded-full border border-stone-200 bg-white px-4 py-2 text-sm font-medium text-stone-800 shadow-sm"
          >
            <span className="font-semibold text-stone-950 tabular-nums">{credits}</span>{' '}
            {credits === 1 ? 'credit' : 'credits'}
          </p>
          {offerCredits && credits <= LOW_CREDIT_THRESHOLD && (
            <Link to="/credits" className={buttonClass('primary', 'sm')}>
              Buy Credits
            </Link>
          )}
        </div>
      </header>
      {lowCreditBanner && account && <CreditBanner credits={credits} />}
    </>
  );
}
