// The 30-day money-back guarantee with the test provider: a refund asked for from /billing.
import { MESSAGES, ZRefundResponseSchema } from '@studioshot/contracts';
import { applyLedgerEntry } from '@studioshot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';
import { createIntent, GOOD_CARD, payWithCard, profileOf } from './payments-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (token: string, path: string, body: object = {}) =>
  t.request.post(path).set(bearer(token)).send(body);
const askRefund = (token: string, paymentId: string, reason = 'not_satisfied') =>
  post(token, '/api/v1/payments/refunds', { payment_id: paymentId, reason });

/** Creates, pays and confirms one purchase; answers our payment's id. */
async function buy(
  token: string,
  path: string,
  body: object,
  confirm = '/api/v1/payments/confirm-payment',
  card = GOOD_CARD,
) {
  const intent = await createIntent(t, token, path, body);
  await payWithCard(t, token, intent, card).expect(200);
  await post(token, confirm, { payment_intent_id: intent.payment_intent_id }).expect(200);
  const payment = await t.c.db
    .selectFrom('payments')
    .select(['id'])
    .where('provider_intent_id', '=', intent.payment_intent_id)
    .executeTakeFirstOrThrow();
  return { paymentId: payment.id, intentId: intent.payment_intent_id };
}
const buyCredits = (token: string, card = GOOD_CARD) =>
  buy(
    token,
    '/api/v1/payments/create-credit-package',
    { package_id: 'professional_pack' },
    undefined,
    card,
  );

async function refundedAtProvider(intentId: string) {
  const row = await t.c.db
    .selectFrom('test_payment_intents')
    .select('amount_refunded')
    .where('id', '=', intentId)
    .executeTakeFirstOrThrow();
  return row.amount_refunded;
}

async function ledgerOf(paymentId: string) {
  return t.c.db
    .selectFrom('credit_ledger')
    .select(['delta', 'reason'])
    .where('payment_id', '=', paymentId)
    .orderBy('created_at')
    .execute();
}

describe('the 30-day money-back guarantee (test provider)', () => {
  it('refunds a credit pack: money back, its credits taken back, the reason on the receipt', async () => {
    const { tokens } = await registerUser(t);
    const token = tokens.access_token;
    const { paymentId, intentId } = await buyCredits(token);
    expect((await profileOf(t, token)).credits_balance).toBe(60);

    const res = await askRefund(token, paymentId, 'bought_by_mistake');
    expect(res.status).toBe(200);
    const body = ZRefundResponseSchema.parse(res.body);
    expect(body.message).toBe(MESSAGES.refundDone);
    expect(body.payment).toMatchObject({
      id: paymentId,
      status: 'refunded',
      refundable_until: null,
      refund: { reason: 'bought_by_mistake', credits_taken_back: 60 },
    });
    expect(body.payment.refunded_at).not.toBeNull();
    expect(await refundedAtProvider(intentId)).toBe(2499);
    expect((await profileOf(t, token)).credits_balance).toBe(0);
    expect(await ledgerOf(paymentId)).toEqual([
      { delta: 60, reason: 'credit_purchase' },
      { delta: -60, reason: 'payment_refund' },
    ]);

    const receipt = await t.request
      .get(`/api/v1/payments/receipts/${paymentId}`)
      .set(bearer(token));
    expect(receipt.body).toMatchObject({
      status: 'refunded',
      refund: { reason: 'bought_by_mistake', credits_taken_back: 60 },
    });
  });

  it('takes back only the credits left unspent', async () => {
    const { tokens, res: user } = await registerUser(t);
    const token = tokens.access_token;
    const { paymentId } = await buyCredits(token);
    // 45 of the 60 credits were spent.
    await applyLedgerEntry(t.c.db, {
      userId: user.body.user.id,
      delta: -45,
      reason: 'generation',
      idempotencyKey: `spent:${paymentId}`,
    });
    const res = await askRefund(token, paymentId);
    expect(res.status).toBe(200);
    expect(res.body.payment.refund.credits_taken_back).toBe(15);
    expect((await profileOf(t, token)).credits_balance).toBe(0);
  });

  it('is once per payment: asked again, at once or later, it refunds nothing more', async () => {
    const { tokens } = await registerUser(t);
    const token = tokens.access_token;
    const { paymentId, intentId } = await buyCredits(token);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => askRefund(token, paymentId, 'other')),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const again = await askRefund(token, paymentId, 'not_satisfied');
    expect(again.status).toBe(200);
    // The first reason recorded stays.
    expect(again.body.payment.refund).toMatchObject({ reason: 'other', credits_taken_back: 60 });
    expect(await refundedAtProvider(intentId)).toBe(2499);
    expect(await ledgerOf(paymentId)).toHaveLength(2);
    expect((await profileOf(t, token)).credits_balance).toBe(0);
  });

  it('ends the plan a subscription bought, and no renewal is due', async () => {
    const { tokens, res: user } = await registerUser(t);
    const token = tokens.access_token;
    const { paymentId } = await buy(
      token,
      '/api/v1/payments/create-training-payment',
      { plan_name: 'starter' },
      '/api/v1/payments/confirm-plan-subscription',
    );
    expect(await profileOf(t, token)).toMatchObject({ plan_type: 'starter', credits_balance: 4 });
    const res = await askRefund(token, paymentId, 'not_like_me');
    expect(res.status).toBe(200);
    expect(await profileOf(t, token)).toMatchObject({
      plan_type: 'free',
      credits_balance: 0,
      training_limit: 0,
    });
    const sub = await t.c.db
      .selectFrom('subscriptions')
      .select(['status', 'ended_reason'])
      .where('user_id', '=', user.body.user.id)
      .executeTakeFirstOrThrow();
    expect(sub).toEqual({ status: 'ended', ended_reason: 'refunded' });
    const subscription = await t.request.get('/api/v1/payments/subscription').set(bearer(token));
    expect(subscription.body.next_billing_date ?? null).toBeNull();
  });

  it('takes back the training slots a pack bought', async () => {
    const { tokens } = await registerUser(t);
    const token = tokens.access_token;
    const before = (await profileOf(t, token)).training_limit;
    const { paymentId } = await buy(token, '/api/v1/payments/create-training-purchase', {
      quantity: 3,
    });
    expect((await profileOf(t, token)).training_limit).toBe(before + 3);
    expect((await askRefund(token, paymentId)).status).toBe(200);
    expect((await profileOf(t, token)).training_limit).toBe(before);
  });

  it('refuses after 30 days, with the reason, and changes nothing', async () => {
    const { tokens } = await registerUser(t);
    const token = tokens.access_token;
    const { paymentId, intentId } = await buyCredits(token);
    await t.c.db
      .updateTable('payments')
      .set({ fulfilled_at: new Date(Date.now() - 31 * 24 * 3600_000) })
      .where('id', '=', paymentId)
      .execute();
    const history = await t.request.get('/api/v1/payments/history').set(bearer(token));
    expect(history.body.payments[0].refundable_until).toBeNull();
    const res = await askRefund(token, paymentId);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(MESSAGES.refundWindowClosed);
    expect(await refundedAtProvider(intentId)).toBe(0);
    expect((await profileOf(t, token)).credits_balance).toBe(60);
  });

  it('a payment 29 days old is still covered, and says until when', async () => {
    const { tokens } = await registerUser(t);
    const token = tokens.access_token;
    const { paymentId } = await buyCredits(token);
    const paidAt = new Date(Date.now() - 29 * 24 * 3600_000);
    await t.c.db
      .updateTable('payments')
      .set({ fulfilled_at: paidAt })
      .where('id', '=', paymentId)
      .execute();
    const history = await t.request.get('/api/v1/payments/history').set(bearer(token));
    expect(history.body.payments[0].refundable_until).toBe(
      new Date(paidAt.getTime() + 30 * 24 * 3600_000).toISOString(),
    );
    expect((await askRefund(token, paymentId)).status).toBe(200);
  });

  it('refused by the provider: its reason is told and nothing changes', async () => {
    const { tokens } = await registerUser(t);
    const token = tokens.access_token;
    // Stripe's test card whose refunds the issuer declines.
    const { paymentId } = await buyCredits(token, { ...GOOD_CARD, number: '4000 0000 0000 5126' });
    const res = await askRefund(token, paymentId);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(`${MESSAGES.refundRefused} The card issuer declined the refund.`);
    const payment = await t.c.db
      .selectFrom('payments')
      .select(['status', 'refund_reason'])
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    expect(payment).toEqual({ status: 'succeeded', refund_reason: null });
    expect((await profileOf(t, token)).credits_balance).toBe(60);
  });

  it("another user's payment, an unknown one and a bad reason: refused, nothing changes", async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    const { paymentId, intentId } = await buyCredits(owner.tokens.access_token);
    const stranger = await askRefund(other.tokens.access_token, paymentId);
    expect(stranger.status).toBe(404);
    expect(stranger.body.detail).toBe(MESSAGES.paymentNotFound);
    const unknown = await askRefund(
      owner.tokens.access_token,
      '00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.status).toBe(404);
    const badReason = await askRefund(owner.tokens.access_token, paymentId, 'because');
    expect(badReason.status).toBe(422);
    expect(await refundedAtProvider(intentId)).toBe(0);
    expect((await profileOf(t, owner.tokens.access_token)).credits_balance).toBe(60);
  });

  it('a payment not completed cannot be refunded', async () => {
    const { tokens } = await registerUser(t);
    const token = tokens.access_token;
    const intent = await createIntent(t, token, '/api/v1/payments/create-credit-package', {
      package_id: 'starter_pack',
    });
    const payment = await t.c.db
      .selectFrom('payments')
      .select('id')
      .where('provider_intent_id', '=', intent.payment_intent_id)
      .executeTakeFirstOrThrow();
    const res = await askRefund(token, payment.id);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(MESSAGES.refundNotPaid);
  });
});
