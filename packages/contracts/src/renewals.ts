import { z } from 'zod';
import { ZSubscriptionResponseSchema, ZTestCardConfirmRequestSchema } from './payments.js';

/**
 * Test payment mode's development routes for renewals: the card on file that renewals charge,
 * and the clock that brings a subscription's next due moment to now.
 */

/** POST /api/v1/payments/test/card-on-file: attach a test card, as a Stripe customer's. */
export const ZTestCardOnFileRequestSchema = z.strictObject({
  card: ZTestCardConfirmRequestSchema.shape.card,
});

export const ZCardOnFileSchema = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});

export const ZTestCardOnFileResponseSchema = z.object({ card: ZCardOnFileSchema });

/** POST /api/v1/payments/test/advance-clock: what the due work did, and the subscription after. */
export const ZTestClockAdvanceResponseSchema = z.object({
  /** The moment brought to now: the period end, the next credit month or the next retry. */
  advanced_to: z.string(),
  steps: z.array(z.enum(['credit_month', 'renewed', 'renewal_failed', 'lapsed', 'ended'])),
  subscription: ZSubscriptionResponseSchema,
});
export type TestClockAdvanceResponse = z.infer<typeof ZTestClockAdvanceResponseSchema>;

/** POST /api/v1/payments/pay-renewal: a failed renewal paid now with the card on file. */
export const ZPayRenewalResponseSchema = z.object({
  message: z.string(),
  subscription: ZSubscriptionResponseSchema,
});
export type PayRenewalResponse = z.infer<typeof ZPayRenewalResponseSchema>;
