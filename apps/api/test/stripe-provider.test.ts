// The Stripe provider's one-off purchases: the stripe SDK against stripe-mock (stripe-helpers.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';
import { profileOf } from './payments-helpers.js';
import {
  createStripeApp,
  deliver,
  PUBLISHABLE_KEY,
  stripeEvent,
  WEBHOOK_SECRET,
} from './stripe-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createStripeApp();
});
afterAll(() => t.close());

function succeeded(intent: { id: string; amount: number }) {
  return stripeEvent('payment_intent.succeeded', {
    id: intent.id,
    object: 'payment_intent',
    amount: intent.amount,
    currency: 'usd',
    status: 'succeeded',
    metadata: {},
  });
}

describe('the stripe provider (against stripe-mock)', () => {
  it('publishes the mode and the publishable key for the card form', async () => {
    const pricing = await t.request.get('/api/v1/payments/pricing');
    expect(pricing.body).toMatchObject({
      test_mode: false,
      stripe_publishable_key: PUBLISHABLE_KEY,
    });
  });

  it('buys a credit pack with a PaymentIntent: granted once paid, once however often told', async () => {
    const { tokens, res } = await registerUser(t);
    const token = tokens.access_token;
    const created = await t.request
      .post('/api/v1/payments/create-credit-package')
      .set(bearer(token))
      .send({ package_id: 'business_pack' });
    expect(created.status).toBe(200);
    // stripe-mock validated the request and made a PaymentIntent of our amount.
    expect(created.body).toMatchObject({
      payment_intent_id: expect.stringMatching(/^pi_/),
      client_secret: expect.stringContaining('_secret_'),
      amount: 4999,
      currency: 'usd',
    });
    const intentId = created.body.payment_intent_id as string;
    const payment = await t.c.db
      .selectFrom('payments')
      .selectAll()
      .where('provider_intent_id', '=', intentId)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      user_id: res.body.user.id,
      provider: 'stripe',
      kind: 'credits',
      item_id: 'business_pack',
      amount_cents: 4999,
      status: 'pending',
    });

    // There is no test card endpoint in Stripe mode: Stripe.js takes the card.
    const testCard = await t.request
      .post('/api/v1/payments/test/confirm-card')
      .set(bearer(token))
      .send({});
    expect(testCard.status).toBe(404);

    // Stripe (stripe-mock) says the intent is not paid yet: nothing is granted, and the answer
    // says the card step has to pay it (Stripe mode never pays with a test card).
    const early = await t.request
      .post('/api/v1/payments/confirm-credit-package')
      .set(bearer(token))
      .send({ payment_intent_id: intentId });
    expect([early.status, early.body.code]).toEqual([402, 'payment_required']);

    // Stripe reports it paid; the same event again, and a confirm call, grant nothing more.
    const event = succeeded({ id: intentId, amount: 4999 });
    expect((await deliver(t, event)).status).toBe(200);
    expect((await deliver(t, event)).status).toBe(200);
    const confirmed = await t.request
      .post('/api/v1/payments/confirm-credit-package')
      .set(bearer(token))
      .send({ payment_intent_id: intentId });
    expect(confirmed.body).toEqual({ credits_added: 150, new_credits_balance: 150 });
    expect((await profileOf(t, token)).credits_balance).toBe(150);
    const recorded = await t.c.db
      .selectFrom('stripe_events')
      .select(['id', 'processed_at'])
      .where('id', '=', event.id)
      .execute();
    expect(recorded).toEqual([{ id: event.id, processed_at: expect.any(Date) }]);
  });

  it('the same event delivered many times at once is handled by one delivery', async () => {
    const { tokens } = await registerUser(t);
    const created = await t.request
      .post('/api/v1/payments/create-credit-package')
      .set(bearer(tokens.access_token))
      .send({ package_id: 'starter_pack' });
    const event = succeeded({ id: created.body.payment_intent_id, amount: 999 });
    const statuses = await Promise.all(
      Array.from({ length: 8 }, async () => (await deliver(t, event)).status),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect((await profileOf(t, tokens.access_token)).credits_balance).toBe(20);
  });

  it('tells the user plainly when Stripe cannot be reached, and records nothing', async () => {
    const unreachable = await createTestApp({
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_unreachable',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      STRIPE_API_BASE: 'http://127.0.0.1:9',
    });
    try {
      const other = await registerUser(unreachable);
      const res = await unreachable.request
        .post('/api/v1/payments/create-credit-package')
        .set(bearer(other.tokens.access_token))
        .send({ package_id: 'starter_pack' });
      expect(res.status).toBe(503);
      expect(res.body.detail).toBe('Failed to create credit payment');
      expect(await unreachable.c.db.selectFrom('payments').selectAll().execute()).toHaveLength(0);
    } finally {
      await unreachable.close();
    }
  });
});
