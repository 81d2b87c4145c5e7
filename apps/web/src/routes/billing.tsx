import { MESSAGES } from '@studioshot/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PageState } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import {
  grantedSummary,
  isRenewal,
  paymentDate,
  refundSummary,
  STATUS_LABELS,
} from '../features/billing/billing-format';
import { RefundRequest } from '../features/billing/RefundRequest';
import { fetchBillingHistory, type BillingEntry } from '../features/payments/billing-api';
import { formatDate, formatDollars } from '../features/payments/catalogue';
import { ArrowLeftIcon } from '../components/icons';
import { errorMessage } from '../lib/api-client';
import { billingKeys } from '../features/billing/query-keys';

const STATUS_TONES: Record<BillingEntry['status'], string> = {
  succeeded: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  refunded: 'bg-sky-50 text-sky-800 ring-sky-200',
  failed: 'bg-red-50 text-red-800 ring-red-200',
};

function PaymentRow({ entry }: { entry: BillingEntry }) {
  const headingId = `payment-${entry.id}`;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6"
      >
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={headingId} className="font-medium break-words text-stone-950">
              {entry.description}
            </h2>
            {isRenewal(entry) && (
              <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-700">
                Renewal
              </span>
            )}
          </div>
          <p className="mt-1 text-sm text-stone-600">
            <time dateTime={paymentDate(entry)}>{formatDate(paymentDate(entry))}</time>
            <span aria-hidden="true"> · </span>
            <span className="whitespace-nowrap">{entry.receipt_number}</span>
          </p>
          <p className="mt-1 text-sm text-stone-700">
            <span className="text-stone-500">Granted: </span>
            {grantedSummary(entry.granted)}
            {entry.status === 'refunded' && entry.refunded_at && (
              <span className="text-stone-500"> (refunded {formatDate(entry.refunded_at)})</span>
            )}
          </p>
          {entry.refund && entry.refund.credits_taken_back > 0 && (
            <p className="mt-1 text-sm text-stone-600">{refundSummary(entry.refund)}</p>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-3 sm:flex-col sm:items-end sm:gap-1.5">
          <p className="font-display text-xl font-semibold text-stone-950 tabular-nums">
            {formatDollars(entry.amount_cents)}
          </p>
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${STATUS_TONES[entry.status]}`}
          >
            {STATUS_LABELS[entry.status]}
          </span>
          {entry.has_receipt && (
            <Link
              to={`/billing/receipts/${entry.id}`}
              className="text-sm font-medium text-accent-700 underline underline-offset-4 hover:text-accent-800"
              aria-label={`View receipt ${entry.receipt_number}`}
            >
              View receipt
            </Link>
          )}
          <RefundRequest entry={entry} />
        </div>
      </article>
    </li>
  );
}

/** Billing history: every payment and renewal, what it granted, and its receipt. */
export function Component() {
  const history = useQuery({
    queryKey: billingKeys.history(),
    queryFn: fetchBillingHistory,
    // A purchase made a moment ago must show: read afresh on every visit.
    staleTime: 0,
  });

  return (
    <section className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Billing · Studioshot</title>
      <Link to="/dashboard" className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
        <ArrowLeftIcon /> Back to dashboard
      </Link>
      <h1 className="mt-4 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
        Billing history
      </h1>
      <p className="mt-2 text-stone-600">
        Your payments and renewals, what each one gave you, and a printable receipt for each. Any
        payment made in the last 30 days can be refunded:{' '}
        <Link to="/refunds" className="font-medium text-accent-700 underline underline-offset-4">
          how the money-back guarantee works
        </Link>
        .
      </p>

      <div className="mt-8">
        {history.isPending ? (
          <PageState title="Loading your billing history..." busy />
        ) : history.isError ? (
          <PageState
            title={MESSAGES.billingHistoryFailed}
            message={errorMessage(history.error, 'Please try again.')}
            tone="error"
          >
            <button
              type="button"
              onClick={() => void history.refetch()}
              className={buttonClass('primary')}
            >
              Try Again
            </button>
          </PageState>
        ) : history.data.payments.length === 0 ? (
          <PageState
            title="No payments yet"
            message="When you buy a plan, credits or trainings, the payment and its receipt appear here."
          >
            <Link to="/pricing" className={buttonClass('primary')}>
              See plans
            </Link>
            <Link to="/credits" className={buttonClass('secondary')}>
              Buy credits
            </Link>
          </PageState>
        ) : (
          <ul className={`${cardClass} divide-y divide-stone-200`} aria-label="Payments">
            {history.data.payments.map((entry) => (
              <PaymentRow key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
