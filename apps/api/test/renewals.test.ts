import type { SubscriptionResponse, TestClockAdvanceResponse } from '@studioshot/contracts';
import { findPlan } from '@studioshot/pricing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsRepository } from '../src/money/payments.repository.js';
import { SubscriptionPeriodsRepository } from '../src/money/subscription-periods.repository.js';
import { registerScheduledWork } from '../src/scheduling/scheduled-work.js';
import { renewalChargeKey } from '../src/money/renewals.service.js';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';
import { createIntent, GOOD_CARD, payWithCard, profileOf } from './payments-helpers.js';
import { completedSession, startTraining } from './training-helpers.js';

/** Stripe's test card that attaches to a customer and declines every charge. */
const DECLINES_ON_RENEWAL = { ...GOOD_CARD, number: '4000 0000 0000 0341' };
const STARTER = findPlan('starter')!;
const PREMIUM = findPlan('premium')!;
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let periods: SubscriptionPeriodsRepository;

beforeAll(async () => {
  t = await createTestApp();
  periods = new SubscriptionPeriodsRepository(t.c.db);
});
afterAll(async () => {
  await t.close();
});

async function newUser() {
  const user = await registerUser(t);
  const id = (user.res.body as { user: { id: string } }).user.id;
  return { id, token: user.tokens.access_token, name: user.name };
}
type User = Awaited<ReturnType<typeof newUser>>;

async function subscribe(user: User, plan = 'starter', cycle?: 'monthly' | 'annual') {
  const intent = await createIntent(t, user.token, '/api/v1/payments/create-training-payment', {
    plan_name: plan,
    ...(cycle ? { billing_cycle: cycle } : {}),
  });
  await payWithCard(t, user.token, intent).expect(200);
  await t.request
    .post('/api/v1/payments/confirm-plan-subscription')
    .set(bearer(user.token))
    .send({ payment_intent_id: intent.payment_intent_id })
    .expect(200);
  return intent;
}

async function buyTrainingSlot(user: User) {
  const intent = await createIntent(t, user.token, '/api/v1/payments/create-training-purchase', {
    quantity: 1,
  });
  await payWithCard(t, user.token, intent).expect(200);
  await t.request
    .post('/api/v1/payments/confirm-payment')
    .set(bearer(user.token))
    .send({ payment_intent_id: intent.payment_intent_id })
    .expect(200);
}

async function advance(user: User): Promise<TestClockAdvanceResponse> {
  const res = await t.request.post('/api/v1/payments/test/advance-clock').set(bearer(user.token));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as TestClockAdvanceResponse;
}

async function subscriptionOf(user: User): Promise<SubscriptionResponse> {
  const res = await t.request.get('/api/v1/payments/subscription').set(bearer(user.token));
  expect(res.status).toBe(200);
  return res.body as SubscriptionResponse;
}

function putCardOnFile(user: User, card = GOOD_CARD) {
  return t.request
    .post('/api/v1/payments/test/card-on-file')
    .set(bearer(user.token))
    .send({ card });
}

/** The user's ledger rows of monthly subscription credits. */
async function creditMonths(userId: string) {
  return t.c.db
    .selectFrom('credit_ledger')
    .select(['delta', 'idempotency_key'])
    .where('user_id', '=', userId)
    .where('reason', '=', 'subscription_credits')
    .execute();
}

/**
 * The account as committed. Read after billing work run outside a request (the service called
 * directly, the scheduled worker): the profile call may still answer from its cache until
 * Postgres's change announcement arrives, a moment later.
 */
function accountOf(userId: string) {
  return t.c.db
    .selectFrom('users')
    .select(['credits_balance', 'plan_type', 'training_limit'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Renewal charges made at the provider, by outcome. */
async function renewalCharges(userId: string) {
  const rows = await t.c.db
    .selectFrom('test_payment_intents')
    .select(['status', 'amount', 'last_payment_error'])
    .where(({ ref }) => ref('metadata', '->>').key('user_id'), '=', userId)
    .where(({ ref }) => ref('metadata', '->>').key('kind'), '=', 'renewal')
    .execute();
  return {
    succeeded: rows.filter((r) => r.status === 'succeeded').map((r) => r.amount),
    declined: rows.filter((r) => r.last_payment_error !== null).length,
  };
}

/** Moves the user's test clock to the end of the current period, running nothing. */
async function bringPeriodEndToNow(userId: string): Promise<Date> {
  const end = (await periods.find(userId))!.current_period_end;
  await periods.transaction(async (trx) => {
    const lead = await periods.clockOffsetMs(trx, userId);
    await periods.moveClock(trx, userId, end.getTime() - (Date.now() + lead));
  });
  return end;
}

/**
 * Moves the user's first (and only) period to run from `start` to `end`, as if the plan had been
 * bought then: the subscription's anchor, its period and its first credit month.
 */
async function moveFirstPeriodTo(userId: string, start: Date, end: Date): Promise<void> {
  await periods.transaction(async (trx) => {
    await trx
      .updateTable('subscription_periods')
      .set({ period_start: start, period_end: end })
      .where('user_id', '=', userId)
      .execute();
    await trx
      .updateTable('subscription_allowances')
      .set({ month_start: start, month_end: end })
      .where('user_id', '=', userId)
      .execute();
    await periods.update(trx, userId, {
      billing_anchor: start,
      current_period_start: start,
      current_period_end: end,
      allowance_period_start: start,
      allowance_period_end: end,
    });
  });
}

describe('renewals', () => {
  it('renews period after period, each period granted once while the job, a second replica, the sweep and the provider event race', async () => {
    const user = await newUser();
    // The subscription's own confirm, twice at once with the payment's provider event.
    const intent = await createIntent(t, user.token, '/api/v1/payments/create-training-payment', {
      plan_name: 'starter',
    });
    await payWithCard(t, user.token, intent).expect(200);
    const paid = await t.c.testPaymentProvider!.retrieveIntent(intent.payment_intent_id);
    const payment = (await new PaymentsRepository(t.c.db).findByIntent(intent.payment_intent_id))!;
    const confirm = () =>
      t.request
        .post('/api/v1/payments/confirm-plan-subscription')
        .set(bearer(user.token))
        .send({ payment_intent_id: intent.payment_intent_id });
    const [first, second] = await Promise.all([
      confirm(),
      confirm(),
      t.c.fulfilment.fulfil(payment, paid!),
      t.c.renewals.processDue(user.id),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await accountOf(user.id)).credits_balance).toBe(STARTER.credits);

    for (let period = 1; period <= 3; period += 1) {
      const start = await bringPeriodEndToNow(user.id);
      // The provider reports the charge the renewal job makes (the same attempt's key): the
      // job on two replicas, the sweep and that event all deliver the same period at once.
      const providerEvent = async () => {
        const charge = await t.c.testPaymentProvider!.chargeCardOnFile({
          userId: user.id,
          amount: STARTER.price_cents,
          currency: 'usd',
          metadata: { user_id: user.id, kind: 'renewal', period_start: start.toISOString() },
          idempotencyKey: renewalChargeKey(user.id, start, 1),
        });
        expect(charge.ok).toBe(true);
        return t.c.renewals.recordRenewalPaid(user.id, start, {
          provider: 'test',
          reference: charge.intent.id,
          amountCents: charge.intent.amount,
          currency: charge.intent.currency,
        });
      };
      await Promise.all([
        t.c.renewals.processDue(user.id),
        t.c.renewals.processDue(user.id),
        t.c.renewals.processAllDue(),
        providerEvent(),
        providerEvent(),
      ]);
      expect((await accountOf(user.id)).credits_balance).toBe(STARTER.credits * (period + 1));
      const sub = (await periods.find(user.id))!;
      expect(sub.status).toBe('active');
      expect(sub.current_period_start.toISOString()).toBe(start.toISOString());
      expect(await creditMonths(user.id)).toHaveLength(period);
      // One charge per period, whoever asked.
      expect((await renewalCharges(user.id)).succeeded).toEqual(
        Array.from({ length: period }, () => STARTER.price_cents),
      );
    }
    const history = await t.c.db
      .selectFrom('subscription_periods')
      .select(['status', 'amount_cents'])
      .where('user_id', '=', user.id)
      .execute();
    expect(history).toEqual(
      Array.from({ length: 4 }, () => ({ status: 'paid', amount_cents: STARTER.price_cents })),
    );
    const renewals = await t.c.db
      .selectFrom('payments')
      .select(['status', 'amount_cents'])
      .where('user_id', '=', user.id)
      .where('kind', '=', 'renewal')
      .execute();
    expect(renewals).toEqual(
      Array.from({ length: 3 }, () => ({ status: 'succeeded', amount_cents: STARTER.price_cents })),
    );
  });

  it('an upgrade paid after the renewal was first looked at renews at the new plan and its price', async () => {
    const user = await newUser();
    await subscribe(user);
    await putCardOnFile(user).expect(200);
    const end = await bringPeriodEndToNow(user.id);
    // A read settles what takes no money: the next period is recorded (as due, at Starter).
    expect(await t.c.renewals.processDue(user.id, { charge: false })).toEqual([]);
    expect((await periods.findPeriod(t.c.db, user.id, end))?.tier).toBe('starter');
    // The upgrade is paid before the renewal is charged.
    const upgrade = await createIntent(t, user.token, '/api/v1/payments/create-upgrade', {
      plan_id: 'professional',
    });
    await payWithCard(t, user.token, upgrade).expect(200);
    await t.request
      .post('/api/v1/payments/confirm-plan-subscription')
      .set(bearer(user.token))
      .send({ payment_intent_id: upgrade.payment_intent_id })
      .expect(200);
    expect(await t.c.renewals.processDue(user.id)).toEqual(['renewed']);
    // Renewed as what the user now has, at its price: a payment never lowers a plan.
    expect((await accountOf(user.id)).plan_type).toBe('professional');
    expect((await periods.find(user.id))?.tier).toBe('professional');
    expect((await renewalCharges(user.id)).succeeded).toEqual([
      findPlan('professional')!.price_cents,
    ]);
  });

  it("a plan bought on 31 January renews on February's last day, then 31 March and 30 April: periods keep to the first one's day", async () => {
    const user = await newUser();
    await subscribe(user);
    // The next 31 January, ahead of the wall clock as the test clock's time always is.
    const year = new Date().getUTCFullYear() + 1;
    const at = (month: number, day: number) => new Date(Date.UTC(year, month - 1, day, 12));
    const februaryEnd = new Date(Date.UTC(year, 2, 0)).getUTCDate();
    await moveFirstPeriodTo(user.id, at(1, 31), at(2, februaryEnd));

    const advancedTo: string[] = [];
    const renew = async (steps: string[]) => {
      const moved = await advance(user);
      expect(moved.steps).toEqual(steps);
      advancedTo.push(moved.advanced_to);
    };
    await renew(['renewed']);
    // The 31 March renewal is declined, then paid on its retry a day later: the period it pays
    // still runs from 31 March to 30 April.
    await putCardOnFile(user, DECLINES_ON_RENEWAL).expect(200);
    await renew(['renewal_failed']);
    await putCardOnFile(user).expect(200);
    await renew(['renewed']);
    await renew(['renewed']);
    const starts = await t.c.db
      .selectFrom('subscription_periods')
      .select(['period_start', 'period_end', 'status'])
      .where('user_id', '=', user.id)
      .orderBy('period_start')
      .execute();
    expect(starts).toEqual([
      { period_start: at(1, 31), period_end: at(2, februaryEnd), status: 'paid' },
      { period_start: at(2, februaryEnd), period_end: at(3, 31), status: 'paid' },
      { period_start: at(3, 31), period_end: at(4, 30), status: 'paid' },
      { period_start: at(4, 30), period_end: at(5, 31), status: 'paid' },
    ]);
    expect(advancedTo).toEqual(
      [at(2, februaryEnd), at(3, 31), at(4, 1), at(4, 30)].map((d) => d.toISOString()),
    );
    expect(await subscriptionOf(user)).toMatchObject({
      status: 'active',
      next_charge: { date: at(5, 31).toISOString(), amount_cents: STARTER.price_cents },
    });
    expect((await profileOf(t, user.token)).credits_balance).toBe(STARTER.credits * 4);
  });

  it('a period the provider reports paid before it starts takes effect at its start, without another charge; a late failure report changes nothing', async () => {
    const user = await newUser();
    await subscribe(user);
    const next = (await periods.find(user.id))!.current_period_end;
    expect(
      await t.c.renewals.recordRenewalPaid(user.id, next, {
        provider: 'stripe',
        reference: 'in_early_1',
        amountCents: STARTER.price_cents,
        currency: 'usd',
      }),
    ).toBe(true);
    // Delivered again: recorded once.
    expect(
      await t.c.renewals.recordRenewalPaid(user.id, next, {
        provider: 'stripe',
        reference: 'in_early_1',
        amountCents: STARTER.price_cents,
        currency: 'usd',
      }),
    ).toBe(false);
    // Not started yet: nothing granted.
    expect((await accountOf(user.id)).credits_balance).toBe(STARTER.credits);
    // A failure of that same period arriving after its success is kept as history only.
    await t.c.renewals.recordRenewalFailed(user.id, next, {
      provider: 'stripe',
      reference: 'in_early_1_attempt_0',
      amountCents: STARTER.price_cents,
      currency: 'usd',
      message: 'Your card was declined.',
    });
    expect((await subscriptionOf(user)).status).toBe('active');

    const moved = await advance(user);
    expect(moved.steps).toEqual(['renewed']);
    expect((await profileOf(t, user.token)).credits_balance).toBe(STARTER.credits * 2);
    expect((await renewalCharges(user.id)).succeeded).toEqual([]);
  });

  it('a failed renewal keeps the plan while it is retried; a new card and the next retry recover it', async () => {
    const user = await newUser();
    await subscribe(user);
    await putCardOnFile(user, DECLINES_ON_RENEWAL).expect(200);
    const end = (await periods.find(user.id))!.current_period_end;

    const failed = await advance(user);
    expect(failed.steps).toEqual(['renewal_failed']);
    const pastDue = failed.subscription;
    expect(pastDue).toMatchObject({
      status: 'past_due',
      tier: 'starter',
      can_cancel: false,
      allowance_resets_at: null,
      renewal_problem: {
        state: 'retrying',
        tier: 'starter',
        reason: 'Your card was declined.',
        lapsed_at: null,
        // Paid in the app with a new card (test mode has no provider page to send the owner to).
        pay_url: null,
      },
    });
    // The retry a day after the period end; the last one five days after.
    const periodEnd = end.getTime();
    expect(Date.parse(failed.advanced_to)).toBe(periodEnd);
    expect(Date.parse(pastDue.renewal_problem!.next_attempt_at!)).toBe(periodEnd + DAY_MS);
    expect(Date.parse(pastDue.renewal_problem!.final_attempt_at!)).toBe(periodEnd + 5 * DAY_MS);
    expect(pastDue.next_charge).toEqual({
      date: pastDue.renewal_problem!.next_attempt_at,
      amount_cents: STARTER.price_cents,
      currency: 'usd',
    });
    // The plan is kept meanwhile, and nothing was granted.
    expect(await profileOf(t, user.token)).toMatchObject({
      plan_type: 'starter',
      credits_balance: STARTER.credits,
    });

    // A declining card is refused as a card on file; a good one replaces the failing one.
    await putCardOnFile(user, { ...GOOD_CARD, number: '4000 0000 0000 0002' })
      .expect(402)
      .expect((res) => expect(res.body.detail).toBe('Your card was declined.'));
    const card = await putCardOnFile(user).expect(200);
    expect(card.body).toEqual({
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
    });

    const recovered = await advance(user);
    expect(recovered.steps).toEqual(['renewed']);
    expect(recovered.subscription).toMatchObject({
      status: 'active',
      renewal_problem: null,
      next_charge: { amount_cents: STARTER.price_cents },
    });
    expect((await profileOf(t, user.token)).credits_balance).toBe(STARTER.credits * 2);
    expect(await renewalCharges(user.id)).toEqual({
      succeeded: [STARTER.price_cents],
      declined: 1,
    });
    // The new period starts where the unpaid one was due: no time lost or given.
    const renewed = (await periods.find(user.id))!;
    expect(renewed.current_period_start.getTime()).toBe(periodEnd);
    expect(Date.parse(recovered.advanced_to)).toBe(periodEnd + DAY_MS);
    const statuses = await t.c.db
      .selectFrom('payments')
      .select('status')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'renewal')
      .orderBy('created_at')
      .execute();
    expect(statuses.map((r) => r.status)).toEqual(['failed', 'succeeded']);
  });

  it('a failed renewal paid now by its owner: a decline leaves the retry schedule, a good card renews at once', async () => {
    const user = await newUser();
    await subscribe(user);
    await putCardOnFile(user, DECLINES_ON_RENEWAL).expect(200);
    const failed = await advance(user);
    const retryAt = failed.subscription.renewal_problem!.next_attempt_at;
    const payNow = () =>
      t.request.post('/api/v1/payments/pay-renewal').set(bearer(user.token)).send();

    const declined = await payNow().expect(402);
    expect(declined.body.detail).toBe('Your card was declined.');
    expect((await subscriptionOf(user)).renewal_problem).toMatchObject({
      state: 'retrying',
      next_attempt_at: retryAt,
    });

    await putCardOnFile(user).expect(200);
    const paid = await payNow().expect(200);
    expect(paid.body.subscription).toMatchObject({ status: 'active', renewal_problem: null });
    expect((await profileOf(t, user.token)).credits_balance).toBe(STARTER.credits * 2);
    expect(await renewalCharges(user.id)).toEqual({
      succeeded: [STARTER.price_cents],
      declined: 2,
    });
    // Paid: nothing more to pay, and the next due moment is the new period's end.
    const nothing = await payNow().expect(409);
    expect(nothing.body.detail).toBe(
      'There is no failed renewal to pay: your subscription is up to date.',
    );
    expect((await advance(user)).steps).toEqual(['renewed']);
  });

  it('a renewal that fails every retry lapses to free, keeping credits and unused bought slots', async () => {
    const user = await newUser();
    await buyTrainingSlot(user);
    await subscribe(user);
    await putCardOnFile(user, DECLINES_ON_RENEWAL).expect(200);
    expect(await profileOf(t, user.token)).toMatchObject({ training_limit: 2 });

    const steps: string[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) steps.push(...(await advance(user)).steps);
    expect(steps).toEqual(['renewal_failed', 'renewal_failed', 'renewal_failed', 'lapsed']);

    const lapsed = await subscriptionOf(user);
    expect(lapsed).toMatchObject({
      status: 'free',
      tier: 'free',
      next_charge: null,
      renewal_problem: {
        state: 'lapsed',
        tier: 'starter',
        reason: 'Your card was declined.',
        next_attempt_at: null,
      },
    });
    expect(lapsed.renewal_problem?.lapsed_at).toEqual(expect.any(String));
    expect(await profileOf(t, user.token)).toMatchObject({
      plan_type: 'free',
      credits_balance: STARTER.credits,
      training_limit: 1,
    });
    expect(await renewalCharges(user.id)).toEqual({ succeeded: [], declined: 4 });
    // Nothing more is due: the clock has nothing to advance.
    await t.request.post('/api/v1/payments/test/advance-clock').set(bearer(user.token)).expect(409);
    // The unpaid period is closed for good.
    const unpaid = await t.c.db
      .selectFrom('subscription_periods')
      .select('status')
      .where('user_id', '=', user.id)
      .where('status', '!=', 'paid')
      .execute();
    expect(unpaid).toEqual([{ status: 'failed' }]);
  });

  it('cancelled at period end: access until then, then free with credits kept; reactivated: renews', async () => {
    const user = await newUser();
    await subscribe(user);
    await t.request
      .post('/api/v1/payments/cancel-subscription')
      .set(bearer(user.token))
      .expect(200);
    const cancelling = await subscriptionOf(user);
    expect(cancelling).toMatchObject({ status: 'cancelling', next_charge: null });
    const ended = await advance(user);
    expect(ended.steps).toEqual(['ended']);
    expect(ended.subscription).toMatchObject({
      status: 'free',
      renewal_problem: null,
      next_charge: null,
    });
    expect(await profileOf(t, user.token)).toMatchObject({
      plan_type: 'free',
      credits_balance: STARTER.credits,
      training_limit: 0,
    });
    expect(await renewalCharges(user.id)).toEqual({ succeeded: [], declined: 0 });

    const other = await newUser();
    await subscribe(other);
    await t.request
      .post('/api/v1/payments/cancel-subscription')
      .set(bearer(other.token))
      .expect(200);
    await t.request
      .post('/api/v1/payments/reactivate-subscription')
      .set(bearer(other.token))
      .expect(200);
    expect((await advance(other)).steps).toEqual(['renewed']);
    expect((await profileOf(t, other.token)).credits_balance).toBe(STARTER.credits * 2);
  });

  it('annual billing: ten months for twelve, credits every month, and the annual interval the custom prompt rule reads', async () => {
    const user = await newUser();
    const intent = await subscribe(user, 'premium', 'annual');
    expect(intent.amount).toBe(PREMIUM.price_cents * 10);
    expect(await profileOf(t, user.token)).toMatchObject({
      plan_type: 'premium',
      credits_balance: PREMIUM.credits,
    });
    const profile = (await t.request.get('/api/v1/users/profile').set(bearer(user.token))).body;
    expect(profile.subscription_interval).toBe('annual');

    const sub = await subscriptionOf(user);
    expect(sub).toMatchObject({
      status: 'active',
      billing_cycle: 'annual',
      next_charge: { amount_cents: PREMIUM.price_cents * 10, currency: 'usd' },
    });
    // The credits renew monthly, the charge yearly.
    const yearEnd = Date.parse(sub.next_charge!.date);
    const monthEnd = Date.parse(sub.allowance_resets_at!);
    expect(yearEnd - monthEnd).toBeGreaterThan(300 * DAY_MS);

    for (let month = 2; month <= 12; month += 1) {
      const moved = await advance(user);
      expect(moved.steps).toEqual(['credit_month']);
      expect(moved.subscription.next_charge?.amount_cents).toBe(PREMIUM.price_cents * 10);
      expect((await profileOf(t, user.token)).credits_balance).toBe(PREMIUM.credits * month);
    }
    expect(await renewalCharges(user.id)).toEqual({ succeeded: [], declined: 0 });
    // The twelfth month ends with the year: the renewal charges the annual price.
    const renewed = await advance(user);
    expect(renewed.steps).toEqual(['renewed']);
    expect((await profileOf(t, user.token)).credits_balance).toBe(PREMIUM.credits * 13);
    expect(await renewalCharges(user.id)).toEqual({
      succeeded: [PREMIUM.price_cents * 10],
      declined: 0,
    });

    // The custom prompt is for premium billed annually (generation.test.ts covers the rule on
    // the profile's interval): a monthly premium purchase records monthly.
    const monthly = await newUser();
    await subscribe(monthly, 'premium');
    expect(
      (await t.request.get('/api/v1/users/profile').set(bearer(monthly.token))).body
        .subscription_interval,
    ).toBe('monthly');
  });

  it('a stale price for the annual plan is refused before any charge', async () => {
    const user = await newUser();
    const res = await t.request
      .post('/api/v1/payments/create-training-payment')
      .set(bearer(user.token))
      .send({ plan_name: 'starter', billing_cycle: 'annual', plan_price: 9.99 });
    expect(res.status).toBe(409);
    const bad = await t.request
      .post('/api/v1/payments/create-training-payment')
      .set(bearer(user.token))
      .send({ plan_name: 'starter', billing_cycle: 'yearly' });
    expect(bad.status).toBe(422);
    expect(
      await t.c.db.selectFrom('payments').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  });

  it("the training allowance counts this period's trainings and resets; bought slots carry over until used", async () => {
    const user = await newUser();
    await buyTrainingSlot(user);
    await subscribe(user);
    const trainer = { id: user.id, token: user.token } as Parameters<typeof startTraining>[1];
    // Starter's 1 training plus 1 bought: one training this period leaves the bought slot.
    await startTraining(t, trainer, await completedSession(t, user.id));
    expect(await profileOf(t, user.token)).toMatchObject({ training_limit: 2 });
    expect((await advance(user)).steps).toEqual(['renewed']);
    let profile = (await t.request.get('/api/v1/users/profile').set(bearer(user.token))).body;
    expect(profile).toMatchObject({ training_limit: 2, models_trained: 0 });

    // Two trainings: the plan's, then the bought slot. Next period only the plan's is back.
    await startTraining(t, trainer, await completedSession(t, user.id));
    await startTraining(t, trainer, await completedSession(t, user.id));
    const refused = await t.request
      .post('/api/v1/training/start')
      .set(bearer(user.token))
      .send({ model_name: 'One too many', session_id: await completedSession(t, user.id) });
    expect(refused.status).toBe(403);
    expect((await advance(user)).steps).toEqual(['renewed']);
    profile = (await t.request.get('/api/v1/users/profile').set(bearer(user.token))).body;
    expect(profile).toMatchObject({ training_limit: 1, models_trained: 0 });
    await startTraining(t, trainer, await completedSession(t, user.id));
  });

  it("puts each period end on the scheduled queue, and the API's worker renews when it fires", async () => {
    const user = await newUser();
    await subscribe(user);
    const end = (await periods.find(user.id))!.current_period_end;
    const jobId = `renew.${user.id}.${end.getTime()}`;
    expect(await t.c.scheduled.job(jobId)).toEqual({
      name: 'billing.renew',
      state: 'delayed',
      runAt: end,
    });
    // The API process's own registration and worker, as main.ts starts them.
    await registerScheduledWork(t.c);
    const worker = t.c.scheduled.start();
    const ran = new Promise<void>((resolve) =>
      worker.on('completed', (job) => {
        if (job.id === jobId) resolve();
      }),
    );
    await bringPeriodEndToNow(user.id);
    await (await t.c.scheduled.queue.getJob(jobId))!.promote();
    await ran;
    expect((await accountOf(user.id)).credits_balance).toBe(STARTER.credits * 2);
    // The next period's end is on the queue in turn.
    const next = (await periods.find(user.id))!.current_period_end;
    expect(await t.c.scheduled.job(`renew.${user.id}.${next.getTime()}`)).toMatchObject({
      state: 'delayed',
    });
  });

  it('the test clock is refused without a subscription, and is not served when turned off', async () => {
    const user = await newUser();
    const res = await t.request.post('/api/v1/payments/test/advance-clock').set(bearer(user.token));
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(
      'There is no running subscription to advance: subscribe to a plan first.',
    );
    const off = await createTestApp({ TEST_CLOCK: 'false' });
    try {
      const other = await registerUser(off);
      await off.request
        .post('/api/v1/payments/test/advance-clock')
        .set(bearer(other.tokens.access_token))
        .expect(404);
    } finally {
      await off.close();
    }
  });
});
