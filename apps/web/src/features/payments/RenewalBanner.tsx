import type { RenewalProblem } from '@studioshot/contracts';
import { Link } from 'react-router';
import { AlertIcon, ArrowRightIcon } from '../../components/icons';
import { formatDate, planLabel } from './catalogue';
import { useSubscription } from './hooks';

/** What the banner says about a renewal that did not go through, and where it leads. */
export function renewalNotice(problem: RenewalProblem): {
  title: string;
  detail: string;
  action: { to: string; text: string };
} {
  const plan = planLabel(problem.tier);
  if (problem.state === 'retrying')
    return {
      title: `The renewal payment for your ${plan} plan failed.`,
      detail: `${problem.reason} We will try again on ${formatDate(problem.next_attempt_at)}; update your card before ${formatDate(problem.final_attempt_at)} to keep your plan.`,
      action: { to: '/dashboard', text: 'Update card' },
    };
  return {
    title: `Your ${plan} plan has ended: its renewal payment failed.`,
    detail: `${problem.reason} You are on the Free plan since ${formatDate(problem.lapsed_at)}, and your credits are still yours. Subscribe again to train and get monthly credits.`,
    action: { to: '/pricing', text: 'Choose a plan' },
  };
}

/**
 * Lasting notice on every signed-in page while a renewal is being retried, and for a while after
 * it failed for good (the server says how long): what happened and what to do. It lives in the
 * status area at the bottom of the screen, with the training banner.
 */
export function RenewalBanner() {
  const subscription = useSubscription();
  const problem = subscription.data?.renewal_problem;
  if (!problem) return null;
  const notice = renewalNotice(problem);
  return (
    <aside
      aria-label="Subscription renewal"
      className="border-t border-red-200 bg-red-50 text-red-950 shadow-[0_-4px_16px_rgb(28_25_23/0.08)]"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-1.5 px-4 py-2 text-sm sm:flex-nowrap sm:px-6">
        <AlertIcon className="size-5 shrink-0 text-red-700" />
        <p className="min-w-0 flex-1">
          <span className="font-semibold">{notice.title}</span>{' '}
          {/* A phone keeps the bar short: what happened and the way out; the page has the rest. */}
          <span className="hidden sm:inline">{notice.detail}</span>
        </p>
        <Link
          to={notice.action.to}
          className="inline-flex shrink-0 items-center gap-1 rounded-lg px-2 py-1 font-semibold underline underline-offset-4 hover:bg-red-100"
        >
          {notice.action.text}
          <ArrowRightIcon className="size-4" />
        </Link>
      </div>
    </aside>
  );
}
