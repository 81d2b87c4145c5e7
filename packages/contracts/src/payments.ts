import { z } from 'zod';

const intentId = z.string().trim().min(1).max(255);

export const ZCreateCreditPaymentRequestSchema = z.strictObject({
  credit_pack_id: z.string().min(1).max(64),
});
export const ZCreateCreditPackageRequestSchema = z.strictObject({
  package_id: z.string().min(1).max(64),
});

export const ZCreateTrainingPaymentRequestSchema = z
  .strictObject({
    plan_price: z.number().optional(),
    plan_name: z.string().max(64).optional(),
    plan_credits: z.number().int().optional(),
  })
  .optional();

export const ZCreateTrainingPurchaseRequestSchema = z.strictObject({
  quantity: z.number().int(),
});

export const ZCreateUpgradeRequestSchema = z.strictObject({
  plan_id: z.string().max(64).nullish(),
  current_plan: z.string().max(64).nullish(),
  upgrade_immediately: z.boolean().optional(),
});

export const ZCreateGenerationPaymentRequestSchema = z
  .strictObject({
    style: z.string().max(64).optional(),
    prompt: z.string().max(2000).optional(),
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
  pack_id: z.string().max(32),
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
  client_secret: z.string().min(1).max(255),
  card: z.strictObject({
    number: z.string().max(32),
    expiry: z.string().max(8),
    cvc: z.string().max(8),
    name: z.string().max(200),
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
  upgrade_offers: z.array(
    z.object({
      plan: z.string(),
      price_cents: z.number().int(),
      trainings: z.number().int(),
      credits: z.number().int(),
    }),
  ),
  training_fee_dollars: z.number(),
  free_credits_included: z.number().int(),
  currency: z.string(),
  test_mode: z.boolean(),
});
export type PricingResponse = z.infer<typeof ZPricingResponseSchema>;

export const ZSubscriptionResponseSchema = z.object({
  status: z.enum(['active', 'cancelling', 'free']),
  tier: z.enum(['free', 'starter', 'professional', 'premium']),
  billing_cycle: z.enum(['monthly', 'annual']).nullable(),
  next_billing_date: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  cancel_status: z.enum(['active', 'cancelling']).nullable(),
  can_cancel: z.boolean(),
  can_reactivate: z.boolean(),
  features: z.object({ training_jobs: z.number().int() }),
});
export type SubscriptionResponse = z.infer<typeof ZSubscriptionResponseSchema>;

export const ZCancelSubscriptionResponseSchema = z.object({
  message: z.string(),
  access_until: z.string(),
  credits_retained: z.number().int(),
});
