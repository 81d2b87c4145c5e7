import {
  ZPayRenewalResponseSchema,
  ZTestCardOnFileRequestSchema,
  ZTestCardOnFileResponseSchema,
  ZTestClockAdvanceResponseSchema,
} from '@studioshot/contracts';
import { AppError } from '../errors.js';
import type { DeclaringRouter } from '../http/declare.js';
import type { TestPaymentProvider } from './payment-providers/test-provider.js';
import type { RenewalsService } from './renewals.service.js';
import type { SubscriptionsService } from './subscriptions.service.js';

/**
 * Test payment mode's renewal conveniences: the card on file renewals charge, and (TEST_CLOCK)
 * the clock that brings the caller's subscription to its next due moment. Not served otherwise.
 */
export function renewalsTestRoutes(
  api: DeclaringRouter,
  deps: {
    testProvider?: TestPaymentProvider;
    renewals: RenewalsService;
    subscriptions: SubscriptionsService;
    testClock: boolean;
  },
): void {
  const { testProvider, renewals, subscriptions } = deps;
  if (!testProvider) return;

  api.route(
    {
      method: 'post',
      path: '/api/v1/payments/test/card-on-file',
      summary: 'Test payments only: put a test card on file for renewals',
      description:
        "Served only with the test payment provider, as attaching a card to a Stripe customer: Stripe's declining test cards are refused (402); 4000 0000 0000 0341 attaches, and renewals charged to it are declined. A card that pays an intent becomes the card on file too.",
      tag: 'payments',
      auth: 'required',
      body: ZTestCardOnFileRequestSchema,
      responses: { 200: ZTestCardOnFileResponseSchema },
      errors: [402],
    },
    async ({ userId, body }) => {
      const card = await testProvider.attachCard(userId, body.card);
      return {
        card: {
          brand: card.brand,
          last4: card.last4,
          exp_month: card.exp_month,
          exp_year: card.exp_year,
        },
      };
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/payments/pay-renewal',
      summary: 'Pay a failed renewal now with the card on file',
      description:
        "For a subscription whose renewal failed (past_due): the card on file is charged at once. A decline answers 402 with the card's message and leaves the retry schedule as it was. Served in test payment mode, where our job charges renewals; with Stripe, Stripe Billing retries the invoice.",
      tag: 'payments',
      auth: 'required',
      responses: { 200: ZPayRenewalResponseSchema },
      errors: [402, 409],
    },
    async ({ userId }) => {
      const outcome = await renewals.payNow(userId);
      if (!outcome.ok) throw new AppError('payment_failed', outcome.message);
      const subscription = await subscriptions.get(userId);
      return {
        message: `Your ${subscription.tier} plan is renewed and active again.`,
        subscription,
      };
    },
  );

  if (!deps.testClock) return;
  api.route(
    {
      method: 'post',
      path: '/api/v1/payments/test/advance-clock',
      summary: "Test clock: bring the caller's subscription to its next billing moment",
      description:
        "Development only (TEST_CLOCK, refused in production). Moves the subscription's billing dates back so that its next due moment (the period end, an annual plan's next credit month, a failed renewal's next retry) is now, then runs that work as the renewal job would: renew and charge the card on file, retry, lapse to free, or end a cancelled plan.",
      tag: 'payments',
      auth: 'required',
      responses: { 200: ZTestClockAdvanceResponseSchema },
      errors: [409],
    },
    async ({ userId }) => {
      const { advancedTo, steps } = await renewals.advanceClock(userId);
      return {
        advanced_to: advancedTo.toISOString(),
        steps,
        subscription: await subscriptions.get(userId),
      };
    },
  );
}
