import {
  MESSAGES,
  ZBillingHistoryResponseSchema,
  ZPaymentIntentDetailsResponseSchema,
  ZReceiptResponseSchema,
  ZRefundResponseSchema,
  ZUpgradeIntentResponseSchema,
  ZUpgradeQuoteResponseSchema,
  type BillingEntry,
  type BillingHistoryResponse,
  type PaymentIntentDetails,
  type ReceiptResponse,
  type RefundReasonId,
  type RefundResponse,
  type UpgradeIntentResponse,
  type UpgradeProration,
  type UpgradeQuoteResponse,
} from '@studioshot/contracts';
import { api } from '../../lib/api';

/**
 * Upgrades, resuming a created intent, the billing history and receipts
 * (docs/spec/calls.md#76-payments, and ours).
 */

export type {
  BillingEntry,
  BillingHistoryResponse,
  PaymentIntentDetails,
  ReceiptResponse,
  UpgradeIntentResponse,
  UpgradeProration,
  UpgradeQuoteResponse,
};

/** The spec's create-upgrade call; the answer says how a prorated amount was reached. */
export function createUpgrade(
  planId: string,
  currentPlan: string,
  idempotencyKey?: string,
): Promise<UpgradeIntentResponse> {
  return api.post(
    '/api/v1/payments/create-upgrade',
    { plan_id: planId, current_plan: currentPlan, upgrade_immediately: true },
    { schema: ZUpgradeIntentResponseSchema, invalid: MESSAGES.upgradeFailed, idempotencyKey },
  );
}

/** What create-upgrade would charge now, priced by the server; it stores nothing. */
export function fetchUpgradeQuote(
  planId: string,
  currentPlan: string,
): Promise<UpgradeQuoteResponse> {
  const query = new URLSearchParams({ plan_id: planId, current_plan: currentPlan });
  return api.get(`/api/v1/payments/upgrade-quote?${query.toString()}`, {
    schema: ZUpgradeQuoteResponseSchema,
    invalid: MESSAGES.upgradeFailed,
  });
}

/** A created intent of the signed-in user, to resume paying it. */
export function fetchPaymentIntent(paymentIntentId: string): Promise<PaymentIntentDetails> {
  return api.get(`/api/v1/payments/intents/${encodeURIComponent(paymentIntentId)}`, {
    schema: ZPaymentIntentDetailsResponseSchema,
    invalid: MESSAGES.paymentIntentLoadFailed,
  });
}

export function fetchBillingHistory(): Promise<BillingHistoryResponse> {
  return api.get('/api/v1/payments/history', {
    schema: ZBillingHistoryResponseSchema,
    invalid: MESSAGES.billingHistoryFailed,
  });
}

export function fetchReceipt(id: string): Promise<ReceiptResponse> {
  return api.get(`/api/v1/payments/receipts/${encodeURIComponent(id)}`, {
    schema: ZReceiptResponseSchema,
    invalid: MESSAGES.receiptLoadFailed,
  });
}

/** The 30-day money-back guarantee: the payment's money back, with the reason chosen. */
export function requestRefund(paymentId: string, reason: RefundReasonId): Promise<RefundResponse> {
  return api.post(
    '/api/v1/payments/refunds',
    { payment_id: paymentId, reason },
    { schema: ZRefundResponseSchema, invalid: MESSAGES.refundFailed },
  );
}
