import type { BillingEntry } from '../payments/billing-api';
import { planLabel } from '../payments/catalogue';

/** How the billing page and receipts put a payment into words. */

export const STATUS_LABELS: Record<BillingEntry['status'], string> = {
  succeeded: 'Paid',
  refunded: 'Refunded',
  failed: 'Failed',
};

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What a payment granted, e.g. 'Starter plan and 4 credits'; 'Nothing' when it never applied. */
export function grantedSummary(granted: BillingEntry['granted']): string {
  const parts = [
    granted.plan ? `${planLabel(granted.plan)} plan` : null,
    granted.credits > 0 ? plural(granted.credits, 'credit') : null,
    granted.training_slots > 0 ? plural(granted.training_slots, 'model training') : null,
    granted.headshots > 0 ? plural(granted.headshots, 'headshot') : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return 'Nothing';
  return parts.length === 1
    ? parts[0]!
    : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** The date the money moved: paid, else refunded, else tried. */
export function paymentDate(
  entry: Pick<BillingEntry, 'paid_at' | 'refunded_at' | 'created_at'>,
): string {
  return entry.paid_at ?? entry.refunded_at ?? entry.created_at;
}

/** A renewal reads as one in the list. */
export function isRenewal(entry: Pick<BillingEntry, 'kind'>): boolean {
  return entry.kind === 'renewal';
}

/** What a refund the owner asked for took back, e.g. 'Refund: 15 unspent credits taken back'. */
export function refundSummary(refund: NonNullable<BillingEntry['refund']>): string {
  return `Refund: ${plural(refund.credits_taken_back, 'unspent credit')} taken back`;
}
