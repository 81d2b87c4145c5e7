import {
  MESSAGES,
  ZPaymentIntentDetailsResponseSchema,
  ZUpgradeIntentResponseSchema,
  type UpgradeIntentResponse,
} from '@studioshot/contracts';
import { creditMonthOf, prorateUpgrade, MIN_CHARGE_CENTS } from '@studioshot/pricing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';
import { countRows, createIntent, payWithCard, profileOf } from './payments-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const UPGRADE = '/api/v1/payments/create-upgrade';
const post = (token: string, path: string, body: object = {}) =>
  t.request.post(path).set(bearer(token)).send(body);

/** A new user subscribed to `plan` through the plan call, paid and confirmed. */
async function subscriber(plan: 'starter' | 'professional') {
  const { tokens, res } = await registerUser(t);
  const token = tokens.access_token;
  const userId = (res.body as { user: { id: string } }).user.id;
  const intent = await createIntent(t, token, '/api/v1/payments/create-training-payment', {
    plan_name: plan,
  });
  await payWithCard(t, token, intent).expect(200);
  await post(token, '/api/v1/payments/confirm-plan-subscription', {
    payment_intent_id: intent.payment_intent_id,
  }).expect(200);
  return { token, userId };
}

/** Puts the subscription's period where a test needs it: `daysIn` days ago to `daysLeft` ahead. */
async function setPeriod(
  userId: string,
  daysIn: number,
  daysLeft: number,
  cycle: 'monthly' | 'annual' = 'monthly',
) {
  const now = Date.now();
  const start = new Date(now - daysIn * DAY);
  const end = new Date(now + daysLeft * DAY);
  // The credit month running inside it (the period itself for monthly billing), the period
  // taken as the subscription's first.
  const month = creditMonthOf({ start, end }, cycle, new Date(now), start);
  await t.c.db
    .updateTable('subscriptions')
    .set({
      current_period_start: start,
      current_period_end: end,
      billing_anchor: start,
      billing_cycle: cycle,
      allowance_period_start: month.start,
      allowance_period_end: month.end,
    })
    .where('user_id', '=', userId)
    .execute();
  await t.c.db
    .updateTable('users')
    .set({ subscription_interval: cycle })
    .where('id', '=', userId)
    .execute();
  return { start, end };
}

async function subscriptionOf(userId: string) {
  return t.c.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
}

async function createUpgrade(token: string, body: object): Promise<UpgradeIntentResponse> {
  return ZUpgradeIntentResponseSchema.parse(await createIntent(t, token, UPGRADE, body));
}

describe('POST /api/v1/payments/create-upgrade', () => {
  it('charges the difference for the rest of the period, keeps the period, grants once', async () => {
    const { token, userId } = await subscriber('starter');
    const period = await setPeriod(userId, 10, 20);
    const before = await profileOf(t, token);

    const upgrade = await createUpgrade(token, {
      plan_id: 'professional',
      current_plan: 'starter',
      upgrade_immediately: true,
    });
    const proration = upgrade.proration!;
    // The figures are the catalogue's arithmetic at the moment the answer says it priced them.
    const figures = prorateUpgrade({
      from: { price_cents: 999, credits: 4 },
      to: { price_cents: 1999, credits: 8 },
      period,
      now: new Date(proration.priced_at),
    });
    expect(proration).toMatchObject({
      from_plan: 'starter',
      to_plan: 'professional',
      billing_cycle: 'monthly',
      period_end: period.end.toISOString(),
      from_price_cents: 999,
      to_price_cents: 1999,
      credited_cents: figures.credited_cents,
      prorated_cents: figures.prorated_cents,
      charged_cents: figures.charged_cents,
      credits: figures.credits,
      minimum_applied: false,
    });
    // Two thirds of the month left: about 2/3 of the $10.00 difference, 2 of the 4 extra credits.
    expect(upgrade.amount).toBe(proration.charged_cents);
    expect(upgrade.amount).toBeGreaterThanOrEqual(666);
    expect(upgrade.amount).toBeLessThanOrEqual(667);
    expect(proration.credits).toBe(2);
    expect(proration.remaining_days).toBe(20);

    await payWithCard(t, token, upgrade).expect(200);
    const confirmed = await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: upgrade.payment_intent_id,
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      plan_type: 'professional',
      training_limit: 5,
      credits_awarded: 2,
    });
    // Confirming again, through either call, changes nothing more.
    await post(token, '/api/v1/payments/confirm-payment', {
      payment_intent_id: upgrade.payment_intent_id,
    }).expect(200);
    expect(await profileOf(t, token)).toMatchObject({
      plan_type: 'professional',
      training_limit: 5,
      credits_balance: before.credits_balance + 2,
    });
    const sub = await subscriptionOf(userId);
    expect(sub).toMatchObject({ tier: 'professional', billing_cycle: 'monthly' });
    expect(sub.current_period_start.toISOString()).toBe(period.start.toISOString());
    expect(sub.current_period_end.toISOString()).toBe(period.end.toISOString());
  });

  it('refuses the same plan and a lower one with a clear message, writing nothing', async () => {
    const { token } = await subscriber('professional');
    const before = await countRows(t);
    for (const plan_id of ['professional', 'starter']) {
      const res = await post(token, UPGRADE, { plan_id, current_plan: 'professional' });
      expect(res.status).toBe(409);
      expect(res.body.detail).toBe(
        `${MESSAGES.upgradeFailed}: you are already on Professional. ${MESSAGES.upgradeNotHigher}`,
      );
    }
    expect(await countRows(t)).toEqual(before);
    expect((await profileOf(t, token)).plan_type).toBe('professional');
  });

  it('refuses a current_plan the account is no longer on, and an unknown plan', async () => {
    const { token } = await subscriber('starter');
    const before = await countRows(t);
    const stale = await post(token, UPGRADE, { plan_id: 'premium', current_plan: 'free' });
    expect([stale.status, stale.body.detail]).toEqual([
      409,
      `${MESSAGES.upgradeFailed}: ${MESSAGES.upgradePlanChanged}`,
    ]);
    const unknown = await post(token, UPGRADE, { plan_id: 'platinum' });
    expect([unknown.status, unknown.body.detail]).toEqual([404, MESSAGES.upgradeFailed]);
    // The plan's display name is the same plan.
    expect(
      (await post(token, UPGRADE, { plan_id: 'premium', current_plan: 'Starter' })).status,
    ).toBe(200);
    expect((await countRows(t)).payments).toBe(before.payments + 1);
  });

  it('takes effect immediately only: upgrade_immediately false is refused as malformed', async () => {
    const { token } = await subscriber('starter');
    const res = await post(token, UPGRADE, { plan_id: 'premium', upgrade_immediately: false });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(
      'upgrade_immediately: Upgrades take effect immediately: send true or leave it out.',
    );
  });

  it('from the free plan buys the plan as a new subscription at its list price', async () => {
    const { tokens } = await registerUser(t);
    const upgrade = await createUpgrade(tokens.access_token, {
      plan_id: 'professional',
      current_plan: 'free',
      upgrade_immediately: true,
    });
    expect([upgrade.amount, upgrade.proration]).toEqual([1999, null]);
  });

  it('an annual subscriber is prorated on annual prices, credits on the credit month', async () => {
    const { token, userId } = await subscriber('starter');
    const period = await setPeriod(userId, 100, 265, 'annual');
    const upgrade = await createUpgrade(token, { plan_id: 'premium' });
    const priced = new Date(upgrade.proration!.priced_at);
    const figures = prorateUpgrade({
      from: { price_cents: 9990, credits: 4 },
      to: { price_cents: 39990, credits: 16 },
      period,
      creditMonth: creditMonthOf(period, 'annual', priced, period.start),
      now: priced,
    });
    expect(upgrade.proration).toMatchObject({
      billing_cycle: 'annual',
      from_price_cents: 9990,
      to_price_cents: 39990,
      charged_cents: figures.charged_cents,
      credits: figures.credits,
    });
    // 265 of 365 days left of a 30000-cent difference.
    expect(upgrade.amount).toBe(Math.round((30000 * 265) / 365));
    await payWithCard(t, token, upgrade).expect(200);
    await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: upgrade.payment_intent_id,
    }).expect(200);
    expect(await profileOf(t, token)).toMatchObject({ plan_type: 'premium', training_limit: 10 });
    expect(await subscriptionOf(userId)).toMatchObject({
      tier: 'premium',
      billing_cycle: 'annual',
    });
  });

  it('at the end of the period charges the minimum and grants no credit', async () => {
    const { token, userId } = await subscriber('starter');
    await setPeriod(userId, 30, 0);
    const before = (await profileOf(t, token)).credits_balance;
    const upgrade = await createUpgrade(token, { plan_id: 'professional' });
    expect(upgrade.amount).toBe(MIN_CHARGE_CENTS);
    expect(upgrade.proration).toMatchObject({
      prorated_cents: 0,
      minimum_applied: true,
      credits: 0,
    });
    await payWithCard(t, token, upgrade).expect(200);
    await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: upgrade.payment_intent_id,
    }).expect(200);
    expect(await profileOf(t, token)).toMatchObject({
      plan_type: 'professional',
      credits_balance: before,
    });
  });

  it('priced for one period, paid in the next: refunded, and the plan stays', async () => {
    const { token, userId } = await subscriber('starter');
    await setPeriod(userId, 5, 25);
    const upgrade = await createUpgrade(token, { plan_id: 'premium' });
    // The period renewed before the card was charged (as the renewal job moves it on).
    await setPeriod(userId, 0, 30);
    const before = await profileOf(t, token);
    await payWithCard(t, token, upgrade).expect(200);
    const res = await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: upgrade.payment_intent_id,
    });
    expect([res.status, res.body.detail]).toEqual([409, MESSAGES.stalePlanPaymentRefunded]);
    expect(await profileOf(t, token)).toEqual(before);
    const intent = await t.c.db
      .selectFrom('test_payment_intents')
      .select(['amount', 'amount_refunded'])
      .where('id', '=', upgrade.payment_intent_id)
      .executeTakeFirstOrThrow();
    expect(intent.amount_refunded).toBe(intent.amount);
  });

  it("prices on the user's billing time, which the test clock may have moved ahead", async () => {
    const { token } = await subscriber('starter');
    // The period ends and renews on the test clock: the new period starts at the billing time.
    await post(token, '/api/v1/payments/test/advance-clock').expect(200);
    const upgrade = await createUpgrade(token, { plan_id: 'professional' });
    const proration = upgrade.proration!;
    expect(new Date(proration.priced_at).getTime()).toBeGreaterThanOrEqual(
      new Date(proration.period_start).getTime(),
    );
    // Priced at the start of the renewed period: (almost) the whole difference.
    expect(proration.prorated_cents).toBeGreaterThanOrEqual(999);
  });

  it('a retried create with the same Idempotency-Key answers the same intent and figures', async () => {
    const { token, userId } = await subscriber('starter');
    await setPeriod(userId, 3, 27);
    const send = () =>
      t.request
        .post(UPGRADE)
        .set(bearer(token))
        .set('Idempotency-Key', `upgrade-retry-${userId}`)
        .send({ plan_id: 'professional' });
    const first = ZUpgradeIntentResponseSchema.parse((await send()).body);
    const again = ZUpgradeIntentResponseSchema.parse((await send()).body);
    expect(again).toEqual(first);
  });
});

describe('GET /api/v1/payments/intents/{payment_intent_id}', () => {
  it('answers a created intent to its owner, to resume it, and its status once paid', async () => {
    const { token, userId } = await subscriber('starter');
    await setPeriod(userId, 10, 20);
    const upgrade = await createUpgrade(token, { plan_id: 'premium' });
    const path = `/api/v1/payments/intents/${upgrade.payment_intent_id}`;
    const open = await t.request.get(path).set(bearer(token));
    expect(open.status).toBe(200);
    expect(ZPaymentIntentDetailsResponseSchema.parse(open.body)).toEqual({
      ...upgrade,
      status: 'requires_payment',
      kind: 'upgrade',
      item_id: 'premium',
      from_plan: 'starter',
    });

    const other = (await registerUser(t)).tokens.access_token;
    for (const [who, id] of [
      [other, upgrade.payment_intent_id],
      [token, 'pi_test_not_a_real_intent'],
    ] as const) {
      const res = await t.request.get(`/api/v1/payments/intents/${id}`).set(bearer(who));
      expect([res.status, res.body.detail]).toEqual([404, MESSAGES.paymentNotFound]);
    }

    await payWithCard(t, token, upgrade).expect(200);
    expect((await t.request.get(path).set(bearer(token))).body.status).toBe('succeeded');
  });
});
