import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';
import { profileOf } from './payments-helpers.js';

const WEBHOOK_SECRET = 'whsec_stripe_mode_secret_42';

/** Plays Stripe's API at the HTTP boundary: the one third party we cannot reach from tests. */
interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
}
const intents = new Map<string, FakeIntent>();
const createRequests: { body: Record<string, string>; idempotencyKey?: string; auth?: string }[] =
  [];
let server: Server;
let t: TestApp;

beforeAll(async () => {
  const fake = express();
  fake.use(express.urlencoded({ extended: false }));
  fake.post('/v1/payment_intents', (req, res) => {
    const body = req.body as Record<string, string>;
    createRequests.push({
      body,
      idempotencyKey: req.get('Idempotency-Key'),
      auth: req.get('Authorization'),
    });
    const id = `pi_fake_${intents.size + 1}`;
    const metadata = Object.fromEntries(
      Object.entries(body)
        .filter(([k]) => k.startsWith('metadata['))
        .map(([k, v]) => [k.slice(9, -1), v]),
    );
    const intent: FakeIntent = {
      id,
      object: 'payment_intent',
      amount: Number(body.amount),
      currency: body.currency ?? '',
      status: 'requires_payment_method',
      client_secret: `${id}_secret_x`,
      metadata,
    };
    intents.set(id, intent);
    res.json(intent);
  });
  fake.get('/v1/payment_intents/:id', (req, res) => {
    const intent = intents.get(req.params.id);
    if (!intent) {
      res
        .status(404)
        .json({ error: { type: 'invalid_request_error', message: 'No such payment_intent' } });
      return;
    }
    res.json(intent);
  });
  server = await new Promise<Server>((resolve) => {
    const s = fake.listen(0, '127.0.0.1', () => resolve(s));
  });
  t = await createTestApp({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_fake_key',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('the stripe provider', () => {
  it('creates a PaymentIntent in cents with metadata and an idempotency key, and grants only once paid', async () => {
    const { tokens, res } = await registerUser(t);
    const token = tokens.access_token;
    const created = await t.request
      .post('/api/v1/payments/create-credit-package')
      .set(bearer(token))
      .send({ package_id: 'business_pack' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      amount: 4999,
      currency: 'usd',
      client_secret: expect.stringContaining('_secret_'),
    });

    const request = createRequests.at(-1)!;
    expect(request.auth).toBe('Bearer sk_test_fake_key');
    expect(request.body).toMatchObject({
      amount: '4999',
      currency: 'usd',
      'metadata[user_id]': res.body.user.id,
      'metadata[kind]': 'credits',
      'metadata[item_id]': 'business_pack',
    });
    expect(request.body['metadata[payment_id]']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.idempotencyKey).toBeTruthy();

    // There is no test card endpoint in stripe mode: Stripe.js does that part.
    const testCard = await t.request
      .post('/api/v1/payments/test/confirm-card')
      .set(bearer(token))
      .send({});
    expect(testCard.status).toBe(404);

    const id = created.body.payment_intent_id as string;
    const early = await t.request
      .post('/api/v1/payments/confirm-credit-package')
      .set(bearer(token))
      .send({ payment_intent_id: id });
    expect(early.status).toBe(409);

    intents.get(id)!.status = 'succeeded';
    const confirmed = await t.request
      .post('/api/v1/payments/confirm-credit-package')
      .set(bearer(token))
      .send({ payment_intent_id: id });
    expect(confirmed.body).toEqual({ credits_added: 150, new_credits_balance: 150 });

    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: intents.get(id) },
    });
    const signature = new Stripe('sk_test_unused').webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
    });
    const hook = await t.request
      .post('/api/v1/payments/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload);
    expect(hook.status).toBe(200);
    expect((await profileOf(t, token)).credits_balance).toBe(150);
  });

  it('tells the user plainly when Stripe cannot be reached', async () => {
    const { tokens } = await registerUser(t);
    const unreachable = await createTestApp({
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_fake_key',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
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
    expect(tokens.access_token).toBeTruthy();
  });
});
