// The 30-day money-back guarantee in Stripe mode: refunds through the stripe SDK against
// stripe-mock (stripe-helpers.ts); Stripe declining a refund is played by a stand-in for Stripe's
// API that answers the refund call with Stripe's error, as Stripe words it.
import { MESSAGES } from '@studioshot/contracts';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, registerUser, type TestApp } from './helpers.js';
import { profileReaches } from './payments-helpers.js';
import {
  createStripeApp,
  deliver,
  invoice,
  monthlyPeriods,
  stripeEvent,
  subscription,
} from './stripe-helpers.js';

const apps: TestApp[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

async function stripeApp(overrides: Record<string, string> = {}) {
  const t = await createStripeApp(overrides);
  apps.push(t);
  return t;
}

const askRefund = (t: TestApp, token: string, paymentId: string, reason = 'not_satisfied') =>
  t.request
    .post('/api/v1/payments/refunds')
    .set(bearer(token))
    .send({ payment_id: paymentId, reason });

function intentSucceeded(intentId: string, amount: number) {
  return stripeEvent('payment_intent.succeeded', {
    id: intentId,
    object: 'payment_intent',
    amount,
    currency: 'usd',
    status: 'succeeded',
    metadata: {},
  });
}

async function paymentOf(t: TestApp, intentId: string) {
  return t.c.db
    .selectFrom('payments')
    .selectAll()
    .where('provider_intent_id', '=', intentId)
    .executeTakeFirstOrThrow();
}

/**
 * A credit pack paid in Stripe mode, recorded as the create call records it and paid by Stripe's
 * event: no call to Stripe's API, so it works whatever the app's Stripe answers.
 */
async function paidPack(t: TestApp) {
  const { tokens, res } = await registerUser(t);
  const intentId = `pi_${randomBytes(12).toString('hex')}`;
  await t.c.db
    .insertInto('payments')
    .values({
      user_id: res.body.user.id,
      provider: 'stripe',
      provider_intent_id: intentId,
      kind: 'credits',
      item_id: 'starter_pack',
      amount_cents: 999,
      currency: 'usd',
      status: 'pending',
    })
    .execute();
  await deliver(t, intentSucceeded(intentId, 999)).expect(200);
  await profileReaches(t, tokens.access_token, { credits_balance: 20 });
  return { token: tokens.access_token, payment: await paymentOf(t, intentId) };
}

/** Answers Stripe's refund call with the error Stripe gives a charge refunded elsewhere. */
async function stripeDecliningRefunds(): Promise<string> {
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.method === 'POST' && req.url === '/v1/refunds') {
      res.statusCode = 400;
      res.end(
        JSON.stringify({
          error: {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: 'Charge ch_3Studioshot has already been refunded.',
          },
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Not here' } }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the 30-day money-back guarantee in Stripe mode', () => {
  it('refunds a credit pack at Stripe and takes its credits back, once', async () => {
    const t = await stripeApp();
    const { tokens } = await registerUser(t);
    const token = tokens.access_token;
    const created = await t.request
      .post('/api/v1/payments/create-credit-package')
      .set(bearer(token))
      .send({ package_id: 'business_pack' })
      .expect(200);
    const intentId = created.body.payment_intent_id as string;
    await deliver(t, intentSucceeded(intentId, 4999)).expect(200);
    await profileReaches(t, token, { credits_balance: 150 });
    const payment = await paymentOf(t, intentId);

    const res = await askRefund(t, token, payment.id, 'technical_problem');
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({
      status: 'refunded',
      refund: { reason: 'technical_problem', credits_taken_back: 150 },
    });
    await profileReaches(t, token, { credits_balance: 0 });
    // Asked again: the same answer, nothing more taken.
    const again = await askRefund(t, token, payment.id);
    expect(again.status).toBe(200);
    expect(again.body.payment.refund.credits_taken_back).toBe(150);
  });

  it('ends the plan: the Stripe subscription is cancelled now and ours ends as refunded', async () => {
    const t = await stripeApp();
    const { tokens, res: user } = await registerUser(t);
    const token = tokens.access_token;
    const userId = user.body.user.id as string;
    const created = await t.request
      .post('/api/v1/payments/create-training-payment')
      .set(bearer(token))
      .send({ plan_name: 'Professional' })
      .expect(200);
    const sub = await t.c.db
      .selectFrom('stripe_subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const [period] = monthlyPeriods(0, 1);
    await deliver(
      t,
      stripeEvent(
        'invoice.paid',
        invoice({
          subscription: sub.id,
          period: period!,
          amount: 1999,
          billingReason: 'subscription_create',
          paid: true,
        }),
      ),
    ).expect(200);
    await profileReaches(t, token, { plan_type: 'professional', credits_balance: 8 });
    const payment = await paymentOf(t, created.body.payment_intent_id as string);

    expect((await askRefund(t, token, payment.id, 'not_like_me')).status).toBe(200);
    await profileReaches(t, token, { plan_type: 'free', credits_balance: 0 });
    const stripeRow = await t.c.db
      .selectFrom('stripe_subscriptions')
      .select('status')
      .where('id', '=', sub.id)
      .executeTakeFirstOrThrow();
    expect(stripeRow.status).toBe('canceled');
    // Stripe's own word of the cancellation comes later and changes nothing.
    await deliver(
      t,
      stripeEvent(
        'customer.subscription.deleted',
        subscription({ id: sub.id, status: 'canceled', period: period! }),
      ),
    ).expect(200);
    const ours = await t.c.db
      .selectFrom('subscriptions')
      .select(['status', 'ended_reason'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(ours).toEqual({ status: 'ended', ended_reason: 'refunded' });
  });

  it('Stripe declines the refund: its reason is told, and nothing changes', async () => {
    const t = await stripeApp({ STRIPE_API_BASE: await stripeDecliningRefunds() });
    const { token, payment } = await paidPack(t);
    const res = await askRefund(t, token, payment.id);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(
      `${MESSAGES.refundRefused} Charge ch_3Studioshot has already been refunded.`,
    );
    expect((await paymentOf(t, payment.provider_intent_id)).status).toBe('succeeded');
    await profileReaches(t, token, { credits_balance: 20 });
  });

  it('Stripe cannot be reached: 503, and nothing changes', async () => {
    const t = await stripeApp({ STRIPE_API_BASE: 'http://127.0.0.1:9' });
    const { token, payment } = await paidPack(t);
    const res = await askRefund(t, token, payment.id);
    expect(res.status).toBe(503);
    expect(res.body.detail).toBe(MESSAGES.refundFailed);
    const row = await paymentOf(t, payment.provider_intent_id);
    expect(row).toMatchObject({ status: 'succeeded', refund_reason: null });
    await profileReaches(t, token, { credits_balance: 20 });
  });
});
