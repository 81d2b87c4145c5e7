import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';
import {
  countRows,
  createIntent,
  payWithCard,
  profileReaches,
  type Intent,
} from './payments-helpers.js';

const SECRET = 'whsec_test_webhook_secret_0123456789';
const stripe = new Stripe('sk_test_unused');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ STRIPE_WEBHOOK_SECRET: SECRET });
});
afterAll(() => t.close());

function succeededEvent(
  intent: Pick<Intent, 'payment_intent_id' | 'amount' | 'currency'>,
  id = `evt_${Math.random().toString(36).slice(2)}`,
) {
  return JSON.stringify({
    id,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: intent.payment_intent_id,
        object: 'payment_intent',
        amount: intent.amount,
        currency: intent.currency,
        status: 'succeeded',
        metadata: {},
      },
    },
  });
}

function sign(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  return stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
  });
}

const deliver = (payload: string, signature?: string) => {
  const req = t.request.post('/api/v1/payments/webhook').set('Content-Type', 'application/json');
  return (signature ? req.set('Stripe-Signature', signature) : req).send(payload);
};

async function pendingCreditIntent(token: string, pack = 'starter_pack') {
  return createIntent(t, token, '/api/v1/payments/create-credit-package', { package_id: pack });
}

describe('POST /api/v1/payments/webhook', () => {
  it('fulfils a verified payment_intent.succeeded event', async () => {
    const { tokens } = await registerUser(t);
    const intent = await pendingCreditIntent(tokens.access_token);
    const payload = succeededEvent(intent);
    const res = await deliver(payload, sign(payload));
    expect(res.status).toBe(200);
    await profileReaches(t, tokens.access_token, { credits_balance: 20 });
  });

  it.each([
    [
      'forged (wrong secret)',
      (p: string) => ({ payload: p, signature: sign(p, { secret: 'whsec_attacker' }) }),
    ],
    [
      'tampered after signing',
      (p: string) => ({ payload: p.replace('"amount":999', '"amount":1'), signature: sign(p) }),
    ],
    [
      're-serialised',
      (p: string) => ({ payload: JSON.stringify(JSON.parse(p), null, 2), signature: sign(p) }),
    ],
    [
      'stale (over 5 minutes old)',
      (p: string) => ({
        payload: p,
        signature: sign(p, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      }),
    ],
    ['unsigned', (p: string) => ({ payload: p, signature: undefined })],
    ['signed garbage header', (p: string) => ({ payload: p, signature: 't=1,v1=deadbeef' })],
  ])('rejects a %s payload with 400 and writes nothing', async (_label, make) => {
    const { tokens } = await registerUser(t);
    const intent = await pendingCreditIntent(tokens.access_token);
    const { payload, signature } = make(succeededEvent(intent));
    const before = await countRows(t);
    const res = await deliver(payload, signature);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Invalid webhook signature', code: 'invalid_signature' });
    expect(await countRows(t)).toEqual(before);
    await profileReaches(t, tokens.access_token, { credits_balance: 0 });
    const payment = await t.c.db
      .selectFrom('payments')
      .select(['status', 'fulfilled_at'])
      .where('provider_intent_id', '=', intent.payment_intent_id)
      .executeTakeFirstOrThrow();
    expect(payment).toEqual({ status: 'pending', fulfilled_at: null });
  });

  it('ignores a verified event whose amount does not match the payment', async () => {
    const { tokens } = await registerUser(t);
    const intent = await pendingCreditIntent(tokens.access_token);
    const payload = succeededEvent({ ...intent, amount: 1 });
    expect((await deliver(payload, sign(payload))).status).toBe(200);
    await profileReaches(t, tokens.access_token, { credits_balance: 0 });
  });

  it('acknowledges events for unknown intents and other event types', async () => {
    const unknown = succeededEvent({
      payment_intent_id: 'pi_unknown',
      amount: 100,
      currency: 'usd',
    });
    expect((await deliver(unknown, sign(unknown))).status).toBe(200);
    const other = JSON.stringify({
      id: 'evt_x',
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    });
    expect((await deliver(other, sign(other))).status).toBe(200);
  });
});

describe('exactly-once fulfilment', () => {
  it('200 payments, each event delivered 3 times, shuffled, concurrent, mixed with confirm calls: credits granted equal credits paid', async () => {
    const PAYMENTS = 200;
    const packs = [
      ['starter_pack', 20],
      ['professional_pack', 60],
      ['business_pack', 150],
      ['enterprise_pack', 350],
    ] as const;
    const users = await Promise.all(Array.from({ length: 4 }, () => registerUser(t)));
    const bought: { token: string; intent: Intent; credits: number }[] = [];
    for (let i = 0; i < PAYMENTS; i += 1) {
      const user = users[i % users.length]!;
      const [pack, credits] = packs[i % packs.length]!;
      const intent = await pendingCreditIntent(user.tokens.access_token, pack);
      await payWithCard(t, user.tokens.access_token, intent).expect(200);
      bought.push({ token: user.tokens.access_token, intent, credits });
    }
    const jobs: (() => Promise<number>)[] = [];
    for (const { token, intent } of bought) {
      const payload = succeededEvent(intent, `evt_${intent.payment_intent_id}`);
      for (let d = 0; d < 3; d += 1)
        jobs.push(async () => (await deliver(payload, sign(payload))).status);
      jobs.push(
        async () =>
          (
            await t.request
              .post('/api/v1/payments/confirm-credit-package')
              .set(bearer(token))
              .send({ payment_intent_id: intent.payment_intent_id })
          ).status,
      );
    }
    for (let i = jobs.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [jobs[i], jobs[j]] = [jobs[j]!, jobs[i]!];
    }
    const statuses: number[] = [];
    const CONCURRENCY = 24;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < jobs.length) {
          const job = jobs[next]!;
          next += 1;
          statuses.push(await job());
        }
      }),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);

    const paidFor = new Map<string, number>();
    for (const b of bought) paidFor.set(b.token, (paidFor.get(b.token) ?? 0) + b.credits);
    for (const user of users) {
      await profileReaches(t, user.tokens.access_token, {
        credits_balance: paidFor.get(user.tokens.access_token),
      });
    }
    const ledger = await t.c.db
      .selectFrom('credit_ledger')
      .select(['payment_id'])
      .where('reason', '=', 'credit_purchase')
      .where(
        'user_id',
        'in',
        users.map((u) => u.res.body.user.id as string),
      )
      .execute();
    expect(ledger).toHaveLength(PAYMENTS);
    expect(new Set(ledger.map((l) => l.payment_id)).size).toBe(PAYMENTS);
  });
});
