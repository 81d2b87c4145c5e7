import { REFUND_REASONS } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { PageState } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import {
  grantedSummary,
  paymentDate,
  refundSummary,
  STATUS_LABELS,
} from '../features/billing/billing-format';
import { fetchReceipt, type ReceiptResponse } from '../features/payments/billing-api';
import { formatDate, formatDollars, planLabel } from '../features/payments/catalogue';
import { ArrowLeftIcon } from '../components/icons';
import { ApiError, errorMessage } from '../lib/api-client';
import { billingKeys } from '../features/billing/query-keys';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2.5 sm:grid-cols-[11rem_1fr] sm:gap-4">
      <dt className="text-sm text-stone-500">{label}</dt>
      <dd className="min-w-0 break-words text-stone-900">{children}</dd>
    </div>
  );
}

/** An upgrade's arithmetic, as it was priced. */
function ProrationLines({ proration }: { proration: NonNullable<ReceiptResponse['proration']> }) {
  const to = planLabel(proration.to_plan);
  const from = planLabel(proration.from_plan);
  return (
    <ul className="space-y-1 text-sm">
      <li>
        {to} from {formatDate(proration.priced_at)} to {formatDate(proration.period_end)} (
        {proration.remaining_days} days): {formatDollars(proration.new_plan_cents)}
      </li>
      <li>
        Credit for unused {from} time: −{formatDollars(proration.credited_cents)}
      </li>
      {proration.minimum_applied && (
        <li>
          Raised to the smallest card payment: +
          {formatDollars(proration.charged_cents - proration.prorated_cents)}
        </li>
      )}
    </ul>
  );
}

function ReceiptDocument({ receipt }: { receipt: ReceiptResponse }) {
  const paidOn = paymentDate(receipt);
  return (
    <article
      aria-labelledby="receipt-heading"
      className={`${cardClass} mt-6 p-6 sm:p-10 print:mt-0 print:border-0 print:p-0 print:shadow-none`}
    >
      <header className="flex flex-col gap-4 border-b border-stone-200 pb-6 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <p className="font-display text-2xl font-semibold text-stone-950">
            {receipt.seller.name}
          </p>
          {receipt.seller.website && (
            <p className="text-sm text-stone-600">{receipt.seller.website}</p>
          )}
        </div>
        <div className="sm:text-right">
          <h1 id="receipt-heading" className="font-display text-3xl font-semibold text-stone-950">
            Receipt
          </h1>
          <p className="mt-1 font-mono text-sm text-stone-700">{receipt.receipt_number}</p>
        </div>
      </header>

      <dl className="mt-4 divide-y divide-stone-100">
        <Row label="Date">
          <time dateTime={paidOn}>{formatDate(paidOn)}</time>
        </Row>
        <Row label="Billed to">
          {receipt.customer.name && <span className="block">{receipt.customer.name}</span>}
          <span className="block text-stone-700">{receipt.customer.email}</span>
        </Row>
        <Row label="Item">{receipt.description}</Row>
        {receipt.proration && (
          <Row label="How it was priced">
            <ProrationLines proration={receipt.proration} />
          </Row>
        )}
        <Row label="What you received">{grantedSummary(receipt.granted)}</Row>
        <Row label="Status">
          {STATUS_LABELS[receipt.status]}
          {receipt.status === 'refunded' && receipt.refunded_at && (
            <span className="text-stone-600">
              {' '}
              on {formatDate(receipt.refunded_at)}: the whole amount went back to your card
            </span>
          )}
        </Row>
        {receipt.refund?.reason && (
          <Row label="Refund">
            Asked for under the 30-day money-back guarantee: {REFUND_REASONS[receipt.refund.reason]}
            .
            {receipt.refund.credits_taken_back > 0 && (
              <span className="block text-stone-600">{refundSummary(receipt.refund)}</span>
            )}
          </Row>
        )}
        <Row label="Payment reference">
          <span className="font-mono text-sm">{receipt.payment_intent_id}</span>
        </Row>
      </dl>

      <div className="mt-6 flex items-baseline justify-between border-t border-stone-900 pt-4">
        <span className="font-medium text-stone-900">
          {receipt.status === 'refunded' ? 'Amount paid (refunded)' : 'Amount paid'}
        </span>
        <span className="font-display text-3xl font-semibold text-stone-950 tabular-nums">
          {formatDollars(receipt.amount_cents)}{' '}
          <span className="font-sans text-sm font-normal text-stone-500 uppercase">
            {receipt.currency}
          </span>
        </span>
      </div>
      <p className="mt-8 text-xs text-stone-500">
        Thank you for choosing {receipt.seller.name}. Keep this receipt for your records.
      </p>
    </article>
  );
}

/** A printable receipt of one payment (the owner's only). */
export function Component() {
  const { id = '' } = useParams();
  const receipt = useQuery({
    queryKey: billingKeys.receipt(id),
    queryFn: () => fetchReceipt(id),
  });
  const missing = receipt.error instanceof ApiError && receipt.error.status === 404;

  return (
    <section className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14 print:max-w-none print:p-0">
      <title>
        {receipt.data
          ? `Receipt ${receipt.data.receipt_number} · Studioshot`
          : 'Receipt · Studioshot'}
      </title>
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to="/billing" className={`${buttonClass('ghost', 'sm')} -ml-3.5`}>
          <ArrowLeftIcon /> Back to billing
        </Link>
        {receipt.data && (
          <button type="button" onClick={() => window.print()} className={buttonClass('primary')}>
            Print receipt
          </button>
        )}
      </div>
      {receipt.isPending ? (
        <PageState title="Loading the receipt..." busy />
      ) : receipt.isError ? (
        <PageState
          title={missing ? MESSAGES.receiptNotFound : MESSAGES.receiptLoadFailed}
          message={
            missing
              ? 'There is no receipt here for your account. Your receipts are listed on the billing page.'
              : errorMessage(receipt.error, 'Please try again.')
          }
          tone="error"
        >
          {!missing && (
            <button
              type="button"
              onClick={() => void receipt.refetch()}
              className={buttonClass('primary')}
            >
              Try Again
            </button>
          )}
          <Link to="/billing" className={buttonClass(missing ? 'primary' : 'secondary')}>
            See all receipts
          </Link>
        </PageState>
      ) : (
        <ReceiptDocument receipt={receipt.data} />
      )}
    </section>
  );
}
