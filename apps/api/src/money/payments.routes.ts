import {
  MESSAGES,
  ZCancelSubscriptionResponseSchema,
  ZConfirmAdditionalTrainingRequestSchema,
  ZConfirmAdditionalTrainingResponseSchema,
  ZConfirmCreditPackageResponseSchema,
  ZConfirmPaymentResponseSchema,
  ZConfirmPlanSubscriptionResponseSchema,
  ZConfirmRequestSchema,
  ZCreateCreditPackageRequestSchema,
  ZCreateCreditPaymentRequestSchema,
  ZCreateGenerationPaymentRequestSchema,
  ZCreateTrainingPaymentRequestSchema,
  ZCreateTrainingPurchaseRequestSchema,
  ZCreateUpgradeRequestSchema,
  ZPaymentIntentResponseSchema,
  ZPricingResponseSchema,
  ZReactivateSubscriptionResponseSchema,
  ZSubscriptionResponseSchema,
  ZTestCardConfirmRequestSchema,
  ZTestCardConfirmResponseSchema,
  ZWebhookReceivedResponseSchema,
  ZBillingHistoryResponseSchema,
  ZPaymentIntentDetailsResponseSchema,
  ZPaymentIntentPathSchema,
  ZReceiptPathSchema,
  ZReceiptResponseSchema,
  ZRefundRequestSchema,
  ZRefundResponseSchema,
  ZUpgradeIntentResponseSchema,
  ZUpgradeQuoteQuerySchema,
  ZUpgradeQuoteResponseSchema,
} from '@studioshot/contracts';
import express from 'express';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { DeclaringRouter, RouteSpec } from '../http/declare.js';
import type { TestPaymentProvider } from './payment-providers/test-provider.js';
import type { BillingService } from './billing.service.js';
import type { CheckoutService } from './checkout.service.js';
import type { FulfilmentService } from './fulfilment.service.js';
import type { RefundsService } from './refunds.service.js';
import type { StripeIntakeService } from './stripe-intake.service.js';
import type { SubscriptionsService } from './subscriptions.service.js';

const REQUEST_KEY = 'Idempotency-Key';

/** A client's Idempotency-Key makes a retried create call answer the same intent. */
const requestKeyHeader = z.object({
  [REQUEST_KEY]: z
    .string()
    .optional()
    .describe(
      'A retried create call with the same key (8-64 letters, digits, - or _) answers the same intent; any other value is ignored',
    ),
});
function requestKey(headers: { [REQUEST_KEY]?: string | undefined }): string {
  const key = headers[REQUEST_KEY];
  return key && /^[A-Za-z0-9_-]{8,64}$/.test(key) ? key : randomUUID();
}

/** What the calls that create a PaymentIntent declare alike. */
const CREATE = {
  method: 'post',
  tag: 'payments',
  auth: 'required',
  headers: requestKeyHeader,
  responses: { 200: ZPaymentIntentResponseSchema },
  // 404: no such pack, plan or offer.
  errors: [400, 404, 409, 503],
} as const satisfies Omit<RouteSpec, 'path' | 'summary'>;

/** What the confirm calls declare alike. */
const CONFIRM = {
  method: 'post',
  tag: 'payments',
  auth: 'required',
  description:
    "Applies the purchase once, however many times it is confirmed (and whatever order the webhook comes in). Another user's payment is answered like a missing one. An intent the card step has not paid answers 402 with the reason; one the bank is still processing 409 with Retry-After. In test mode (CONFIRM_PAYS_WITH_TEST_CARD, on by default outside production and refused in production) the confirm pays an unpaid intent with Stripe's success test card first, as the spec's simulated card form does.",
  errors: [400, 402, 404, 409],
} as const satisfies Omit<RouteSpec, 'path' | 'summary' | 'responses'>;

/** Stripe posts raw JSON whose exact bytes are signed: mounted before the JSON parser. */
export function paymentsWebhookRoute(
  api: DeclaringRouter,
  /** Absent when no webhook secret is configured: every delivery is then refused. */
  webhooks: StripeIntakeService | undefined,
): void {
  api.route(
    {
      method: 'post',
      path: '/api/v1/payments/webhook',
      summary: "The payment provider's events (Stripe-signed)",
      description:
        'The signature is verified on the raw body before anything else; a verified event is handled once however many times it comes, and in any order (503 for one that must wait for an earlier one: Stripe delivers it again).',
      tag: 'payments',
      auth: 'none',
      headers: z.object({ 'Stripe-Signature': z.string().optional() }),
      before: [express.raw({ type: '*/*', limit: '1mb' })],
      body: { schema: z.looseObject({}), validate: false },
      responses: { 200: ZWebhookReceivedResponseSchema },
      errors: [400, 503],
    },
    async ({ req, headers }) => {
      if (!webhooks) throw new AppError('invalid_signature', MESSAGES.invalidWebhookSignature);
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      await webhooks.receive(body, headers['Stripe-Signature']);
      return { received: true as const };
    },
  );
}

export function paymentsRoutes(
  api: DeclaringRouter,
  deps: {
    checkout: CheckoutService;
    fulfilment: FulfilmentService;
    subscriptions: SubscriptionsService;
    billing: BillingService;
    refunds: RefundsService;
    testProvider?: TestPaymentProvider;
  },
): void {
  const { checkout, fulfilment, subscriptions, billing, refunds } = deps;

  api.route(
    {
      method: 'get',
      path: '/api/v1/payments/pricing',
      summary: 'Plans, credit packages, training packs and upgrade offers',
      tag: 'payments',
      auth: 'none',
      responses: { 200: ZPricingResponseSchema },
    },
    () => checkout.pricing(),
  );

  api.route(
    {
      ...CREATE,
      path: '/api/v1/payments/create-credit-payment',
      summary: 'A PaymentIntent for a credit pack',
      description:
        "Differs from the contract: the pricing page's packs (`credits_10`, `credits_25`, `credits_50`) answer 409 with the Coming Soon message, because that page marks them Coming Soon; the credits page's packages are for sale here.",
      body: ZCreateCreditPaymentRequestSchema,
    },
    ({ userId, body, headers }) =>
      checkout.createCreditPayment(userId, body.credit_pack_id, requestKey(headers)),
  );
  api.route(
    {
      ...CREATE,
      path: '/api/v1/payments/create-credit-package',
      summary: 'A PaymentIntent for a credit package',
      body: ZCreateCreditPackageRequestSchema,
    },
    ({ userId, body, headers }) =>
      checkout.createCreditPayment(userId, body.package_id, requestKey(headers)),
  );
  api.route(
    {
      ...CREATE,
      path: '/api/v1/payments/create-training-payment',
      summary: 'A PaymentIntent for a plan (by name), or for one training at the training fee',
      body: ZCreateTrainingPaymentRequestSchema,
    },
    ({ userId, body, headers }) =>
      checkout.createTrainingPayment(userId, body, requestKey(headers)),
  );
  api.route(
    {
      ...CREATE,
      path: '/api/v1/payments/create-training-purchase',
      summary: 'A PaymentIntent for a training pack',
      body: ZCreateTrainingPurchaseRequestSchema,
    },
    ({ userId, body, headers }) =>
      checkout.createTrainingPurchase(userId, body.quantity, requestKey(headers)),
  );
  api.route(
    {
      ...CREATE,
      path: '/api/v1/payments/create-upgrade',
      summary:
        'A PaymentIntent for an upgrade to a higher plan, prorated for the rest of the period',
      description:
        'A subscriber pays (new price - old price) x the part of the current period left, and keeps the period; with no running subscription the plan is bought as a new one (proration null). A lower or equal plan is refused (409), as is a current_plan the account is no longer on.',
      body: ZCreateUpgradeRequestSchema,
      responses: { 200: ZUpgradeIntentResponseSchema },
    },
    ({ userId, body, headers }) => checkout.createUpgrade(userId, body, requestKey(headers)),
  );
  api.route(
    {
      method: 'get',
      path: '/api/v1/payments/upgrade-quote',
      summary: 'What create-upgrade would charge now, and how it is reached; stores nothing',
      description:
        "The checkout shows this before Pay: the same pricing and refusals as create-upgrade (404 for no such plan, 409 for a lower or equal plan or a current_plan the account is no longer on), but no intent and no payment is made. A prorated amount moves with time: create-upgrade's answer is what is charged.",
      tag: 'payments',
      auth: 'required',
      query: ZUpgradeQuoteQuerySchema,
      responses: { 200: ZUpgradeQuoteResponseSchema },
      errors: [404, 409],
    },
    ({ userId, query }) => checkout.quoteUpgrade(userId, query.plan_id, query.current_plan),
  );
  api.route(
    {
      method: 'get',
      path: '/api/v1/payments/intents/:payment_intent_id',
      summary: 'A created PaymentIntent of the caller, to resume paying it',
      description:
        "What /payment?payment_intent= resumes: the intent's client secret and amount, what it is for, and whether it still needs paying. Another user's intent is answered like a missing one.",
      tag: 'payments',
      auth: 'required',
      params: ZPaymentIntentPathSchema,
      notFound: { params: MESSAGES.paymentNotFound },
      responses: { 200: ZPaymentIntentDetailsResponseSchema },
      errors: [503],
    },
    ({ userId, params }) => billing.intent(userId, params.payment_intent_id),
  );
  api.route(
    {
      method: 'get',
      path: '/api/v1/payments/history',
      summary: "The caller's payments and renewals, newest first",
      description:
        'Amounts, dates, what each granted and its status (paid, refunded, failed); created intents never paid are not payments and are left out.',
      tag: 'payments',
      auth: 'required',
      responses: { 200: ZBillingHistoryResponseSchema },
    },
    ({ userId }) => billing.history(userId),
  );
  api.route(
    {
      method: 'get',
      path: '/api/v1/payments/receipts/:id',
      summary: "The receipt of one of the caller's payments",
      description:
        "Only the payment's owner gets it; anyone else, a failed attempt and an unknown id get 404.",
      tag: 'payments',
      auth: 'required',
      params: ZReceiptPathSchema,
      notFound: { params: MESSAGES.receiptNotFound },
      responses: { 200: ZReceiptResponseSchema },
    },
    ({ userId, params }) => billing.receipt(userId, params.id),
  );
  api.route(
    {
      method: 'post',
      path: '/api/v1/payments/refunds',
      summary: "Refund one of the caller's payments (the 30-day money-back guarantee)",
      description:
        'Any payment paid less than 30 days ago, with a reason. The money goes back at the provider; the unspent credits the payment granted are taken back, training slots it bought and not used go, and a plan it paid for ends now. Once per payment: asking again answers the refunded payment and changes nothing. 409 after 30 days, for a payment not completed, or when the provider refuses (its reason in the detail); 503 when the provider cannot be reached (nothing changed: ask again).',
      tag: 'payments',
      auth: 'required',
      body: ZRefundRequestSchema,
      responses: { 200: ZRefundResponseSchema },
      errors: [400, 404, 409, 503],
    },
    ({ userId, body }) => refunds.request(userId, body.payment_id, body.reason),
  );
  api.route(
    {
      ...CREATE,
      path: '/api/v1/users/create-payment-intent',
      summary: 'A PaymentIntent for the post-payment page: one generation',
      description:
        'Differs from the contract: it requires sign-in (the contract sends it without authentication), because the $29 order is bound to the account that pays for and receives the generation.',
      body: ZCreateGenerationPaymentRequestSchema,
    },
    ({ userId, headers }) => checkout.createGenerationPayment(userId, requestKey(headers)),
  );

  api.route(
    {
      ...CONFIRM,
      path: '/api/v1/payments/confirm-credit-package',
      summary: 'Confirm a credit purchase: the credits are added',
      body: ZConfirmRequestSchema,
      responses: { 200: ZConfirmCreditPackageResponseSchema },
    },
    async ({ userId, body }) => {
      const outcome = await fulfilment.confirm(userId, body.payment_intent_id, ['credits']);
      return { credits_added: outcome.creditsAwarded, new_credits_balance: outcome.newBalance };
    },
  );
  api.route(
    {
      ...CONFIRM,
      path: '/api/v1/payments/confirm-payment',
      summary: 'Confirm any purchase',
      body: ZConfirmRequestSchema,
      responses: { 200: ZConfirmPaymentResponseSchema },
    },
    async ({ userId, body }) => {
      const outcome = await fulfilment.confirm(userId, body.payment_intent_id, [
        'credits',
        'subscription',
        'upgrade',
        'training_slots',
        'generation',
      ]);
      return {
        message: 'Payment confirmed',
        kind: outcome.kind,
        credits_awarded: outcome.creditsAwarded,
        new_credits_balance: outcome.newBalance,
        plan_type: outcome.planType,
        training_limit: outcome.trainingLimit,
      };
    },
  );
  api.route(
    {
      ...CONFIRM,
      path: '/api/v1/payments/confirm-plan-subscription',
      summary: 'Confirm a plan subscription or upgrade',
      body: ZConfirmRequestSchema,
      responses: { 200: ZConfirmPlanSubscriptionResponseSchema },
    },
    async ({ userId, body }) => {
      const outcome = await fulfilment.confirm(userId, body.payment_intent_id, [
        'subscription',
        'upgrade',
      ]);
      return {
        message: `Your ${outcome.planType} plan is active. ${MESSAGES.trainingUploadNext}`,
        plan_type: outcome.planType,
        training_limit: outcome.trainingLimit,
        credits_awarded: outcome.creditsAwarded,
      };
    },
  );
  api.route(
    {
      ...CONFIRM,
      path: '/api/v1/payments/confirm-additional-training',
      summary: 'Confirm a training pack: the training slots are added',
      body: ZConfirmAdditionalTrainingRequestSchema,
      responses: { 200: ZConfirmAdditionalTrainingResponseSchema },
    },
    async ({ userId, body }) => {
      const outcome = await fulfilment.confirm(userId, body.payment_intent_id, ['training_slots'], {
        itemId: body.pack_id,
        amountCents: body.amount,
      });
      return {
        message: `Training slots added: you can now train ${outcome.trainingLimit} model${outcome.trainingLimit === 1 ? '' : 's'}. ${MESSAGES.trainingUploadNext}`,
        training_limit: outcome.trainingLimit,
      };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/payments/subscription',
      summary: "The user's subscription",
      tag: 'payments',
      auth: 'required',
      responses: { 200: ZSubscriptionResponseSchema },
    },
    ({ userId }) => subscriptions.get(userId),
  );
  api.route(
    {
      method: 'post',
      path: '/api/v1/payments/cancel-subscription',
      summary: 'Cancel at the end of the period (the plan and the credits stay until then)',
      tag: 'payments',
      auth: 'required',
      responses: { 200: ZCancelSubscriptionResponseSchema },
      errors: [409],
    },
    ({ userId }) => subscriptions.cancel(userId),
  );
  api.route(
    {
      method: 'post',
      path: '/api/v1/payments/reactivate-subscription',
      summary: 'Keep a subscription that is being cancelled',
      tag: 'payments',
      auth: 'required',
      responses: { 200: ZReactivateSubscriptionResponseSchema },
      errors: [409],
    },
    ({ userId }) => subscriptions.reactivate(userId),
  );

  const testProvider = deps.testProvider;
  if (testProvider) {
    // Test mode only: the stand-in for Stripe.js attaching a card to an intent.
    api.route(
      {
        method: 'post',
        path: '/api/v1/payments/test/confirm-card',
        summary: 'Test payments only: pay an intent with a test card, as Stripe.js would',
        description:
          "Served only with the test payment provider. 4242 4242 4242 4242 succeeds; Stripe's decline test cards are declined (402).",
        tag: 'payments',
        auth: 'required',
        body: ZTestCardConfirmRequestSchema,
        responses: { 200: ZTestCardConfirmResponseSchema },
        errors: [400, 402, 404, 409],
      },
      async ({ body }) => {
        const intent = await testProvider.confirmCard(
          body.payment_intent_id,
          body.client_secret,
          body.card,
        );
        return { payment_intent_id: intent.id, status: 'succeeded' as const };
      },
    );
  }
}
