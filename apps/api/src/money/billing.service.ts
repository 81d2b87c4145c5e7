import {
  MESSAGES,
  REFUND_WINDOW_DAYS,
  type BillingEntry,
  type BillingHistoryResponse,
  type PaymentIntentDetails,
  type ReceiptResponse,
  type PlanType,
} from '@studioshot/contracts';
import {
  findCreditPackage,
  findPlan,
  findSubscriptionItem,
  GENERATION_ORDER,
  planLabelOf,
  trainingPackById,
} from '@studioshot/pricing';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { BillingRepository, BillingRow } from './billing.repository.js';
import type { PaymentProvider } from './payment-providers/provider.js';
import type { PaymentsRepository } from './payments.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';

/** Who the receipts are from. */
export const SELLER_NAME = 'Studioshot';

/** The billing page lists at most this many payments, newest first. */
export const HISTORY_LIMIT = 200;

function planName(id: string | null): string {
  if (!id) return 'your previous';
  return id === 'free' || findPlan(id) ? planLabelOf(id as PlanType) : id;
}

/** A plan item in words: 'Professional plan', 'Professional plan, annual'. */
function planItem(itemId: string): string {
  const item = findSubscriptionItem(itemId);
  if (!item) return `${planName(itemId)} plan`;
  return `${item.plan.name} plan${item.cycle === 'annual' ? ', annual' : ''}`;
}

/** What the payment was for, in words. */
export function describePayment(row: Pick<BillingRow, 'kind' | 'item_id' | 'from_plan'>): string {
  switch (row.kind) {
    case 'credits': {
      const pack = findCreditPackage(row.item_id);
      return pack ? `${pack.name} (${pack.credits} credits)` : 'Credit package';
    }
    case 'subscription':
      return `${planItem(row.item_id)} subscription`;
    case 'upgrade':
      return `Upgrade from ${planName(row.from_plan)} to ${planName(row.item_id)}`;
    case 'training_slots': {
      const quantity = trainingPackById(row.item_id)?.quantity ?? 1;
      return `${quantity} extra model training${quantity === 1 ? '' : 's'}`;
    }
    case 'generation':
      return `Headshot order (${GENERATION_ORDER.images} headshots)`;
    case 'renewal':
      return `${planItem(row.item_id)} renewal`;
    default:
      return findSubscriptionItem(row.item_id) ? planItem(row.item_id) : 'Payment';
  }
}

/** A receipt number people can quote: the day it was made and the start of the payment's id. */
export function receiptNumber(row: Pick<BillingRow, 'id' | 'created_at'>): string {
  const day = row.created_at.toISOString().slice(0, 10).replaceAll('-', '');
  return `SS-${day}-${row.id.replaceAll('-', '').slice(0, 8).toUpperCase()}`;
}

/** What took effect: nothing for a payment that never did (declined, or refunded as stale). */
function grantOf(row: BillingRow): BillingEntry['granted'] {
  const none = { credits: 0, plan: null, training_slots: 0, headshots: 0 };
  if (!row.fulfilled_at) return none;
  return {
    credits: row.credits_granted,
    plan: row.kind === 'credits' ? null : (findSubscriptionItem(row.item_id)?.plan.id ?? null),
    training_slots:
      row.kind === 'training_slots' ? (trainingPackById(row.item_id)?.quantity ?? 0) : 0,
    headshots: row.kind === 'generation' ? GENERATION_ORDER.images : 0,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Until when the 30-day guarantee covers a payment; undefined once it no longer can be refunded. */
export function refundableUntil(
  row: { status: string; fulfilled_at: Date | null },
  now: Date,
): Date | undefined {
  if (row.status !== 'succeeded' || !row.fulfilled_at) return undefined;
  const until = new Date(row.fulfilled_at.getTime() + REFUND_WINDOW_DAYS * DAY_MS);
  return until > now ? until : undefined;
}

export function entryOf(row: BillingRow, now = new Date()): BillingEntry {
  return {
    id: row.id,
    receipt_number: receiptNumber(row),
    kind: row.kind,
    description: describePayment(row),
    amount_cents: row.amount_cents,
    currency: row.currency,
    status: row.status,
    created_at: row.created_at.toISOString(),
    paid_at: row.fulfilled_at?.toISOString() ?? null,
    refunded_at: row.refunded_at?.toISOString() ?? null,
    granted: grantOf(row),
    has_receipt: row.status !== 'failed',
    refund:
      row.status === 'refunded'
        ? {
            reason: row.refund_reason,
            requested_at: row.refund_requested_at?.toISOString() ?? null,
            credits_taken_back: row.credits_taken_back,
          }
        : null,
    refundable_until: refundableUntil(row, now)?.toISOString() ?? null,
  };
}

/**
 * The billing history, receipts, and resuming a created payment intent. Everything is the
 * caller's own: another user's payment is answered exactly like a missing one.
 */
export class BillingService {
  constructor(
    private readonly deps: {
      billing: BillingRepository;
      payments: PaymentsRepository;
      users: UsersRepository;
      provider: PaymentProvider;
      /** The site's address, printed on receipts when configured. */
      publicUrl?: string;
      logger: Logger;
    },
  ) {}

  async history(userId: string): Promise<BillingHistoryResponse> {
    const rows = await this.deps.billing.history(userId, HISTORY_LIMIT);
    const now = new Date();
    return { payments: rows.map((row) => entryOf(row, now)) };
  }

  async receipt(userId: string, paymentId: string): Promise<ReceiptResponse> {
    const row = await this.deps.billing.payment(userId, paymentId);
    // A failed attempt took no money, so it has no receipt.
    if (!row || row.status === 'failed') throw new AppError('not_found', MESSAGES.receiptNotFound);
    const user = await this.deps.users.findById(userId);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    return {
      ...entryOf(row),
      seller: { name: SELLER_NAME, website: this.deps.publicUrl ?? null },
      customer: { name: user.name || null, email: user.email },
      payment_intent_id: row.provider_intent_id,
      proration: row.proration,
    };
  }

  /** A created intent, so the payment page can resume it instead of creating another. */
  async intent(userId: string, intentId: string): Promise<PaymentIntentDetails> {
    const payment = await this.deps.payments.findByIntent(intentId);
    if (!payment || payment.user_id !== userId)
      throw new AppError('payment_not_found', MESSAGES.paymentNotFound);
    let intent;
    try {
      intent = await this.deps.provider.retrieveIntent(payment.provider_intent_id);
    } catch (error) {
      this.deps.logger.error({ err: error, intentId }, 'could not read a payment intent back');
      throw new AppError('service_unavailable', MESSAGES.paymentIntentLoadFailed);
    }
    if (!intent) throw new AppError('payment_not_found', MESSAGES.paymentNotFound);
    const status: PaymentIntentDetails['status'] =
      payment.status === 'refunded'
        ? 'refunded'
        : payment.fulfilled_at || intent.status === 'succeeded'
          ? 'succeeded'
          : intent.status === 'canceled'
            ? 'failed'
            : 'requires_payment';
    return {
      payment_intent_id: intent.id,
      client_secret: intent.client_secret,
      amount: payment.amount_cents,
      currency: payment.currency,
      proration: payment.proration,
      status,
      kind: payment.kind,
      item_id: payment.item_id,
      from_plan: payment.from_plan,
    };
  }
}
