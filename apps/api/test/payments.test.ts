import {
  MESSAGES,
  ZCancelSubscriptionResponseSchema,
  ZConfirmCreditPackageResponseSchema,
  ZPaymentIntentResponseSchema,
  ZPricingResponseSchema,
  ZSubscriptionResponseSchema,
} from '@studioshot/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainedModel } from './generation-helpers.js';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';
import {
  countRows,
  createIntent,
  DECLINED_CARD,
  GOOD_CARD,
  payWithCard,
  profileOf,
} from './payments-helpers.js';

let t: TestApp;
/** Test payments without the confirm calls' test card: a confirm needs the card step first. */
let cardStepFirst: TestApp;
beforeAll(async () => {
  [t, cardStepFirst] = await Promise.all([
    createTestApp(),
    createTestApp({ CONFIRM_PAYS_WITH_TEST_CARD: 'false' }),
  ]);
});
afterAll(() => Promise.all([t.close(), cardStepFirst.close()]));

const newUser = async () => (await registerUser(t)).tokens.access_token;
const post = (token: string, path: string, body: object = {}) =>
  t.request.post(path).set(bearer(token)).send(body);

describe('GET /api/v1/payments/pricing', () => {
  it('answers the whole catalogue, without authentication', async () => {
    const res = await t.request.get('/api/v1/payments/pricing');
    expect(res.status).toBe(200);
    const body = ZPricingResponseSchema.parse(res.body);
    expect(body.pricing_options.map((p) => [p.id, p.price, p.training_limit])).toEqual([
      ['starter', 999, 1],
      ['professional', 1999, 5],
      ['premium', 3999, 10],
    ]);
    expect(body.pricing_options.find((p) => p.popular)?.id).toBe('professional');
    expect(body.onetime_packages).toHaveLength(4);
    expect(body.credit_packs.map((p) => [p.credits, p.for_sale])).toEqual([
      [10, false],
      [25, false],
      [50, false],
    ]);
    expect(body.training_packs.map((p) => p.id)).toEqual([
      'training_1',
      'training_3',
      'training_5',
    ]);
    expect(body).toMatchObject({
      training_fee_dollars: 25,
      free_credits_included: 0,
      test_mode: true,
    });
  });
});

describe('buying credits', () => {
  it('creates an intent, pays with a test card, confirms once, and the balance moves once', async () => {
    const token = await newUser();
    const intent = ZPaymentIntentResponseSchema.parse(
      await createIntent(t, token, '/api/v1/payments/create-credit-package', {
        package_id: 'professional_pack',
      }),
    );
    expect(intent).toMatchObject({ amount: 2499, currency: 'usd' });
    expect((await payWithCard(t, token, intent)).status).toBe(200);

    const confirm = await post(token, '/api/v1/payments/confirm-credit-package', {
      payment_intent_id: intent.payment_intent_id,
    });
    expect(confirm.status).toBe(200);
    expect(ZConfirmCreditPackageResponseSchema.parse(confirm.body)).toEqual({
      credits_added: 60,
      new_credits_balance: 60,
    });

    const again = await post(token, '/api/v1/payments/confirm-credit-package', {
      payment_intent_id: intent.payment_intent_id,
    });
    expect(again.body).toEqual({ credits_added: 60, new_credits_balance: 60 });
    expect((await profileOf(t, token)).credits_balance).toBe(60);
  });

  it('create-credit-payment takes the same packages by credit_pack_id', async () => {
    const token = await newUser();
    const intent = await createIntent(t, token, '/api/v1/payments/create-credit-payment', {
      credit_pack_id: 'starter_pack',
    });
    expect(intent.amount).toBe(999);
    await payWithCard(t, token, intent).expect(200);
    const res = await post(token, '/api/v1/payments/confirm-payment', {
      payment_intent_id: intent.payment_intent_id,
    });
    expect(res.body).toMatchObject({
      credits_awarded: 20,
      new_credits_balance: 20,
      kind: 'credits',
    });
  });

  it('refuses an unknown pack with the spec message and writes nothing', async () => {
    const token = await newUser();
    const before = await countRows(t);
    const res = await post(token, '/api/v1/payments/create-credit-package', {
      package_id: 'gold_pack',
    });
    // A well-formed id the catalogue does not have: nothing by that id (the fuzz run's rule:
    // a schema-valid request is never refused as malformed).
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: MESSAGES.invalidCreditPack, code: 'not_found' });
    expect(await countRows(t)).toEqual(before);
  });

  it('refuses a published Coming Soon pack as not for sale yet, and writes nothing', async () => {
    const token = await newUser();
    const before = await countRows(t);
    for (const [path, body] of [
      ['/api/v1/payments/create-credit-package', { package_id: 'credits_10' }],
      ['/api/v1/payments/create-credit-payment', { credit_pack_id: 'credits_25' }],
    ] as const) {
      const res = await post(token, path, body);
      expect([res.status, res.body]).toEqual([
        409,
        { detail: MESSAGES.creditPackComingSoon, code: 'conflict' },
      ]);
    }
    expect(await countRows(t)).toEqual(before);
  });

  it('a declined card: a clear message, nothing granted, and the same intent can be paid again', async () => {
    const app = cardStepFirst;
    const token = (await registerUser(app)).tokens.access_token;
    const intent = await createIntent(app, token, '/api/v1/payments/create-credit-package', {
      package_id: 'starter_pack',
    });
    const declined = await payWithCard(app, token, intent, DECLINED_CARD);
    expect(declined.status).toBe(402);
    expect(declined.body).toEqual({ detail: 'Your card was declined.', code: 'payment_failed' });
    const early = await app.request
      .post('/api/v1/payments/confirm-credit-package')
      .set(bearer(token))
      .send({ payment_intent_id: intent.payment_intent_id });
    expect([early.status, early.body]).toEqual([
      402,
      { detail: MESSAGES.paymentNotPaid, code: 'payment_required' },
    ]);
    expect((await profileOf(app, token)).credits_balance).toBe(0);

    await payWithCard(app, token, intent, GOOD_CARD).expect(200);
    const ok = await app.request
      .post('/api/v1/payments/confirm-credit-package')
      .set(bearer(token))
      .send({ payment_intent_id: intent.payment_intent_id });
    expect(ok.body.new_credits_balance).toBe(20);
  });

  it("test mode: each confirm pays an unpaid intent with the success test card, as the spec's simulated form does", async () => {
    const token = await newUser();
    const cases = [
      [
        '/api/v1/payments/create-credit-package',
        { package_id: 'starter_pack' },
        '/api/v1/payments/confirm-credit-package',
        {},
      ],
      [
        '/api/v1/payments/create-credit-payment',
        { credit_pack_id: 'starter_pack' },
        '/api/v1/payments/confirm-payment',
        {},
      ],
      [
        '/api/v1/payments/create-training-purchase',
        { quantity: 1 },
        '/api/v1/payments/confirm-additional-training',
        { pack_id: 'training_1', amount: 2500, payment_method: 'stripe' },
      ],
      [
        '/api/v1/payments/create-training-payment',
        { plan_name: 'professional', plan_price: 19.99, plan_credits: 8 },
        '/api/v1/payments/confirm-plan-subscription',
        {},
      ],
    ] as const;
    for (const [create, createBody, confirm, confirmBody] of cases) {
      const intent = await createIntent(t, token, create, createBody);
      const res = await post(token, confirm, {
        payment_intent_id: intent.payment_intent_id,
        ...confirmBody,
      });
      expect(res.status, `${confirm}: ${JSON.stringify(res.body)}`).toBe(200);
      const paid = await t.c.db
        .selectFrom('test_payment_intents')
        .select('status')
        .where('id', '=', intent.payment_intent_id)
        .executeTakeFirstOrThrow();
      expect(paid.status).toBe('succeeded');
    }
    expect(await profileOf(t, token)).toMatchObject({
      credits_balance: 20 + 20 + 8,
      plan_type: 'professional',
    });
  });

  it("refuses another user's payment intent, for confirming and for paying", async () => {
    const owner = await newUser();
    const thief = await newUser();
    const intent = await createIntent(t, owner, '/api/v1/payments/create-credit-package', {
      package_id: 'starter_pack',
    });
    await payWithCard(t, owner, intent).expect(200);
    const res = await post(thief, '/api/v1/payments/confirm-credit-package', {
      payment_intent_id: intent.payment_intent_id,
    });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe(MESSAGES.confirmFailed);
    expect((await profileOf(t, thief)).credits_balance).toBe(0);
    const wrongSecret = await payWithCard(t, thief, {
      ...intent,
      client_secret: 'pi_wrong_secret',
    });
    expect(wrongSecret.status).toBe(404);
  });

  it('checks the card form on the server and never stores the card', async () => {
    const token = await newUser();
    const intent = await createIntent(t, token, '/api/v1/payments/create-credit-package', {
      package_id: 'starter_pack',
    });
    for (const [field, card] of [
      ['number', { ...GOOD_CARD, number: '4242 4242' }],
      ['expiry', { ...GOOD_CARD, expiry: '1/3' }],
      ['expiry', { ...GOOD_CARD, expiry: '13/34' }],
      ['cvc', { ...GOOD_CARD, cvc: '1' }],
      ['name', { ...GOOD_CARD, name: '  ' }],
    ] as const) {
      const res = await payWithCard(t, token, intent, card);
      expect(res.status).toBe(422);
      expect(res.body.detail).toBe(`card.${field}: ${MESSAGES.cardIncomplete}`);
    }
    // A complete form whose card is refused: a card error, 402, as Stripe answers one.
    const expired = await payWithCard(t, token, intent, { ...GOOD_CARD, expiry: '01/20' });
    expect([expired.status, expired.body.detail]).toEqual([402, 'Your card has expired.']);
    const wrongDigit = await payWithCard(t, token, intent, {
      ...GOOD_CARD,
      number: '4242 4242 4242 4241',
    });
    expect([wrongDigit.status, wrongDigit.body.detail]).toEqual([
      402,
      'Your card number is incorrect.',
    ]);
    await payWithCard(t, token, intent).expect(200);
    const dump = await sql<{
      row: string;
    }>`SELECT row_to_json(p)::text AS row FROM test_payment_intents p`.execute(t.c.db);
    for (const { row } of dump.rows) expect(row).not.toMatch(/4242\s?4242/);
  });

  it("takes Stripe's American Express test card: 15 digits, grouped as Amex prints them", async () => {
    const token = await newUser();
    const intent = await createIntent(t, token, '/api/v1/payments/create-credit-package', {
      package_id: 'starter_pack',
    });
    await payWithCard(t, token, intent, {
      ...GOOD_CARD,
      number: '3782 822463 10005',
      cvc: '1234',
    }).expect(200);
  });
});

describe('training slots', () => {
  it('sells 1, 3 or 5 trainings and adds them to the training limit once', async () => {
    const token = await newUser();
    const intent = await createIntent(t, token, '/api/v1/payments/create-training-purchase', {
      quantity: 3,
    });
    expect(intent.amount).toBe(4500);
    await payWithCard(t, token, intent).expect(200);
    const wrongAmount = await post(token, '/api/v1/payments/confirm-additional-training', {
      payment_intent_id: intent.payment_intent_id,
      pack_id: 'training_3',
      amount: 100,
      payment_method: 'stripe',
    });
    // The payment is real but for another pack or amount: a conflict with it (409).
    expect(wrongAmount.status).toBe(409);
    const wrongPack = await post(token, '/api/v1/payments/confirm-additional-training', {
      payment_intent_id: intent.payment_intent_id,
      pack_id: 'training_5',
      amount: 4500,
      payment_method: 'stripe',
    });
    expect(wrongPack.status).toBe(409);
    expect((await profileOf(t, token)).training_limit).toBe(0);
    const body = {
      payment_intent_id: intent.payment_intent_id,
      pack_id: 'training_3',
      amount: 4500,
      payment_method: 'stripe',
    };
    expect(
      (await post(token, '/api/v1/payments/confirm-additional-training', body)).body.training_limit,
    ).toBe(3);
    expect(
      (await post(token, '/api/v1/payments/confirm-additional-training', body)).body.training_limit,
    ).toBe(3);
  });

  it.each([[2], [0], [-1], [100]])('refuses a quantity of %i', async (quantity) => {
    const token = await newUser();
    const res = await post(token, '/api/v1/payments/create-training-purchase', { quantity });
    // No pack of that many trainings exists.
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/^Failed to create training purchase payment/);
  });

  it('falls back from plan confirmation to additional training, as the spec describes', async () => {
    const token = await newUser();
    const intent = await createIntent(t, token, '/api/v1/payments/create-training-payment', {});
    expect(intent.amount).toBe(2500);
    await payWithCard(t, token, intent).expect(200);
    const plan = await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: intent.payment_intent_id,
    });
    // A training-slot payment is not a plan: 409, and the client falls back as the spec says.
    expect(plan.status).toBe(409);
    const extra = await post(token, '/api/v1/payments/confirm-additional-training', {
      payment_intent_id: intent.payment_intent_id,
      pack_id: 'training_1',
      amount: 2500,
      payment_method: 'stripe',
    });
    expect(extra.status).toBe(200);
    expect(extra.body.training_limit).toBe(1);
  });
});

describe('subscriptions', () => {
  it('subscribes, shows the plan, cancels at period end, reactivates', async () => {
    const token = await newUser();
    const altered = await post(token, '/api/v1/payments/create-training-payment', {
      plan_name: 'professional',
      plan_price: 0.5,
    });
    // The price the page showed is not the plan's: stale, reload (409).
    expect(altered.status).toBe(409);
    const negative = await post(token, '/api/v1/payments/create-training-payment', {
      plan_name: 'professional',
      plan_price: -19.99,
    });
    expect(negative.status).toBe(409);

    const intent = await createIntent(t, token, '/api/v1/payments/create-training-payment', {
      plan_name: 'professional',
      plan_price: 19.99,
      plan_credits: 8,
    });
    expect(intent.amount).toBe(1999);
    await payWithCard(t, token, intent).expect(200);
    const confirmed = await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: intent.payment_intent_id,
    });
    expect(confirmed.status).toBe(200);
    expect(await profileOf(t, token)).toMatchObject({
      plan_type: 'professional',
      training_limit: 5,
      credits_balance: 8,
    });

    const sub = ZSubscriptionResponseSchema.parse(
      (await t.request.get('/api/v1/payments/subscription').set(bearer(token))).body,
    );
    expect(sub).toMatchObject({
      status: 'active',
      tier: 'professional',
      billing_cycle: 'monthly',
      can_cancel: true,
      can_reactivate: false,
    });
    expect(sub.features.training_jobs).toBe(5);
    expect(new Date(sub.next_billing_date!).getTime()).toBeGreaterThan(
      Date.now() + 29 * 86_400_000,
    );

    const cancel = await post(token, '/api/v1/payments/cancel-subscription');
    expect(cancel.status).toBe(200);
    const cancelled = ZCancelSubscriptionResponseSchema.parse(cancel.body);
    expect(cancelled.credits_retained).toBe(8);
    expect(cancelled.access_until).toBe(sub.next_billing_date);
    expect((await post(token, '/api/v1/payments/cancel-subscription')).status).toBe(409);

    const during = (await t.request.get('/api/v1/payments/subscription').set(bearer(token))).body;
    expect(during).toMatchObject({
      status: 'cancelling',
      cancel_at_period_end: true,
      can_cancel: false,
      can_reactivate: true,
    });
    expect((await profileOf(t, token)).plan_type).toBe('professional');

    const reactivated = await post(token, '/api/v1/payments/reactivate-subscription');
    expect(reactivated.status).toBe(200);
    expect(reactivated.body.subscription).toMatchObject({
      status: 'active',
      can_reactivate: false,
    });
    expect((await post(token, '/api/v1/payments/reactivate-subscription')).status).toBe(409);
  });

  it('returns a cancelled subscription past its period to the free plan, keeping credits and bought slots', async () => {
    const token = await newUser();
    const slots = await createIntent(t, token, '/api/v1/payments/create-training-purchase', {
      quantity: 1,
    });
    await payWithCard(t, token, slots).expect(200);
    await post(token, '/api/v1/payments/confirm-payment', {
      payment_intent_id: slots.payment_intent_id,
    }).expect(200);
    const plan = await createIntent(t, token, '/api/v1/payments/create-training-payment', {
      plan_name: 'starter',
    });
    await payWithCard(t, token, plan).expect(200);
    await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: plan.payment_intent_id,
    }).expect(200);
    expect(await profileOf(t, token)).toMatchObject({
      plan_type: 'starter',
      training_limit: 2,
      credits_balance: 4,
    });
    await post(token, '/api/v1/payments/cancel-subscription').expect(200);
    await t.c.db
      .updateTable('subscriptions')
      .set({ current_period_end: sql`now() - interval '1 minute'` })
      .where('status', '=', 'cancelling')
      .execute();
    const sub = (await t.request.get('/api/v1/payments/subscription').set(bearer(token))).body;
    expect(sub).toMatchObject({
      status: 'free',
      tier: 'free',
      can_cancel: false,
      can_reactivate: false,
    });
    expect(await profileOf(t, token)).toMatchObject({
      plan_type: 'free',
      training_limit: 1,
      credits_balance: 4,
    });
  });

  it('upgrades only above the current tier, at the catalogue price', async () => {
    const token = await newUser();
    const none = await post(token, '/api/v1/payments/create-upgrade', {
      plan_id: null,
      current_plan: 'free',
      upgrade_immediately: true,
    });
    expect(none.status).toBe(422);
    expect(none.body.detail).toBe(`plan_id: ${MESSAGES.noTargetPlan}`);
    const intent = await createIntent(t, token, '/api/v1/payments/create-upgrade', {
      plan_id: 'premium',
      current_plan: 'free',
      upgrade_immediately: true,
    });
    // From the free plan nothing is running to prorate: Premium is bought as a new subscription.
    expect(intent.amount).toBe(3999);
    await payWithCard(t, token, intent).expect(200);
    await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: intent.payment_intent_id,
    }).expect(200);
    expect(await profileOf(t, token)).toMatchObject({
      plan_type: 'premium',
      training_limit: 10,
      credits_balance: 16,
    });
    const down = await post(token, '/api/v1/payments/create-upgrade', {
      plan_id: 'professional',
      current_plan: 'premium',
    });
    // The account is already above it: its state refuses the upgrade (409).
    expect(down.status).toBe(409);
    expect(down.body.detail).toMatch(/^Failed to create upgrade payment/);
  });
});

describe('a payment never lowers a plan', () => {
  /** Pays and confirms a plan payment through the named call. */
  async function buyPlan(token: string, path: string, body: object) {
    const intent = await createIntent(t, token, path, body);
    await payWithCard(t, token, intent).expect(200);
    return {
      intent,
      confirmed: await post(token, '/api/v1/payments/confirm-plan-subscription', {
        payment_intent_id: intent.payment_intent_id,
      }),
    };
  }
  async function providerRefund(intentId: string) {
    const row = await t.c.db
      .selectFrom('test_payment_intents')
      .select(['amount', 'amount_refunded'])
      .where('id', '=', intentId)
      .executeTakeFirstOrThrow();
    return row;
  }

  it('a premium user cannot buy starter through create-training-payment', async () => {
    const token = await newUser();
    await buyPlan(token, '/api/v1/payments/create-upgrade', { plan_id: 'premium' });
    const before = await countRows(t);
    const res = await post(token, '/api/v1/payments/create-training-payment', {
      plan_name: 'starter',
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(
      `${MESSAGES.trainingPaymentFailed}: you are already on Premium or a higher plan.`,
    );
    expect(await countRows(t)).toEqual(before);
    expect(await profileOf(t, token)).toMatchObject({ plan_type: 'premium', training_limit: 10 });
  });

  it('a subscriber cannot buy a higher plan at list price: the upgrade charges the difference', async () => {
    const token = await newUser();
    await buyPlan(token, '/api/v1/payments/create-training-payment', { plan_name: 'starter' });
    const before = await countRows(t);
    const res = await post(token, '/api/v1/payments/create-training-payment', {
      plan_name: 'professional',
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(MESSAGES.planChangeNeedsUpgrade);
    expect(await countRows(t)).toEqual(before);
    expect((await profileOf(t, token)).plan_type).toBe('starter');
  });

  it('a stale upgrade confirmed after a higher purchase is refunded, and the plan stays', async () => {
    const token = await newUser();
    // Two tabs on the free plan: one starts an upgrade to professional, the other buys premium.
    const stale = await createIntent(t, token, '/api/v1/payments/create-upgrade', {
      plan_id: 'professional',
    });
    await buyPlan(token, '/api/v1/payments/create-upgrade', { plan_id: 'premium' });
    const after = await profileOf(t, token);
    await payWithCard(t, token, stale).expect(200);
    const res = await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: stale.payment_intent_id,
    });
    expect([res.status, res.body.detail]).toEqual([409, MESSAGES.stalePlanPaymentRefunded]);
    expect(await profileOf(t, token)).toEqual(after);
    const refund = await providerRefund(stale.payment_intent_id);
    expect(refund.amount_refunded).toBe(refund.amount);
    // Confirming again changes nothing and refunds nothing more.
    const again = await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: stale.payment_intent_id,
    });
    expect(again.status).toBe(409);
    expect((await providerRefund(stale.payment_intent_id)).amount_refunded).toBe(refund.amount);
    expect(await profileOf(t, token)).toEqual(after);
  });

  it('an upgrade bound to the plan it was priced from does not apply from another plan', async () => {
    const token = await newUser();
    const fromFree = await createIntent(t, token, '/api/v1/payments/create-upgrade', {
      plan_id: 'premium',
    });
    await buyPlan(token, '/api/v1/payments/create-training-payment', { plan_name: 'starter' });
    await payWithCard(t, token, fromFree).expect(200);
    const res = await post(token, '/api/v1/payments/confirm-plan-subscription', {
      payment_intent_id: fromFree.payment_intent_id,
    });
    expect(res.status).toBe(409);
    expect((await profileOf(t, token)).plan_type).toBe('starter');
  });
});

describe('generation order', () => {
  it('charges $29; the order pays for its one generation, so no credits are granted', async () => {
    const buyer = await registerUser(t);
    const token = buyer.tokens.access_token;
    await trainedModel(t, (buyer.res.body as { user: { id: string } }).user.id);
    const intent = await createIntent(t, token, '/api/v1/users/create-payment-intent', {
      style: 'professional',
    });
    expect(intent.amount).toBe(2900);
    await payWithCard(t, token, intent).expect(200);
    const res = await post(token, '/api/v1/payments/confirm-payment', {
      payment_intent_id: intent.payment_intent_id,
    });
    expect(res.body).toMatchObject({
      kind: 'generation',
      credits_awarded: 0,
      new_credits_balance: 0,
    });
  });
});

describe('payments need a signed-in user', () => {
  it.each([
    '/api/v1/payments/create-credit-package',
    '/api/v1/payments/confirm-payment',
    '/api/v1/payments/cancel-subscription',
    '/api/v1/users/create-payment-intent',
  ])('%s answers 401 without a token', async (path) => {
    expect((await t.request.post(path).send({})).status).toBe(401);
  });
});
