import { MESSAGES, ZUpgradeQuoteResponseSchema } from '@studioshot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataExportsRepository } from '../src/repositories/data-exports.repository.js';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';
import { createIntent, payWithCard } from './payments-helpers.js';

// Opening a checkout stores nothing: the page shows the catalogue's price, or for an upgrade the
// server's quote (read-only). The intent, and the pending payment stored with it, are made when
// Pay is pressed, once however often it is pressed (the checkout's Idempotency-Key).

let t: TestApp;
let exportsRepo: DataExportsRepository;
beforeAll(async () => {
  t = await createTestApp();
  exportsRepo = new DataExportsRepository(t.c.db);
});
afterAll(() => t?.close());

const DAY = 86_400_000;
const QUOTE = '/api/v1/payments/upgrade-quote';

async function signedUp() {
  const { tokens, res } = await registerUser(t);
  return { token: tokens.access_token, id: (res.body as { user: { id: string } }).user.id };
}

/** The payments a person's data export lists (what its account.json is written from). */
async function exportedPayments(userId: string) {
  return (await exportsRepo.accountData(userId)).payments;
}

/** A Starter subscriber a third of the way into their month. */
async function starterSubscriber() {
  const user = await signedUp();
  const intent = await createIntent(t, user.token, '/api/v1/payments/create-training-payment', {
    plan_name: 'starter',
  });
  await payWithCard(t, user.token, intent).expect(200);
  await t.request
    .post('/api/v1/payments/confirm-plan-subscription')
    .set(bearer(user.token))
    .send({ payment_intent_id: intent.payment_intent_id })
    .expect(200);
  const now = Date.now();
  const start = new Date(now - 10 * DAY);
  const end = new Date(now + 20 * DAY);
  await t.c.db
    .updateTable('subscriptions')
    .set({
      current_period_start: start,
      current_period_end: end,
      billing_anchor: start,
      allowance_period_start: start,
      allowance_period_end: end,
    })
    .where('user_id', '=', user.id)
    .execute();
  return user;
}

describe('GET /api/v1/payments/upgrade-quote', () => {
  it('prices the upgrade as create-upgrade charges it, and stores nothing', async () => {
    const user = await starterSubscriber();
    const before = await exportedPayments(user.id);
    expect(before).toHaveLength(1);

    const quoted = await t.request
      .get(QUOTE)
      .query({ plan_id: 'professional', current_plan: 'starter' })
      .set(bearer(user.token));
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    const quote = ZUpgradeQuoteResponseSchema.parse(quoted.body);
    expect(quote.kind).toBe('upgrade');
    expect(quote.proration).toMatchObject({ from_plan: 'starter', to_plan: 'professional' });
    expect(quote.amount).toBe(quote.proration!.charged_cents);
    // Asked again and again (a reload of the checkout): still nothing stored.
    await t.request
      .get(QUOTE)
      .query({ plan_id: 'professional' })
      .set(bearer(user.token))
      .expect(200);
    expect(await exportedPayments(user.id)).toEqual(before);

    const paid = await t.request
      .post('/api/v1/payments/create-upgrade')
      .set(bearer(user.token))
      .send({ plan_id: 'professional', current_plan: 'starter', upgrade_immediately: true });
    expect(paid.status).toBe(200);
    // The same pricing, a moment later: at most a cent of the period has gone by.
    expect(Math.abs((paid.body as { amount: number }).amount - quote.amount)).toBeLessThanOrEqual(
      1,
    );
    expect(await exportedPayments(user.id)).toHaveLength(2);
  });

  it('refuses as create-upgrade does: a plan not higher, a plan changed, none at all', async () => {
    const user = await starterSubscriber();
    const same = await t.request
      .get(QUOTE)
      .query({ plan_id: 'starter', current_plan: 'starter' })
      .set(bearer(user.token));
    expect(same.status).toBe(409);
    expect(same.body.detail).toContain(MESSAGES.upgradeNotHigher);
    const changed = await t.request
      .get(QUOTE)
      .query({ plan_id: 'premium', current_plan: 'professional' })
      .set(bearer(user.token));
    expect(changed.status).toBe(409);
    expect(changed.body.detail).toContain(MESSAGES.upgradePlanChanged);
    const unknown = await t.request.get(QUOTE).query({ plan_id: 'gold' }).set(bearer(user.token));
    expect(unknown.status).toBe(404);
    const anonymous = await t.request.get(QUOTE).query({ plan_id: 'premium' });
    expect(anonymous.status).toBe(401);
    expect(await exportedPayments(user.id)).toHaveLength(1);
  });

  it('from the free plan quotes a new subscription at its list price', async () => {
    const user = await signedUp();
    const res = await t.request.get(QUOTE).query({ plan_id: 'premium' }).set(bearer(user.token));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      amount: 3999,
      currency: 'usd',
      kind: 'subscription',
      proration: null,
    });
    expect(await exportedPayments(user.id)).toEqual([]);
  });
});

describe('Pay makes one intent per checkout', () => {
  it.each([
    ['/api/v1/payments/create-credit-payment', { credit_pack_id: 'starter_pack' }],
    ['/api/v1/payments/create-credit-package', { package_id: 'starter_pack' }],
    ['/api/v1/payments/create-training-payment', { plan_name: 'starter' }],
    ['/api/v1/payments/create-training-purchase', { quantity: 3 }],
  ])('%s: a second press with the checkout key answers the first intent', async (path, body) => {
    const user = await signedUp();
    expect(await exportedPayments(user.id)).toEqual([]);
    const key = `checkout-${crypto.randomUUID()}`;
    const press = () =>
      t.request.post(path).set(bearer(user.token)).set('Idempotency-Key', key).send(body);
    const [first, second] = await Promise.all([press(), press()]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.payment_intent_id).toBe(first.body.payment_intent_id);
    const third = await press();
    expect(third.body.payment_intent_id).toBe(first.body.payment_intent_id);
    const payments = await exportedPayments(user.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      status: 'pending',
      provider_intent_id: first.body.payment_intent_id,
    });
  });
});
