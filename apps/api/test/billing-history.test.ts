import {
  MESSAGES,
  ZBillingHistoryResponseSchema,
  ZReceiptResponseSchema,
} from '@studioshot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';
import { createIntent, payWithCard } from './payments-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://studioshot.example' });
});
afterAll(() => t.close());

const post = (token: string, path: string, body: object = {}) =>
  t.request.post(path).set(bearer(token)).send(body);
const history = async (token: string) =>
  ZBillingHistoryResponseSchema.parse(
    (await t.request.get('/api/v1/payments/history').set(bearer(token)).expect(200)).body,
  ).payments;

/** Creates, pays and confirms one purchase; answers its intent. */
async function buy(token: string, path: string, body: object, confirm: string) {
  const intent = await createIntent(t, token, path, body);
  await payWithCard(t, token, intent).expect(200);
  await post(token, confirm, { payment_intent_id: intent.payment_intent_id });
  return intent;
}

describe('billing history and receipts', () => {
  it('lists paid and refunded payments with what each granted; unpaid intents are left out', async () => {
    const { tokens } = await registerUser(t, { name: 'Grace Hopper' });
    const token = tokens.access_token;
    expect(await history(token)).toEqual([]);

    await buy(
      token,
      '/api/v1/payments/create-credit-package',
      { package_id: 'professional_pack' },
      '/api/v1/payments/confirm-payment',
    );
    // A plan priced from the free plan that is paid only after another plan was bought: refunded.
    const stale = await createIntent(t, token, '/api/v1/payments/create-upgrade', {
      plan_id: 'professional',
    });
    await buy(
      token,
      '/api/v1/payments/create-training-payment',
      { plan_name: 'starter' },
      '/api/v1/payments/confirm-plan-subscription',
    );
    await payWithCard(t, token, stale).expect(200);
    await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: stale.payment_intent_id,
    }).expect(409);
    await buy(
      token,
      '/api/v1/payments/create-training-purchase',
      { quantity: 3 },
      '/api/v1/payments/confirm-payment',
    );
    // Created and never paid: not a payment.
    await createIntent(t, token, '/api/v1/payments/create-credit-package', {
      package_id: 'starter_pack',
    });

    const entries = await history(token);
    // Newest first, by when the money moved.
    expect(
      entries.map((e) => [e.description, e.amount_cents, e.status, e.granted, e.has_receipt]),
    ).toEqual([
      [
        '3 extra model trainings',
        4500,
        'succeeded',
        { credits: 0, plan: null, training_slots: 3, headshots: 0 },
        true,
      ],
      // Never applied, so it granted nothing.
      [
        'Professional plan subscription',
        1999,
        'refunded',
        { credits: 0, plan: null, training_slots: 0, headshots: 0 },
        true,
      ],
      [
        'Starter plan subscription',
        999,
        'succeeded',
        { credits: 4, plan: 'starter', training_slots: 0, headshots: 0 },
        true,
      ],
      [
        'Professional Pack (60 credits)',
        2499,
        'succeeded',
        { credits: 60, plan: null, training_slots: 0, headshots: 0 },
        true,
      ],
    ]);
    for (const entry of entries) {
      expect(entry.receipt_number).toMatch(/^SS-\d{8}-[0-9A-F]{8}$/);
      expect(entry.paid_at === null).toBe(entry.status === 'refunded');
    }
    expect(entries[1]!.refunded_at).not.toBeNull();
  });

  it('lists a renewal the renewal job charged, with the credits it granted', async () => {
    const { tokens } = await registerUser(t);
    const token = tokens.access_token;
    await buy(
      token,
      '/api/v1/payments/create-training-payment',
      { plan_name: 'starter' },
      '/api/v1/payments/confirm-plan-subscription',
    );
    // The test clock brings the period to its end and the card on file pays the next one.
    await post(token, '/api/v1/payments/test/advance-clock').expect(200);
    const [renewal, first] = await history(token);
    expect(renewal).toMatchObject({
      kind: 'renewal',
      description: 'Starter plan renewal',
      amount_cents: 999,
      status: 'succeeded',
      granted: { plan: 'starter', credits: 4 },
      has_receipt: true,
    });
    expect(first).toMatchObject({ kind: 'subscription', description: 'Starter plan subscription' });
  });

  it('a receipt for the owner only: 404 for anyone else, an unknown id and a malformed one', async () => {
    const { tokens } = await registerUser(t, { name: 'Katherine Johnson' });
    const token = tokens.access_token;
    const intent = await buy(
      token,
      '/api/v1/payments/create-credit-package',
      { package_id: 'starter_pack' },
      '/api/v1/payments/confirm-payment',
    );
    const [entry] = await history(token);
    const res = await t.request.get(`/api/v1/payments/receipts/${entry!.id}`).set(bearer(token));
    expect(res.status).toBe(200);
    const receipt = ZReceiptResponseSchema.parse(res.body);
    expect(receipt).toMatchObject({
      ...entry,
      seller: { name: 'Studioshot', website: 'https://studioshot.example' },
      customer: { name: 'Katherine Johnson' },
      payment_intent_id: intent.payment_intent_id,
      proration: null,
    });

    const stranger = (await registerUser(t)).tokens.access_token;
    for (const [who, id] of [
      [stranger, entry!.id],
      [token, '00000000-0000-4000-8000-000000000000'],
      [token, 'not-a-receipt'],
    ] as const) {
      const other = await t.request.get(`/api/v1/payments/receipts/${id}`).set(bearer(who));
      expect([other.status, other.body.detail]).toEqual([404, MESSAGES.receiptNotFound]);
    }
    expect(await history(stranger)).toEqual([]);
    await t.request.get('/api/v1/payments/history').expect(401);
  });
});
