import { z } from 'zod';
import { ZPlanTypeSchema } from './auth.js';
import { MESSAGES } from './messages.js';
import {
  NO_NUL_PATTERN,
  NOT_BLANK_PATTERN,
  NUL_REFUSED,
  requiredText,
  text,
  token,
} from './text.js';

const intentId = requiredText(255);

export const ZCreateCreditPaymentRequestSchema = z.strictObject({
  credit_pack_id: token(64),
});
export const ZCreateCreditPackageRequestSchema = z.strictObject({
  package_id: token(64),
});

export const ZCreateTrainingPaymentRequestSchema = z
  .strictObject({
    plan_price: z.number().optional(),
    plan_name: text(64).optional(),
    plan_credits: z.number().int().optional(),
    /** Annual billing costs ten months for twelve; credits still come monthly. Monthly if absent. */
    billing_cycle: z.enum(['monthly', 'annual']).optional(),
  })
  .optional();

export const ZCreateTrainingPurchaseRequestSchema = z.strictObject({
  quantity: z.number().int(),
});

export const ZCreateUpgradeRequestSchema = z.strictObject({
  /** Required: without it the answer is the spec's 'No target plan selected'. */
  plan_id: z
    .string({ error: MESSAGES.noTargetPlan })
    .min(1, MESSAGES.noTargetPlan)
    .max(64)
    .regex(NO_NUL_PATTERN, NUL_REFUSED),
  /** The plan the page priced the upgrade from; refused (409) when the account is no longer on it. */
  current_plan: text(64).nullish(),
  /** Upgrades take effect at once, prorated for the rest of the period (the spec sends true). */
  upgrade_immediately: z
    .literal(true, { error: 'Upgrades take effect immediately: send true or leave it out.' })
    .optional(),
});

export const ZCreateGenerationPaymentRequestSchema = z
  .strictObject({
    style: text(64).optional(),
    prompt: text(2000).optional(),
  })
  .optional();

export const ZPaymentIntentResponseSchema = z.object({
  payment_intent_id: z.string(),
  client_secret: z.string(),
  amount: z.number().int(),
  currency: z.string(),
});
export type PaymentIntentResponse = z.infer<typeof ZPaymentIntentResponseSchema>;

export const ZConfirmRequestSchema = z.strictObject({ payment_intent_id: intentId });

export const ZConfirmAdditionalTrainingRequestSchema = z.strictObject({
  payment_intent_id: intentId,
  pack_id: text(32),
  amount: z.number().int(),
  payment_method: z.literal('stripe').optional(),
});

export const ZConfirmCreditPackageResponseSchema = z.object({
  credits_added: z.number().int(),
  new_credits_balance: z.number().int(),
});

export const ZConfirmPaymentResponseSchema = z.object({
  message: z.string(),
  kind: z.string(),
  credits_awarded: z.number().int(),
  new_credits_balance: z.number().int(),
  plan_type: z.string(),
  training_limit: z.number().int(),
});

/** The test provider's stand-in for Stripe.js: attaches a card to an intent. */
export const ZTestCardConfirmRequestSchema = z.strictObject({
  payment_intent_id: intentId,
  client_secret: token(255),
  /**
   * Complete as the card form requires (docs/spec/screens.md#5-validation); the number's check
   * digit is the card's.
   */
  card: z.strictObject({
    /** 15 to 19 digits, grouped by single spaces as the form shows them ("4242 4242 ..."). */
    number: z.string().regex(/^(?:[0-9] ?){14,18}[0-9]$/, MESSAGES.cardIncomplete),
    expiry: z.string().regex(/^(?:0[1-9]|1[0-2])\/[0-9]{2}$/, MESSAGES.cardIncomplete),
    cvc: z.string().regex(/^[0-9]{3,4}$/, MESSAGES.cardIncomplete),
    name: z.string().max(200).regex(NOT_BLANK_PATTERN, MESSAGES.cardIncomplete),
  }),
});

export const ZTestCardConfirmResponseSchema = z.object({
  payment_intent_id: z.string(),
  status: z.enum(['succeeded']),
});

export const ZPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number().int(),
  price_cents: z.number().int(),
  credits: z.number().int(),
  training_limit: z.number().int(),
  features: z.array(z.string()),
  popular: z.boolean(),
});

export const ZCreditPackageSchema = z.object({
  id: z.string(),
  name: z.string(),
  credits: z.number().int(),
  price_cents: z.number().int(),
  original_price_cents: z.number().int().nullable(),
  savings: z.string().nullable(),
  popular: z.boolean(),
  badge: z.string().nullable(),
  features: z.array(z.string()),
});

export const ZPricingResponseSchema = z.object({
  pricing_options: z.array(ZPlanSchema),
  subscription_plans: z.array(ZPlanSchema),
  onetime_packages: z.array(ZCreditPackageSchema),
  credit_packs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      price_cents: z.number().int(),
      credits: z.number().int(),
      description: z.string(),
      /** false: published (the pricing page shows it as Coming Soon) but refused when bought. */
      for_sale: z.boolean(),
    }),
  ),
  training_packs: z.array(
    z.object({
      id: z.string(),
      quantity: z.number().int(),
      price_cents: z.number().int(),
      savings: z.string().nullable(),
    }),
  ),
  training_fee_dollars: z.number(),
  free_credits_included: z.number().int(),
  currency: z.string(),
  test_mode: z.boolean(),
  /** Stripe mode: the public key the card form loads Stripe.js with. */
  stripe_publishable_key: z.string().startsWith('pk_').optional(),
});
export type PricingResponse = z.infer<typeof ZPricingResponseSchema>;

/** A renewal that did not go through: being retried, or given up on (the plan lapsed to free). */
export const ZRenewalProblemSchema = z.object({
  state: z.enum(['retrying', 'lapsed']),
  tier: z.enum(['starter', 'professional', 'premium']),
  /** What the card answered last. */
  reason: z.string(),
  /** retrying: the next try, and the last one, after which the plan returns to free. */
  next_attempt_at: z.string().nullable(),
  final_attempt_at: z.string().nullable(),
  /** lapsed: when the plan returned to free. */
  lapsed_at: z.string().nullable(),
  /**
   * retrying, Stripe mode: the failed invoice's page at Stripe, where the owner pays it with a new
   * card (3-D Secure included); the plan is kept once Stripe reports it paid. Null otherwise.
   */
  pay_url: z
    .url({ protocol: /^https$/ })
    .nullable()
    .optional(),
});
export type RenewalProblem = z.infer<typeof ZRenewalProblemSchema>;

export const ZSubscriptionResponseSchema = z.object({
  /** past_due: the renewal failed and is being retried; the plan is kept meanwhile. */
  status: z.enum(['active', 'cancelling', 'past_due', 'free']),
  tier: ZPlanTypeSchema,
  billing_cycle: z.enum(['monthly', 'annual']).nullable(),
  next_billing_date: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  cancel_status: z.enum(['active', 'cancelling']).nullable(),
  can_cancel: z.boolean(),
  can_reactivate: z.boolean(),
  features: z.object({ training_jobs: z.number().int() }),
  /** The next charge and its amount (the catalogue's price); null when none will come. */
  next_charge: z
    .object({ date: z.string(), amount_cents: z.number().int(), currency: z.string() })
    .nullable()
    .optional(),
  /** When this month's credits and training allowance renew (monthly, on either cycle). */
  allowance_resets_at: z.string().nullable().optional(),
  renewal_problem: ZRenewalProblemSchema.nullable().optional(),
});
export type SubscriptionResponse = z.infer<typeof ZSubscriptionResponseSchema>;

export const ZCancelSubscriptionResponseSchema = z.object({
  message: z.string(),
  access_until: z.string(),
  credits_retained: z.number().int(),
});

/** POST /api/v1/payments/confirm-plan-subscription. */
export const ZConfirmPlanSubscriptionResponseSchema = z.object({
  message: z.string(),
  plan_type: ZPlanTypeSchema,
  training_limit: z.number().int(),
  credits_awarded: z.number().int(),
});

/** POST /api/v1/payments/confirm-additional-training. */
export const ZConfirmAdditionalTrainingResponseSchema = z.object({
  message: z.string(),
  training_limit: z.number().int(),
});

/** POST /api/v1/payments/reactivate-subscription. */
export const ZReactivateSubscriptionResponseSchema = z.object({
  message: z.string(),
  subscription: ZSubscriptionResponseSchema,
});

/** POST /api/v1/payments/webhook, once the event is verified and handled. */
export const ZWebhookReceivedResponseSchema = z.object({ received: z.literal(true) });
