import {
  MESSAGES,
  ZConfirmAdditionalTrainingRequestSchema,
  ZConfirmRequestSchema,
  ZCreateCreditPackageRequestSchema,
  ZCreateCreditPaymentRequestSchema,
  ZCreateGenerationPaymentRequestSchema,
  ZCreateTrainingPaymentRequestSchema,
  ZCreateTrainingPurchaseRequestSchema,
  ZCreateUpgradeRequestSchema,
  ZTestCardConfirmRequestSchema,
} from '@studioshot/contracts';
import express, { Router, type Request, type RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import { authOf } from '../middleware/auth.js';
import { parse } from '../middleware/validate.js';
import type { TestPaymentProvider } from '../repositories/payment-providers/test-provider.js';
import type { PaymentsService } from '../services/payments.service.js';
import type { SubscriptionsService } from '../services/subscriptions.service.js';

/** A client's Idempotency-Key makes a retried create call answer the same intent. */
function requestKey(req: Request): string {
  const key = req.get('Idempotency-Key');
  return key && /^[A-Za-z0-9_-]{8,64}$/.test(key) ? key : randomUUID();
}

/** Stripe posts raw JSON whose exact bytes are signed: mounted before the JSON parser. */
export function paymentsWebhookRoute(payments: PaymentsService): Router {
  const router = Router();
  router.post(
    '/api/v1/payments/webhook',
    express.raw({ type: '*/*', limit: '1mb' }),
    async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      await payments.handleWebhook(body, req.get('Stripe-Signature'));
      res.json({ received: true });
    },
  );
  return router;
}

export function paymentsRoutes(deps: {
  payments: PaymentsService;
  subscriptions: SubscriptionsService;
  testProvider?: TestPaymentProvider;
  requireAuth: RequestHandler;
}): Router {
  const { payments, subscriptions, requireAuth } = deps;
  const router = Router();

  router.get('/api/v1/payments/pricing', (_req, res) => {
    res.json(payments.pricing());
  });

  router.post('/api/v1/payments/create-credit-payment', requireAuth, async (req, res) => {
    const { credit_pack_id } = parse(ZCreateCreditPaymentRequestSchema, req.body);
    res.json(
      await payments.createCreditPayment(authOf(req).userId, credit_pack_id, requestKey(req)),
    );
  });
  router.post('/api/v1/payments/create-credit-package', requireAuth, async (req, res) => {
    const { package_id } = parse(ZCreateCreditPackageRequestSchema, req.body);
    res.json(await payments.createCreditPayment(authOf(req).userId, package_id, requestKey(req)));
  });
  router.post('/api/v1/payments/create-training-payment', requireAuth, async (req, res) => {
    const body = parse(ZCreateTrainingPaymentRequestSchema, req.body);
    res.json(await payments.createTrainingPayment(authOf(req).userId, body, requestKey(req)));
  });
  router.post('/api/v1/payments/create-training-purchase', requireAuth, async (req, res) => {
    const { quantity } = parse(ZCreateTrainingPurchaseRequestSchema, req.body);
    res.json(await payments.createTrainingPurchase(authOf(req).userId, quantity, requestKey(req)));
  });
  router.post('/api/v1/payments/create-upgrade', requireAuth, async (req, res) => {
    const { plan_id } = parse(ZCreateUpgradeRequestSchema, req.body);
    res.json(await payments.createUpgrade(authOf(req).userId, plan_id, requestKey(req)));
  });
  router.post('/api/v1/users/create-payment-intent', requireAuth, async (req, res) => {
    parse(ZCreateGenerationPaymentRequestSchema, req.body);
    res.json(await payments.createGenerationPayment(authOf(req).userId, requestKey(req)));
  });

  router.post('/api/v1/payments/confirm-credit-package', requireAuth, async (req, res) => {
    const { payment_intent_id } = parse(ZConfirmRequestSchema, req.body);
    const outcome = await payments.confirm(authOf(req).userId, payment_intent_id, ['credits']);
    res.json({ credits_added: outcome.creditsAwarded, new_credits_balance: outcome.newBalance });
  });
  router.post('/api/v1/payments/confirm-payment', requireAuth, async (req, res) => {
    const { payment_intent_id } = parse(ZConfirmRequestSchema, req.body);
    const outcome = await payments.confirm(authOf(req).userId, payment_intent_id, [
      'credits',
      'subscription',
      'upgrade',
      'training_slots',
      'generation',
    ]);
    res.json({
      message: 'Payment confirmed',
      kind: outcome.kind,
      credits_awarded: outcome.creditsAwarded,
      new_credits_balance: outcome.newBalance,
      plan_type: outcome.planType,
      training_limit: outcome.trainingLimit,
    });
  });
  router.post('/api/v1/payments/confirm-plan-subscription', requireAuth, async (req, res) => {
    const { payment_intent_id } = parse(ZConfirmRequestSchema, req.body);
    const outcome = await payments.confirm(authOf(req).userId, payment_intent_id, [
      'subscription',
      'upgrade',
    ]);
    res.json({
      message: `Your ${outcome.planType} plan is active. ${MESSAGES.trainingUploadNext}`,
      plan_type: outcome.planType,
      training_limit: outcome.trainingLimit,
      credits_awarded: outcome.creditsAwarded,
    });
  });
  router.post('/api/v1/payments/confirm-additional-training', requireAuth, async (req, res) => {
    const body = parse(ZConfirmAdditionalTrainingRequestSchema, req.body);
    const outcome = await payments.confirm(
      authOf(req).userId,
      body.payment_intent_id,
      ['training_slots'],
      {
        itemId: body.pack_id,
        amountCents: body.amount,
      },
    );
    res.json({
      message: `Training slots added: you can now train ${outcome.trainingLimit} model${outcome.trainingLimit === 1 ? '' : 's'}. ${MESSAGES.trainingUploadNext}`,
      training_limit: outcome.trainingLimit,
    });
  });

  router.get('/api/v1/payments/subscription', requireAuth, async (req, res) => {
    res.json(await subscriptions.get(authOf(req).userId));
  });
  router.post('/api/v1/payments/cancel-subscription', requireAuth, async (req, res) => {
    res.json(await subscriptions.cancel(authOf(req).userId));
  });
  router.post('/api/v1/payments/reactivate-subscription', requireAuth, async (req, res) => {
    res.json(await subscriptions.reactivate(authOf(req).userId));
  });

  const testProvider = deps.testProvider;
  if (testProvider) {
    // Test mode only: the stand-in for Stripe.js attaching a card to an intent.
    router.post('/api/v1/payments/test/confirm-card', requireAuth, async (req, res) => {
      const body = parse(ZTestCardConfirmRequestSchema, req.body);
      const intent = await testProvider.confirmCard(
        body.payment_intent_id,
        body.client_secret,
        body.card,
      );
      res.json({ payment_intent_id: intent.id, status: 'succeeded' });
    });
  }

  return router;
}
