import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fillCard, intentAnswer, pricingAnswer } from '../features/payments/testing';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];

/** Starter to Premium half way through a month: (3999 - 999) / 2 charged, 999 / 2 credited. */
const PRORATION = {
  from_plan: 'starter',
  to_plan: 'premium',
  billing_cycle: 'monthly',
  period_start: '2026-11-16T12:00:00.000Z',
  period_end: '2026-12-16T12:00:00.000Z',
  priced_at: '2026-12-01T12:00:00.000Z',
  remaining_days: 15,
  from_price_cents: 999,
  to_price_cents: 3999,
  credited_cents: 500,
  new_plan_cents: 2000,
  prorated_cents: 1500,
  charged_cents: 1500,
  minimum_applied: false,
  credits: 6,
};
const QUOTE_STARTER_TO_PREMIUM =
  'GET /api/v1/payments/upgrade-quote?plan_id=premium&current_plan=starter';
function quoteAnswer(amount: number, proration: unknown) {
  return { amount, currency: 'usd', kind: 'upgrade', proration };
}
const PAID = () =>
  [200, { payment_intent_id: 'pi_test_1', status: 'succeeded' }] as [number, unknown];

function api(extra: Handlers): {
  sent: Record<string, unknown>;
  /** The Idempotency-Key of each call, in the order sent. */
  keys: Record<string, (string | null)[]>;
  fetchMock: ReturnType<typeof stubApi>;
} {
  const sent: Record<string, unknown> = {};
  const keys: Record<string, (string | null)[]> = {};
  const wrapped: Handlers = {};
  for (const [key, handler] of Object.entries(extra)) {
    wrapped[key] = (request) => {
      sent[key] = request.body;
      (keys[key] ??= []).push(request.headers.get('Idempotency-Key'));
      return handler(request);
    };
  }
  const fetchMock = stubApi({
    'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
    'GET /api/v1/users/profile': () => [200, TEST_USER],
    'POST /api/v1/payments/test/confirm-card': PAID,
    ...wrapped,
  });
  return { sent, keys, fetchMock };
}

/** Whether the page asked the server to create anything (an intent, and its pending payment). */
function createdAnything(fetchMock: ReturnType<typeof stubApi>): boolean {
  return fetchMock.mock.calls.some(([url]) => /\/create-/.test(String(url)));
}

/** What /pricing stores on choosing a plan: the plan /payment?type=training then checks out. */
const SELECTED_PLANS = {
  starter: { planName: 'Starter', price: 999, credits: 4 },
  professional: { planName: 'Professional', price: 1999, credits: 8 },
  premium: { planName: 'Premium', price: 3999, credits: 16 },
} as const;

function selectPlan(planId: keyof typeof SELECTED_PLANS) {
  window.localStorage.setItem(
    'selectedPlan',
    JSON.stringify({ planId, type: 'subscription', ...SELECTED_PLANS[planId] }),
  );
}

/** confirm-plan-subscription's answer for a plan now active. */
function planActive(plan: string, trainingLimit: number, credits: number) {
  return () =>
    [
      200,
      {
        message: `Your ${plan} plan is active. Now upload photos to train your AI model.`,
        plan_type: plan,
        training_limit: trainingLimit,
        credits_awarded: credits,
      },
    ] as [number, unknown];
}

async function pay(amount: string) {
  const form = await screen.findByRole('form', { name: 'Card details' });
  fillCard(within(form));
  fireEvent.click(within(form).getByRole('button', { name: `Pay ${amount}` }));
  expect(await within(form).findByText('Processing Secure Payment...')).toBeTruthy();
  await vi.advanceTimersByTimeAsync(2100);
}

describe('/payment parameters', () => {
  it.each([
    ['/payment', 'Complete Your Order', 'Invalid payment type or missing parameters', '/generate'],
    [
      '/payment?type=refund',
      'Complete Your Order',
      'Invalid payment type or missing parameters',
      '/dashboard',
    ],
    [
      '/payment?type=credits&pack=credits_10',
      'Purchase Credits',
      'This credit pack is coming soon and cannot be bought yet. Our credit packages are on sale now on the Credits page.',
      '/pricing',
    ],
    [
      '/payment?type=credits&pack=gold',
      'Purchase Credits',
      'Invalid credit pack selected',
      '/pricing',
    ],
    [
      '/payment?type=upgrade&from=starter',
      'Upgrade Your Subscription',
      'No target plan selected',
      '/dashboard',
    ],
    [
      '/payment?type=training&quantity=2&price=25',
      'Start Your Subscription',
      'Invalid payment type or missing parameters',
      '/pricing',
    ],
  ])('%s', async (path, heading, message, back) => {
    signIn();
    const { fetchMock } = api({});
    renderApp(path);
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
    expect(screen.getByText(message)).toBeTruthy();
    const links = screen.getAllByRole('link', { name: /^Back to / });
    expect(links.every((link) => link.getAttribute('href') === back)).toBe(true);
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/create-'))).toBe(false);
  });

  it('a refused credit pack recovers to /credits, an upgrade without a target to /pricing', async () => {
    signIn();
    api({});
    renderApp('/payment?type=credits&pack=credits_10');
    const credits = await screen.findByRole('link', { name: 'Choose a credit package' });
    expect(credits.getAttribute('href')).toBe('/credits');
    cleanup();
    renderApp('/payment?type=upgrade&from=starter');
    const plans = await screen.findByRole('link', { name: 'Choose a plan' });
    expect(plans.getAttribute('href')).toBe('/pricing');
  });

  it("a price in the address that is not the catalogue's: the catalogue's is shown and charged", async () => {
    signIn();
    api({ 'POST /api/v1/payments/create-training-purchase': () => [200, intentAnswer(4500)] });
    renderApp('/payment?type=training&quantity=3&price=30');
    expect(
      await screen.findByText('This link says $30.00; the current price is $45.00.'),
    ).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Pay $45.00' })).toBeTruthy();
  });

  it('sends visitors without a session to /auth', async () => {
    api({});
    const router = renderApp('/payment?type=training');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });
});

describe('/payment checkout', () => {
  it('training: plan subscription from selectedPlan, success message, /upload after 2 s', async () => {
    signIn();
    selectPlan('professional');
    const { sent, keys, fetchMock } = api({
      'POST /api/v1/payments/create-training-payment': () => [200, intentAnswer(1999)],
      'POST /api/v1/payments/confirm-plan-subscription': planActive('professional', 5, 8),
    });
    const router = renderApp('/payment?type=training');
    expect(await screen.findByText('Loading payment information...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Start Your Subscription' })).toBeTruthy();
    expect(
      screen.getByText(
        'Secure checkout. Your plan renews every month until you cancel; cancel any time.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/charged once/)).toBeNull();
    expect(await screen.findByText('Professional plan')).toBeTruthy();
    expect(screen.getByText('Test Mode Active')).toBeTruthy();
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(within(summary).getByText('Monthly subscription, cancel any time')).toBeTruthy();
    expect(within(summary).getByText('Total due today').nextSibling?.textContent).toBe(
      '$19.99/month',
    );
    // The checkout shows the catalogue's price: nothing is created until Pay.
    expect(createdAnything(fetchMock)).toBe(false);
    expect(router.state.location.search).toBe('?type=training');

    await pay('$19.99');
    expect(sent['POST /api/v1/payments/create-training-payment']).toEqual({
      plan_name: 'Professional',
      plan_price: 19.99,
      plan_credits: 8,
      billing_cycle: 'monthly',
    });
    expect(keys['POST /api/v1/payments/create-training-payment']).toEqual([
      expect.stringMatching(/^checkout-[0-9a-f-]{36}$/),
    ]);
    expect(
      await screen.findByText(
        'Your professional plan is active. Now upload photos to train your AI model.',
      ),
    ).toBeTruthy();
    // The button names the page the success card goes to by itself.
    expect(
      screen.getByRole('link', { name: 'Continue to Upload Photos' }).getAttribute('href'),
    ).toBe('/upload');
    expect(sent['POST /api/v1/payments/confirm-plan-subscription']).toEqual({
      payment_intent_id: 'pi_test_1',
    });
    expect(window.localStorage.getItem('selectedPlan')).toBeNull();
    expect(router.state.location.pathname).toBe('/payment');
    await vi.advanceTimersByTimeAsync(2000);
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('training billed yearly: the annual price and what it grants, billing_cycle annual sent', async () => {
    signIn();
    selectPlan('premium');
    const { sent } = api({
      'POST /api/v1/payments/create-training-payment': () => [200, intentAnswer(39990)],
      'POST /api/v1/payments/confirm-plan-subscription': planActive('premium', 10, 16),
    });
    renderApp('/payment?type=training&billing=annual');
    const summary = await screen.findByRole('region', { name: 'Order summary' });
    expect(within(summary).getByText('Premium plan')).toBeTruthy();
    for (const line of [
      'Annual subscription, renews yearly, cancel any time',
      '$33.33 a month billed yearly: two months free (you save $79.98)',
      '10 personal AI models',
      '16 credits (64 headshots) every month, all year',
      'Custom prompts on the Generate page',
    ]) {
      expect(within(summary).getByText(line)).toBeTruthy();
    }
    expect(within(summary).getByText('Total due today').nextSibling?.textContent).toBe(
      '$399.90/year',
    );
    // Back leads to the annual prices the plan was chosen from.
    for (const link of screen.getAllByRole('link', { name: 'Back to pricing' })) {
      expect(link.getAttribute('href')).toBe('/pricing?billing=annual');
    }
    await pay('$399.90');
    expect(await screen.findByText(/Your premium plan is active/)).toBeTruthy();
    expect(sent['POST /api/v1/payments/create-training-payment']).toEqual({
      plan_name: 'Premium',
      plan_price: 399.9,
      plan_credits: 16,
      billing_cycle: 'annual',
    });
  });

  it('a starter plan billed yearly has no custom prompt line', async () => {
    signIn();
    selectPlan('starter');
    const { sent, fetchMock } = api({
      'POST /api/v1/payments/create-training-payment': () => [200, intentAnswer(9990)],
    });
    renderApp('/payment?type=training&billing=annual');
    const summary = await screen.findByRole('region', { name: 'Order summary' });
    expect(
      within(summary).getByText('$8.33 a month billed yearly: two months free (you save $19.98)'),
    ).toBeTruthy();
    expect(within(summary).queryByText('Custom prompts on the Generate page')).toBeNull();
    expect(createdAnything(fetchMock)).toBe(false);
    await pay('$99.90');
    expect(sent['POST /api/v1/payments/create-training-payment']).toMatchObject({
      plan_price: 99.9,
      billing_cycle: 'annual',
    });
  });

  it('billing=weekly is refused before anything is created', async () => {
    signIn();
    selectPlan('premium');
    const { fetchMock } = api({});
    renderApp('/payment?type=training&billing=weekly');
    expect(await screen.findByText('Invalid payment type or missing parameters')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe(
      '/pricing',
    );
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/create-'))).toBe(false);
  });

  it('training: falls back to additional training, and still succeeds when both fail', async () => {
    signIn();
    const { sent } = api({
      'POST /api/v1/payments/create-training-payment': () => [200, intentAnswer(2500)],
      'POST /api/v1/payments/confirm-plan-subscription': () => [
        400,
        { detail: 'Failed to confirm payment', code: 'bad_request' },
      ],
      'POST /api/v1/payments/confirm-additional-training': () => [
        500,
        { detail: 'boom', code: 'internal_error' },
      ],
    });
    renderApp('/payment?type=training');
    expect(await screen.findByText('Extra model training')).toBeTruthy();
    await pay('$25.00');
    expect(sent['POST /api/v1/payments/create-training-payment']).toEqual({});
    expect(await screen.findByText('Now upload photos to train your AI model.')).toBeTruthy();
    expect(sent['POST /api/v1/payments/confirm-additional-training']).toEqual({
      payment_intent_id: 'pi_test_1',
      pack_id: 'training_1',
      amount: 2500,
      payment_method: 'stripe',
    });
  });

  it('training with quantity and price: training purchase and pack training_N', async () => {
    signIn();
    const { sent } = api({
      'POST /api/v1/payments/create-training-purchase': () => [200, intentAnswer(4500)],
      'POST /api/v1/payments/confirm-additional-training': () => [
        200,
        {
          message:
            'Training slots added: you can now train 4 models. Now upload photos to train your AI model.',
          training_limit: 4,
        },
      ],
    });
    renderApp('/payment?type=training&quantity=3&price=45');
    expect(await screen.findByText('Training pack')).toBeTruthy();
    expect(screen.getByText('40% saving')).toBeTruthy();
    await pay('$45.00');
    expect(sent['POST /api/v1/payments/create-training-purchase']).toEqual({ quantity: 3 });
    expect(await screen.findByText(/Training slots added/)).toBeTruthy();
    expect(sent['POST /api/v1/payments/confirm-additional-training']).toEqual({
      payment_intent_id: 'pi_test_1',
      pack_id: 'training_3',
      amount: 4500,
      payment_method: 'stripe',
    });
    expect(sent['POST /api/v1/payments/confirm-plan-subscription']).toBeUndefined();
  });

  it('upgrade: create-upgrade for the stored target plan', async () => {
    signIn({ plan_type: 'starter' });
    selectPlan('premium');
    const { sent, fetchMock } = api({
      [QUOTE_STARTER_TO_PREMIUM]: () => [200, quoteAnswer(1500, PRORATION)],
      'POST /api/v1/payments/create-upgrade': () => [
        200,
        { ...intentAnswer(1500), proration: PRORATION },
      ],
      'POST /api/v1/payments/confirm-plan-subscription': planActive('premium', 10, 16),
    });
    const router = renderApp('/payment?type=upgrade&from=starter');
    expect(await screen.findByText('Upgrade to Premium')).toBeTruthy();
    // The proration is the server's quote, which stores nothing: no intent before Pay.
    expect(createdAnything(fetchMock)).toBe(false);
    // The proration: what the unused Starter time is worth, and what the rest of Premium costs.
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(within(summary).getByText('Premium for the rest of this period (15 days)')).toBeTruthy();
    expect(within(summary).getByText('$20.00', { selector: 'dd' })).toBeTruthy();
    expect(within(summary).getByText('Credit for unused Starter time')).toBeTruthy();
    expect(within(summary).getByText('−$5.00')).toBeTruthy();
    expect(
      within(summary).getByText('6 extra credits now, for the rest of this month'),
    ).toBeTruthy();
    expect(within(summary).getByText('Your billing date stays December 16, 2026')).toBeTruthy();
    expect(within(summary).getByText('Total due today').nextSibling?.textContent).toBe('$15.00');
    expect(router.state.location.search).toBe('?type=upgrade&from=starter');
    await pay('$15.00');
    expect(await screen.findByText(/Your premium plan is active/)).toBeTruthy();
    expect(sent['POST /api/v1/payments/create-upgrade']).toEqual({
      plan_id: 'premium',
      current_plan: 'starter',
      upgrade_immediately: true,
    });
    // The address names the intent Pay made: a reload resumes it.
    expect(router.state.location.search).toBe(
      '?type=upgrade&from=starter&payment_intent=pi_test_1',
    );
    await vi.advanceTimersByTimeAsync(2000);
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('upgrade of an annual subscriber: priced per year, credits monthly, renewal yearly', async () => {
    signIn({ plan_type: 'starter', subscription_interval: 'annual' });
    selectPlan('premium');
    // Starter to Premium half way through the year: (39990 - 9990) / 2.
    const annual = {
      ...PRORATION,
      billing_cycle: 'annual',
      period_start: '2026-06-01T12:00:00.000Z',
      period_end: '2027-06-01T12:00:00.000Z',
      remaining_days: 182.5,
      from_price_cents: 9990,
      to_price_cents: 39990,
      credited_cents: 4995,
      new_plan_cents: 19995,
      prorated_cents: 15000,
      charged_cents: 15000,
      credits: 6,
    };
    const { fetchMock } = api({
      [QUOTE_STARTER_TO_PREMIUM]: () => [200, quoteAnswer(15000, annual)],
    });
    renderApp('/payment?type=upgrade&from=starter');
    const summary = await screen.findByRole('region', { name: 'Order summary' });
    expect(createdAnything(fetchMock)).toBe(false);
    for (const line of [
      'From your Starter plan, effective immediately',
      '6 extra credits now, for the rest of this month',
      '16 credits (64 headshots) every month from then on',
      'Annual billing: your plan renews yearly, next on June 1, 2027',
      'Custom prompts on the Generate page',
    ]) {
      expect(within(summary).getByText(line)).toBeTruthy();
    }
    expect(
      within(summary).getByText('Premium for the rest of this period (182.5 days)'),
    ).toBeTruthy();
    expect(within(summary).getByText('−$49.95')).toBeTruthy();
    expect(
      within(summary).getByText(/Premium is \$399\.90 a year and Starter \$99\.90/),
    ).toBeTruthy();
    expect(within(summary).getByText(/From June 1, 2027 you pay \$399\.90 a year/)).toBeTruthy();
    expect(within(summary).getByText('Total due today').nextSibling?.textContent).toBe('$150.00');
    expect(screen.getByRole('button', { name: 'Pay $150.00' })).toBeTruthy();
  });

  it('credits: N credits have been added, then /dashboard after 3 s', async () => {
    signIn();
    const { sent } = api({
      'POST /api/v1/payments/create-credit-payment': () => [200, intentAnswer(4999)],
      'POST /api/v1/payments/confirm-payment': () => [
        200,
        {
          message: 'Payment confirmed',
          kind: 'credits',
          credits_awarded: 150,
          new_credits_balance: 150,
          plan_type: 'free',
          training_limit: 0,
        },
      ],
    });
    const router = renderApp('/payment?type=credits&pack=business_pack');
    expect(await screen.findByRole('heading', { name: 'Purchase Credits' })).toBeTruthy();
    expect(await screen.findByText('Business Pack')).toBeTruthy();
    await pay('$49.99');
    expect(sent['POST /api/v1/payments/create-credit-payment']).toEqual({
      credit_pack_id: 'business_pack',
    });
    expect(await screen.findByText('150 credits have been added to your account.')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(2500);
    expect(router.state.location.pathname).toBe('/payment');
    await vi.advanceTimersByTimeAsync(600);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('generation: /results/{user_id} with payment_intent, style and prompt after 2 s', async () => {
    signIn();
    api({
      'POST /api/v1/users/create-payment-intent': () => [200, intentAnswer(2900, 'pi_gen')],
      'POST /api/v1/payments/confirm-payment': () => [
        200,
        {
          message: 'Payment confirmed',
          kind: 'generation',
          credits_awarded: 1,
          new_credits_balance: 1,
          plan_type: 'free',
          training_limit: 0,
        },
      ],
    });
    const router = renderApp('/payment?type=generation&user_id=u1&style=creative&prompt=studio');
    expect(await screen.findByRole('heading', { name: 'Complete Your Order' })).toBeTruthy();
    await pay('$29.00');
    await vi.advanceTimersByTimeAsync(2100);
    await waitFor(() => expect(router.state.location.pathname).toBe('/results/u1'));
    expect(router.state.location.search).toBe(
      '?payment_intent=pi_gen&style=creative&prompt=studio',
    );
  });

  it('a declined card shows the decline; a failed confirmation says to contact support', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    signIn();
    const { keys } = api({
      'POST /api/v1/payments/create-credit-payment': () => [200, intentAnswer(999)],
      'POST /api/v1/payments/test/confirm-card': ({ body }) =>
        (body as { card: { number: string } }).card.number.startsWith('4000')
          ? [402, { detail: 'Your card was declined.', code: 'payment_failed' }]
          : PAID(),
      'POST /api/v1/payments/confirm-payment': () => [
        500,
        { detail: 'Something went wrong on our side.', code: 'internal_error' },
      ],
    });
    renderApp('/payment?type=credits&pack=starter_pack');
    const form = await screen.findByRole('form', { name: 'Card details' });
    fillCard(within(form), '4000 0000 0000 0002');
    fireEvent.click(within(form).getByRole('button', { name: 'Pay $9.99' }));
    expect(await within(form).findByText('Processing Secure Payment...')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(2100);
    expect(await within(form).findByText('Your card was declined.')).toBeTruthy();
    expect(
      (within(form).getByRole('button', { name: 'Pay $9.99' }) as HTMLButtonElement).disabled,
    ).toBe(false);

    fillCard(within(form));
    fireEvent.click(within(form).getByRole('button', { name: 'Pay $9.99' }));
    await vi.advanceTimersByTimeAsync(2100);
    expect(
      await within(form).findByText(
        'Payment succeeded but failed to confirm. Please contact support.',
      ),
    ).toBeTruthy();
    // Both presses paid the one intent the first made.
    expect(keys['POST /api/v1/payments/create-credit-payment']).toHaveLength(1);
  });

  it('shows the server detail in the form when Pay cannot make the payment', async () => {
    signIn();
    api({
      'POST /api/v1/payments/create-training-purchase': () => [
        503,
        { detail: 'Failed to create training purchase payment', code: 'service_unavailable' },
      ],
    });
    renderApp('/payment?type=training&quantity=1&price=25');
    await pay('$25.00');
    const form = screen.getByRole('form', { name: 'Card details' });
    expect(
      await within(form).findByText('Failed to create training purchase payment'),
    ).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Pay $25.00' })).toBeTruthy();
  });

  it('Pay again after a failed create sends the same Idempotency-Key: one intent', async () => {
    signIn();
    let creates = 0;
    const { keys } = api({
      'POST /api/v1/payments/create-credit-payment': () =>
        (creates += 1) === 1
          ? [503, { detail: 'Failed to create credit payment', code: 'service_unavailable' }]
          : [200, intentAnswer(999)],
      'POST /api/v1/payments/confirm-payment': () => [
        200,
        {
          message: 'Payment confirmed',
          kind: 'credits',
          credits_awarded: 20,
          new_credits_balance: 20,
          plan_type: 'free',
          training_limit: 0,
        },
      ],
    });
    renderApp('/payment?type=credits&pack=starter_pack');
    await pay('$9.99');
    const form = screen.getByRole('form', { name: 'Card details' });
    expect(await within(form).findByText('Failed to create credit payment')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Pay $9.99' }));
    await vi.advanceTimersByTimeAsync(2100);
    expect(await screen.findByText('20 credits have been added to your account.')).toBeTruthy();
    const sentKeys = keys['POST /api/v1/payments/create-credit-payment']!;
    expect(sentKeys).toHaveLength(2);
    expect(sentKeys[1]).toBe(sentKeys[0]);
  });

  it('an upgrade whose price moved between the quote and Pay shows the new one first', async () => {
    signIn({ plan_type: 'starter' });
    selectPlan('premium');
    const { keys } = api({
      [QUOTE_STARTER_TO_PREMIUM]: () => [200, quoteAnswer(1500, PRORATION)],
      'POST /api/v1/payments/create-upgrade': () => [
        200,
        { ...intentAnswer(1499), proration: { ...PRORATION, charged_cents: 1499 } },
      ],
      'POST /api/v1/payments/confirm-plan-subscription': planActive('premium', 10, 16),
    });
    renderApp('/payment?type=upgrade&from=starter');
    await pay('$15.00');
    const form = screen.getByRole('form', { name: 'Card details' });
    expect(
      await within(form).findByText('The price is now $14.99. Press Pay to pay it.'),
    ).toBeTruthy();
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(within(summary).getByText('Total due today').nextSibling?.textContent).toBe('$14.99');
    fireEvent.click(within(form).getByRole('button', { name: 'Pay $14.99' }));
    await vi.advanceTimersByTimeAsync(2100);
    expect(await screen.findByText(/Your premium plan is active/)).toBeTruthy();
    expect(keys['POST /api/v1/payments/create-upgrade']).toHaveLength(1);
  });

  it('an upgrade the server will not quote says why, and creates nothing', async () => {
    signIn({ plan_type: 'starter' });
    selectPlan('premium');
    const { fetchMock } = api({
      [QUOTE_STARTER_TO_PREMIUM]: () => [
        409,
        { detail: 'Failed to create upgrade: your plan has changed.', code: 'conflict' },
      ],
    });
    renderApp('/payment?type=upgrade&from=starter');
    expect(
      await screen.findByText('Failed to create upgrade: your plan has changed.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
    expect(createdAnything(fetchMock)).toBe(false);
  });
});

describe('/payment?payment_intent= resumes the created intent', () => {
  const details = (overrides: Record<string, unknown> = {}) => ({
    ...intentAnswer(2499, 'pi_resumed'),
    proration: null,
    status: 'requires_payment',
    kind: 'credits',
    item_id: 'professional_pack',
    from_plan: null,
    ...overrides,
  });

  it('pays the intent it names: nothing new is created', async () => {
    signIn();
    const { sent, fetchMock } = api({
      'GET /api/v1/payments/intents/pi_resumed': () => [200, details()],
      'POST /api/v1/payments/test/confirm-card': PAID,
      'POST /api/v1/payments/confirm-payment': () => [
        200,
        {
          message: 'Payment confirmed',
          kind: 'credits',
          credits_awarded: 60,
          new_credits_balance: 60,
          plan_type: 'free',
          training_limit: 0,
        },
      ],
    });
    renderApp('/payment?type=credits&pack=professional_pack&payment_intent=pi_resumed');
    expect(await screen.findByText('Professional Pack')).toBeTruthy();
    await pay('$24.99');
    expect(await screen.findByText('60 credits have been added to your account.')).toBeTruthy();
    expect(sent['POST /api/v1/payments/test/confirm-card']).toMatchObject({
      payment_intent_id: 'pi_resumed',
    });
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/create-'))).toBe(false);
  });

  it('an intent already paid (a reload, a bank sending the buyer back) is confirmed', async () => {
    signIn();
    const { sent } = api({
      'GET /api/v1/payments/intents/pi_resumed': () => [200, details({ status: 'succeeded' })],
      'POST /api/v1/payments/confirm-payment': () => [
        200,
        {
          message: 'Payment confirmed',
          kind: 'credits',
          credits_awarded: 60,
          new_credits_balance: 60,
          plan_type: 'free',
          training_limit: 0,
        },
      ],
    });
    // Stripe's return address: no type, the intent and its status only.
    renderApp('/payment?payment_intent=pi_resumed&redirect_status=succeeded');
    expect(await screen.findByText('60 credits have been added to your account.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Purchase Credits' })).toBeTruthy();
    expect(sent['POST /api/v1/payments/confirm-payment']).toEqual({
      payment_intent_id: 'pi_resumed',
    });
  });

  it('says Failed to get payment intent when it cannot be read, and offers a fresh start', async () => {
    signIn();
    api({
      'GET /api/v1/payments/intents/pi_gone': () => [
        404,
        { detail: 'Payment not found', code: 'payment_not_found' },
      ],
    });
    renderApp('/payment?type=credits&pack=starter_pack&payment_intent=pi_gone');
    expect(await screen.findByText('Failed to get payment intent')).toBeTruthy();
    expect(screen.getByText('Payment not found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Start Again' }).getAttribute('href')).toBe(
      '/payment?type=credits&pack=starter_pack',
    );
  });

  it('refuses an intent for another purchase than the address names, and a refunded one', async () => {
    signIn();
    api({
      'GET /api/v1/payments/intents/pi_resumed': () => [200, details()],
      'GET /api/v1/payments/intents/pi_refunded': () => [200, details({ status: 'refunded' })],
    });
    renderApp('/payment?type=upgrade&from=starter&payment_intent=pi_resumed');
    expect(
      await screen.findByText(
        'This payment is for a different purchase. Start this purchase again.',
      ),
    ).toBeTruthy();
    cleanup();
    renderApp('/payment?type=credits&payment_intent=pi_refunded');
    expect(
      await screen.findByText('This payment can no longer be paid. Start the purchase again.'),
    ).toBeTruthy();
  });
});
