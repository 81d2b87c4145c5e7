// Plans in Stripe mode: Stripe Billing subscriptions made through stripe-mock with the real
// stripe SDK, then driven by signed webhook events replayed the way Stripe would send them:
// twice, concurrently, and out of order. stripe-mock answers every subscription with the same
// sample first invoice, so each scenario runs in its own app and database.
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, registerUser, type TestApp } from './helpers.js';
import { profileReaches } from './payments-helpers.js';
import Stripe from 'stripe';
import {
  createStripeApp,
  deliver,
  hostedInvoiceUrl,
  SECRET_KEY,
  stripeMockUrl,
  invoice,
  monthlyPeriods,
  stripeEvent,
  subscription,
  type Period,
} from './stripe-helpers.js';

const PROFESSIONAL_CENTS = 1999;
const PROFESSIONAL_CREDITS = 8;

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A user who has bought Professional through Stripe: the subscription Stripe made, unpaid. */
async function subscriber(cycle: 'monthly' | 'annual' = 'monthly') {
  const t = await createStripeApp();
  apps.push(t);
  const { tokens, res } = await registerUser(t);
  const token = tokens.access_token;
  const userId = res.body.user.id as string;
  const created = await t.request
    .post('/api/v1/payments/create-training-payment')
    .set(bearer(token))
    .send({
      plan_name: 'Professional',
      ...(cycle === 'annual' ? { billing_cycle: 'annual' } : {}),
    });
  expect(created.status).toBe(200);
  const sub = await t.c.db
    .selectFrom('stripe_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { t, token, userId, created: created.body, subscriptionId: sub.id };
}

type Subscriber = Awaited<ReturnType<typeof subscriber>>;

/** Periods moved two days back: the first ended two days ago, when Stripe charged the next. */
const twoDaysEarlier = (periods: Period[]) =>
  periods.map((p) => ({
    start: new Date(p.start.getTime() - 2 * 24 * 3600_000),
    end: new Date(p.end.getTime() - 2 * 24 * 3600_000),
  }));

function paid(s: Subscriber, period: Period, reason: 'subscription_create' | 'subscription_cycle') {
  return stripeEvent(
    'invoice.paid',
    invoice({
      subscription: s.subscriptionId,
      period,
      amount: PROFESSIONAL_CENTS,
      billingReason: reason,
      paid: true,
    }),
  );
}

async function subscriptionOf(s: Subscriber) {
  return (await s.t.request.get('/api/v1/payments/subscription').set(bearer(s.token))).body as {
    status: string;
    tier: string;
    billing_cycle: string | null;
    next_billing_date: string | null;
    cancel_at_period_end: boolean;
    renewal_problem: { state: string; pay_url?: string | null } | null;
  };
}

/** Stripe's charge of a renewal invoice failed (its `attempt`th try). */
function failed(
  s: Subscriber,
  period: Period,
  input: { id: string; attempt: number; nextAttempt: Date | null; hostedUrl: string },
) {
  return stripeEvent(
    'invoice.payment_failed',
    invoice({
      ...input,
      subscription: s.subscriptionId,
      period,
      amount: PROFESSIONAL_CENTS,
      billingReason: 'subscription_cycle',
      paid: false,
    }),
  );
}

/** What we keep of the renewal's pay link. */
async function heldPayUrl(s: Subscriber) {
  const row = await s.t.c.db
    .selectFrom('subscriptions')
    .select('renewal_pay_url')
    .where('user_id', '=', s.userId)
    .executeTakeFirstOrThrow();
  return row.renewal_pay_url;
}

describe('a plan bought in Stripe mode', () => {
  it('is a Stripe Billing subscription for a customer of the user, confirmed with its first invoice', async () => {
    const s = await subscriber();
    // The page confirms the first invoice's PaymentIntent with Stripe.js.
    expect(s.created).toMatchObject({
      payment_intent_id: expect.stringMatching(/^pi_/),
      client_secret: expect.stringMatching(/^pi_\w+_secret_\w+$/),
      currency: 'usd',
    });
    expect(s.created.client_secret.startsWith(`${s.created.payment_intent_id}_secret_`)).toBe(true);
    const customer = await s.t.c.db
      .selectFrom('stripe_customers')
      .selectAll()
      .where('user_id', '=', s.userId)
      .executeTakeFirstOrThrow();
    expect(customer.customer_id).toMatch(/^cus_/);
    const sub = await s.t.c.db
      .selectFrom('stripe_subscriptions')
      .selectAll()
      .where('id', '=', s.subscriptionId)
      .executeTakeFirstOrThrow();
    expect(sub).toMatchObject({
      id: expect.stringMatching(/^sub_/),
      customer_id: customer.customer_id,
      item_id: 'professional',
      first_intent_id: s.created.payment_intent_id,
    });
    const payment = await s.t.c.db
      .selectFrom('payments')
      .selectAll()
      .where('provider_intent_id', '=', s.created.payment_intent_id)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      kind: 'subscription',
      item_id: 'professional',
      status: 'pending',
    });
    // Nothing is granted before Stripe says the invoice is paid.
    await profileReaches(s.t, s.token, { plan_type: 'free', credits_balance: 0 });

    // The first invoice paid (twice, at once): the plan starts on Stripe's period, once.
    const [first] = monthlyPeriods(0, 1);
    const event = paid(s, first!, 'subscription_create');
    const statuses = await Promise.all([deliver(s.t, event), deliver(s.t, event)]);
    expect(statuses.map((r) => r.status)).toEqual([200, 200]);
    await profileReaches(s.t, s.token, {
      plan_type: 'professional',
      credits_balance: PROFESSIONAL_CREDITS,
    });
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'active',
      tier: 'professional',
      next_billing_date: first!.end.toISOString(),
    });
  });

  it('annual billing: the annual item at ten months the monthly price, the plan for the year Stripe bills', async () => {
    const s = await subscriber('annual');
    const sub = await s.t.c.db
      .selectFrom('stripe_subscriptions')
      .select('item_id')
      .where('id', '=', s.subscriptionId)
      .executeTakeFirstOrThrow();
    expect(sub.item_id).toBe('professional_annual');
    const start = monthlyPeriods(0, 1)[0]!.start;
    const year = { start, end: monthlyPeriods(0, 13)[12]!.start };
    const event = stripeEvent(
      'invoice.paid',
      invoice({
        subscription: s.subscriptionId,
        period: year,
        amount: 10 * PROFESSIONAL_CENTS,
        billingReason: 'subscription_create',
        paid: true,
      }),
    );
    await deliver(s.t, event).expect(200);
    await profileReaches(s.t, s.token, {
      plan_type: 'professional',
      credits_balance: PROFESSIONAL_CREDITS,
    });
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'active',
      billing_cycle: 'annual',
      next_billing_date: year.end.toISOString(),
    });
  });

  it('renews per period whatever the order: once per period, a renewal before its plan waits', async () => {
    const s = await subscriber();
    const [p1, p2] = twoDaysEarlier(monthlyPeriods(1, 2));
    const renewal = paid(s, p2!, 'subscription_cycle');
    // The renewal arrives before the first invoice's event: refused for now (503), so Stripe
    // sends it again, and nothing is granted.
    const early = await deliver(s.t, renewal);
    expect(early.status).toBe(503);
    await profileReaches(s.t, s.token, { credits_balance: 0 });

    expect((await deliver(s.t, paid(s, p1!, 'subscription_create'))).status).toBe(200);
    // Stripe's redelivery, twice at once, and the same period reported by another event.
    const again = await Promise.all([
      deliver(s.t, renewal),
      deliver(s.t, renewal),
      deliver(s.t, paid(s, p2!, 'subscription_cycle')),
    ]);
    expect(again.map((r) => r.status)).toEqual([200, 200, 200]);
    await profileReaches(s.t, s.token, { credits_balance: 2 * PROFESSIONAL_CREDITS });
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'active',
      next_billing_date: p2!.end.toISOString(),
    });
  });

  it('takes the newest subscription state, not the last to arrive', async () => {
    const s = await subscriber();
    const [p1] = monthlyPeriods(0, 1);
    await deliver(s.t, paid(s, p1!, 'subscription_create')).expect(200);
    const hourAgo = new Date(Date.now() - 3600_000);
    const twoHoursAgo = new Date(Date.now() - 7200_000);
    const cancelled = stripeEvent(
      'customer.subscription.updated',
      subscription({
        id: s.subscriptionId,
        status: 'active',
        period: p1!,
        cancelAtPeriodEnd: true,
      }),
      { created: hourAgo },
    );
    const older = stripeEvent(
      'customer.subscription.updated',
      subscription({
        id: s.subscriptionId,
        status: 'active',
        period: p1!,
        cancelAtPeriodEnd: false,
      }),
      { created: twoHoursAgo },
    );
    await deliver(s.t, cancelled).expect(200);
    await deliver(s.t, older).expect(200);
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'cancelling',
      cancel_at_period_end: true,
    });

    const kept = stripeEvent(
      'customer.subscription.updated',
      subscription({
        id: s.subscriptionId,
        status: 'active',
        period: p1!,
        cancelAtPeriodEnd: false,
      }),
    );
    await deliver(s.t, kept).expect(200);
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
    });
  });

  it('a failed renewal is retried by Stripe, then paid: the plan is kept and the period granted once', async () => {
    const s = await subscriber();
    const [p1, p2] = twoDaysEarlier(monthlyPeriods(1, 2));
    await deliver(s.t, paid(s, p1!, 'subscription_create')).expect(200);
    const invoiceId = 'in_renewal_failed_then_paid';
    const failed = stripeEvent(
      'invoice.payment_failed',
      invoice({
        id: invoiceId,
        subscription: s.subscriptionId,
        period: p2!,
        amount: PROFESSIONAL_CENTS,
        billingReason: 'subscription_cycle',
        paid: false,
        attempt: 1,
        nextAttempt: new Date(Date.now() + 24 * 3600_000),
      }),
    );
    await deliver(s.t, failed).expect(200);
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'past_due',
      renewal_problem: { state: 'retrying' },
    });
    await profileReaches(s.t, s.token, {
      plan_type: 'professional',
      credits_balance: PROFESSIONAL_CREDITS,
    });

    const recovered = stripeEvent(
      'invoice.paid',
      invoice({
        id: invoiceId,
        subscription: s.subscriptionId,
        period: p2!,
        amount: PROFESSIONAL_CENTS,
        billingReason: 'subscription_cycle',
        paid: true,
        attempt: 2,
      }),
    );
    await deliver(s.t, recovered).expect(200);
    // The failure again, late: the period is paid, so it changes nothing.
    await deliver(s.t, failed).expect(200);
    expect(await subscriptionOf(s)).toMatchObject({ status: 'active', renewal_problem: null });
    await profileReaches(s.t, s.token, { credits_balance: 2 * PROFESSIONAL_CREDITS });
  });

  it("a failed renewal links to its invoice's page at Stripe, where a new card pays it; paid, the link goes", async () => {
    const s = await subscriber();
    const [p1, p2] = twoDaysEarlier(monthlyPeriods(1, 2));
    await deliver(s.t, paid(s, p1!, 'subscription_create')).expect(200);
    const id = 'in_renewal_paid_on_its_page';
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const firstPage = hostedInvoiceUrl(id);
    await deliver(
      s.t,
      failed(s, p2!, { id, attempt: 1, nextAttempt: tomorrow, hostedUrl: firstPage }),
    ).expect(200);
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'past_due',
      renewal_problem: { state: 'retrying', pay_url: firstPage },
    });

    // Stripe's own retry fails too: its event carries the page's address as of then.
    const secondPage = hostedInvoiceUrl(id);
    const retryFailed = failed(s, p2!, {
      id,
      attempt: 2,
      nextAttempt: new Date(Date.now() + 3 * 24 * 3600_000),
      hostedUrl: secondPage,
    });
    await deliver(s.t, retryFailed).expect(200);
    expect((await subscriptionOf(s)).renewal_problem).toMatchObject({
      state: 'retrying',
      pay_url: secondPage,
    });

    // The owner pays the invoice on that page: Stripe reports it paid, the plan goes on.
    const paidOnPage = stripeEvent(
      'invoice.paid',
      invoice({
        id,
        subscription: s.subscriptionId,
        period: p2!,
        amount: PROFESSIONAL_CENTS,
        billingReason: 'subscription_cycle',
        paid: true,
        attempt: 3,
        hostedUrl: secondPage,
      }),
    );
    await deliver(s.t, paidOnPage).expect(200);
    // The failed retry's event again, late: nothing to pay any more.
    await deliver(s.t, retryFailed).expect(200);
    expect(await subscriptionOf(s)).toMatchObject({ status: 'active', renewal_problem: null });
    expect(await heldPayUrl(s)).toBeNull();
    await profileReaches(s.t, s.token, { credits_balance: 2 * PROFESSIONAL_CREDITS });
  });

  it("the pay link is Stripe's https page only, and goes when Stripe's last retry fails", async () => {
    const s = await subscriber();
    const [p1, p2] = twoDaysEarlier(monthlyPeriods(1, 2));
    await deliver(s.t, paid(s, p1!, 'subscription_create')).expect(200);
    const id = 'in_renewal_never_paid';
    // An address that is not https is never linked to.
    const plain = hostedInvoiceUrl(id).replace('https:', 'http:');
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    await deliver(
      s.t,
      failed(s, p2!, { id, attempt: 1, nextAttempt: tomorrow, hostedUrl: plain }),
    ).expect(200);
    expect((await subscriptionOf(s)).renewal_problem).toMatchObject({
      state: 'retrying',
      pay_url: null,
    });
    const page = hostedInvoiceUrl(id);
    const inThreeDays = new Date(Date.now() + 3 * 24 * 3600_000);
    await deliver(
      s.t,
      failed(s, p2!, { id, attempt: 2, nextAttempt: inThreeDays, hostedUrl: page }),
    ).expect(200);
    expect((await subscriptionOf(s)).renewal_problem).toMatchObject({ pay_url: page });

    // No next attempt: Stripe gave up, the plan lapses to free, and there is nothing left to pay.
    await deliver(
      s.t,
      failed(s, p2!, { id, attempt: 3, nextAttempt: null, hostedUrl: page }),
    ).expect(200);
    expect(await subscriptionOf(s)).toMatchObject({
      status: 'free',
      renewal_problem: { state: 'lapsed', pay_url: null },
    });
    expect(await heldPayUrl(s)).toBeNull();
  });

  it('ends when Stripe deletes the subscription: back to free, credits kept, later snapshots ignored', async () => {
    const s = await subscriber();
    const [p1] = monthlyPeriods(0, 1);
    await deliver(s.t, paid(s, p1!, 'subscription_create')).expect(200);
    const deleted = stripeEvent(
      'customer.subscription.deleted',
      subscription({ id: s.subscriptionId, status: 'canceled', period: p1! }),
    );
    await deliver(s.t, deleted).expect(200);
    await deliver(s.t, deleted).expect(200);
    // An update from before the deletion, arriving after it.
    const stale = stripeEvent(
      'customer.subscription.updated',
      subscription({ id: s.subscriptionId, status: 'active', period: p1! }),
      { created: new Date(Date.now() - 3600_000) },
    );
    await deliver(s.t, stale).expect(200);
    await profileReaches(s.t, s.token, {
      plan_type: 'free',
      credits_balance: PROFESSIONAL_CREDITS,
    });
    expect(await subscriptionOf(s)).toMatchObject({ status: 'free', tier: 'free' });
  });

  it('cancel and reactivate go through Stripe (cancel_at_period_end), then our record', async () => {
    const s = await subscriber();
    const [p1] = monthlyPeriods(0, 1);
    await deliver(s.t, paid(s, p1!, 'subscription_create')).expect(200);
    const stripeState = () =>
      s.t.c.db
        .selectFrom('stripe_subscriptions')
        .select(['cancel_at_period_end', 'state_at'])
        .where('id', '=', s.subscriptionId)
        .executeTakeFirstOrThrow();

    const cancel = await s.t.request
      .post('/api/v1/payments/cancel-subscription')
      .set(bearer(s.token));
    expect(cancel.status).toBe(200);
    // What Stripe answered to the update is held as its newest state.
    expect(await stripeState()).toMatchObject({
      cancel_at_period_end: true,
      state_at: expect.any(Date),
    });
    expect(await subscriptionOf(s)).toMatchObject({ status: 'cancelling' });

    const reactivate = await s.t.request
      .post('/api/v1/payments/reactivate-subscription')
      .set(bearer(s.token));
    expect(reactivate.status).toBe(200);
    expect((await stripeState()).cancel_at_period_end).toBe(false);
    expect(await subscriptionOf(s)).toMatchObject({ status: 'active' });
  });

  it("the renewal job's reconciliation reads the subscription back from Stripe and follows it", async () => {
    const s = await subscriber();
    const [p1] = monthlyPeriods(0, 1);
    await deliver(s.t, paid(s, p1!, 'subscription_create')).expect(200);
    await s.t.c.subscriptionSync!.reconcile(s.userId);
    // What Stripe (stripe-mock) answers for this subscription now.
    const answer = await new Stripe(SECRET_KEY, {
      host: new URL(stripeMockUrl()).hostname,
      port: Number(new URL(stripeMockUrl()).port),
      protocol: 'http',
    }).subscriptions.retrieve(s.subscriptionId);
    const held = await s.t.c.db
      .selectFrom('stripe_subscriptions')
      .selectAll()
      .where('id', '=', s.subscriptionId)
      .executeTakeFirstOrThrow();
    expect(held).toMatchObject({
      status: answer.status,
      cancel_at_period_end: answer.cancel_at_period_end,
      state_at: expect.any(Date),
    });
    expect((await subscriptionOf(s)).cancel_at_period_end).toBe(answer.cancel_at_period_end);
    // Reconciling replays nothing twice.
    await profileReaches(s.t, s.token, { credits_balance: PROFESSIONAL_CREDITS });
  });

  it('an upgrade charged here (prorated) moves the Stripe subscription to the new Price', async () => {
    const s = await subscriber();
    const [p1] = monthlyPeriods(0, 1);
    await deliver(s.t, paid(s, p1!, 'subscription_create')).expect(200);
    const upgrade = await s.t.request
      .post('/api/v1/payments/create-upgrade')
      .set(bearer(s.token))
      .send({ plan_id: 'premium', current_plan: 'professional', upgrade_immediately: true });
    expect(upgrade.status).toBe(200);
    expect(upgrade.body.proration).toMatchObject({ from_plan: 'professional', to_plan: 'premium' });
    const succeeded = stripeEvent('payment_intent.succeeded', {
      id: upgrade.body.payment_intent_id,
      object: 'payment_intent',
      amount: upgrade.body.amount,
      currency: 'usd',
      status: 'succeeded',
      metadata: {},
    });
    await deliver(s.t, succeeded).expect(200);
    await profileReaches(s.t, s.token, { plan_type: 'premium' });
    // Stripe renews at Premium's price from now on: the move is recorded, and Stripe (stripe-mock)
    // takes the update the move makes.
    await expect(s.t.c.paymentProvider.movePlan!(s.userId, 'premium')).resolves.toBeUndefined();
    const held = await s.t.c.db
      .selectFrom('stripe_subscriptions')
      .select('item_id')
      .where('id', '=', s.subscriptionId)
      .executeTakeFirstOrThrow();
    expect(held.item_id).toBe('premium');
  });
});
