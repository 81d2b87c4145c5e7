import { z } from 'zod';
import { ZPaymentIntentResponseSchema } from './payments.js';
import { requiredText } from './text.js';

/**
 * An upgrade's proration (packages/pricing proration.ts has the arithmetic): what the unused
 * time of the current plan is worth, what the new plan costs for the rest of the period, and
 * what is charged. All amounts in cents.
 */
export const ZUpgradeProrationSchema = z.object({
  from_plan: z.string(),
  to_plan: z.string(),
  billing_cycle: z.enum(['monthly', 'annual']),
  period_start: z.string().describe('The current billing period, which the upgrade keeps'),
  period_end: z.string(),
  priced_at: z.string(),
  remaining_days: z.number().describe('Days left of the period when it was priced (1 decimal)'),
  from_price_cents: z.number().int().describe("The current plan's price for a whole period"),
  to_price_cents: z.number().int().describe("The new plan's price for a whole period"),
  credited_cents: z.number().int().describe('The unused time of the current plan'),
  new_plan_cents: z.number().int().describe('The new plan for the rest of the period'),
  prorated_cents: z.number().int().describe('new_plan_cents - credited_cents'),
  charged_cents: z.number().int().describe('What is charged: prorated, or the minimum charge'),
  minimum_applied: z.boolean(),
  credits: z.number().int().describe('Credits granted now, for the rest of the credit month'),
});
export type UpgradeProration = z.infer<typeof ZUpgradeProrationSchema>;

/** POST /api/v1/payments/create-upgrade: the intent, and how its amount was reached. */
export const ZUpgradeIntentResponseSchema = ZPaymentIntentResponseSchema.extend({
  /** null when the user has no running period to prorate: the plan's full price, a new period. */
  proration: ZUpgradeProrationSchema.nullable(),
});
export type UpgradeIntentResponse = z.infer<typeof ZUpgradeIntentResponseSchema>;

/** GET /api/v1/payments/upgrade-quote: what create-upgrade would charge now; stores nothing. */
export const ZUpgradeQuoteQuerySchema = z.strictObject({
  plan_id: requiredText(64),
  current_plan: requiredText(64).optional(),
});

export const ZUpgradeQuoteResponseSchema = z.object({
  /** In cents: what the card step charges if create-upgrade is called now. */
  amount: z.number().int(),
  currency: z.string(),
  /**
   * `upgrade`: the difference for the rest of a running period (a one-off payment);
   * `subscription`: nothing runs, the plan is bought as a new subscription.
   */
  kind: z.enum(['upgrade', 'subscription']),
  proration: ZUpgradeProrationSchema.nullable(),
});
export type UpgradeQuoteResponse = z.infer<typeof ZUpgradeQuoteResponseSchema>;

export const ZPaymentIntentPathSchema = z.object({ payment_intent_id: requiredText(255) });

/** GET /api/v1/payments/intents/{payment_intent_id}: a created intent, to resume paying it. */
export const ZPaymentIntentDetailsResponseSchema = ZUpgradeIntentResponseSchema.extend({
  status: z
    .enum(['requires_payment', 'succeeded', 'failed', 'refunded'])
    .describe('requires_payment: created and not paid yet, so the card step can resume'),
  kind: z.string().describe('credits, subscription, upgrade, training_slots, generation, ...'),
  item_id: z.string(),
  from_plan: z.string().nullable(),
});
export type PaymentIntentDetails = z.infer<typeof ZPaymentIntentDetailsResponseSchema>;

/** The 30-day money-back guarantee: any payment may be refunded this long after it was paid. */
export const REFUND_WINDOW_DAYS = 30;

/** The reasons an owner chooses from when asking for their money back, as the page words them. */
export const REFUND_REASONS = {
  not_satisfied: 'I am not happy with my headshots',
  not_like_me: 'The headshots do not look like me',
  technical_problem: 'Something did not work',
  bought_by_mistake: 'I bought it by mistake',
  no_longer_needed: 'I no longer need it',
  other: 'Another reason',
} as const;
export type RefundReasonId = keyof typeof REFUND_REASONS;
const REFUND_REASON_IDS = Object.keys(REFUND_REASONS) as [RefundReasonId, ...RefundReasonId[]];

/** POST /api/v1/payments/refunds: the owner asks for a payment's money back. */
export const ZRefundRequestSchema = z.strictObject({
  payment_id: z.uuid(),
  reason: z.enum(REFUND_REASON_IDS),
});

/** What a payment granted, read from what was recorded when it took effect. */
export const ZPaymentGrantSchema = z.object({
  credits: z.number().int(),
  plan: z.string().nullable(),
  training_slots: z.number().int(),
  /** Headshots a generation order paid for. */
  headshots: z.number().int(),
});

export const ZBillingEntrySchema = z.object({
  id: z.string(),
  receipt_number: z.string(),
  kind: z.string().describe('The payment kind; renewals included'),
  description: z.string(),
  amount_cents: z.number().int(),
  currency: z.string(),
  status: z.enum(['succeeded', 'refunded', 'failed']),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  granted: ZPaymentGrantSchema,
  /** A receipt exists for money taken (paid, or paid then refunded). */
  has_receipt: z.boolean(),
  refund: z
    .object({
      reason: z.enum(REFUND_REASON_IDS).nullable().describe('null: refunded by us, not asked for'),
      requested_at: z.string().nullable(),
      credits_taken_back: z.number().int().describe('Unspent credits of this payment taken back'),
    })
    .nullable()
    .describe('How a refunded payment was refunded; null while it is not refunded'),
  refundable_until: z
    .string()
    .nullable()
    .describe(
      'The end of the 30-day guarantee for a paid payment not yet refunded; null when it cannot be refunded',
    ),
});
export type BillingEntry = z.infer<typeof ZBillingEntrySchema>;

/** GET /api/v1/payments/history: the user's payments and renewals, newest first. */
export const ZBillingHistoryResponseSchema = z.object({ payments: z.array(ZBillingEntrySchema) });
export type BillingHistoryResponse = z.infer<typeof ZBillingHistoryResponseSchema>;

export const ZReceiptPathSchema = z.object({ id: z.uuid() });

/** GET /api/v1/payments/receipts/{id}: one paid payment's receipt (owner only). */
export const ZReceiptResponseSchema = ZBillingEntrySchema.extend({
  seller: z.object({ name: z.string(), website: z.string().nullable() }),
  customer: z.object({ name: z.string().nullable(), email: z.string() }),
  payment_intent_id: z.string(),
  proration: ZUpgradeProrationSchema.nullable(),
});
export type ReceiptResponse = z.infer<typeof ZReceiptResponseSchema>;

/** POST /api/v1/payments/refunds: the payment as it now stands, refunded. */
export const ZRefundResponseSchema = z.object({
  message: z.string(),
  payment: ZBillingEntrySchema,
});
export type RefundResponse = z.infer<typeof ZRefundResponseSchema>;
