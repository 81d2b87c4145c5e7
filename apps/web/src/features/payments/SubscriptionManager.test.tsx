import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/Toaster';
import { signIn, stubApi } from '../../test/app-harness';
import { restoreSession } from '../auth/session-store';
import { queryClient } from '../../lib/query-client';
import { PAID_AT_STRIPE_POLL_MS, SubscriptionManager } from './SubscriptionManager';
import { fillCard, FREE_SUBSCRIPTION, pricingAnswer, subscriptionAnswer } from './testing';
import type { SubscriptionResponse } from './payments-api';

type Handlers = Parameters<typeof stubApi>[0];

function renderManager(subscription: SubscriptionResponse, extra: Handlers = {}) {
  signIn();
  restoreSession();
  stubApi({
    'GET /api/v1/payments/subscription': () => [200, subscription],
    'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
    'GET /api/v1/users/profile': () => [200, {}],
    ...extra,
  });
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <>
          <SubscriptionManager />
          <Toaster />
        </>
      ),
    },
  ]);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { panel: () => screen.findByRole('region', { name: 'Subscription' }) };
}

const RETRYING = subscriptionAnswer({
  status: 'past_due',
  tier: 'starter',
  can_cancel: false,
  next_billing_date: '2026-12-23T12:00:00.000Z',
  next_charge: { date: '2026-12-23T12:00:00.000Z', amount_cents: 999, currency: 'usd' },
  allowance_resets_at: null,
  renewal_problem: {
    state: 'retrying',
    tier: 'starter',
    reason: 'Your card was declined.',
    next_attempt_at: '2026-12-23T12:00:00.000Z',
    final_attempt_at: '2026-12-27T12:00:00.000Z',
    lapsed_at: null,
  },
});

afterEach(() => {
  vi.useRealTimers();
});

describe('SubscriptionManager: charges and resets', () => {
  it('active monthly: the next charge with its amount, and when credits and trainings renew', async () => {
    const { panel } = renderManager(subscriptionAnswer());
    const card = await panel();
    expect(await within(card).findByText('$19.99/month')).toBeTruthy();
    expect(within(card).getByText('Next charge')).toBeTruthy();
    expect(within(card).getByText('$19.99 on December 22, 2026')).toBeTruthy();
    expect(within(card).getByText('8 credits and trainings renew')).toBeTruthy();
    expect(within(card).getByText('December 22, 2026')).toBeTruthy();
  });

  it('annual: the yearly price and charge, the monthly reset before it', async () => {
    const { panel } = renderManager(
      subscriptionAnswer({
        tier: 'premium',
        billing_cycle: 'annual',
        next_billing_date: '2027-11-25T12:00:00.000Z',
        next_charge: { date: '2027-11-25T12:00:00.000Z', amount_cents: 39990, currency: 'usd' },
        allowance_resets_at: '2026-12-25T12:00:00.000Z',
      }),
    );
    const card = await panel();
    expect(await within(card).findByText('$399.90/year')).toBeTruthy();
    expect(within(card).getByText('Annual')).toBeTruthy();
    expect(within(card).getByText('$399.90 on November 25, 2027')).toBeTruthy();
    expect(within(card).getByText('16 credits and trainings renew')).toBeTruthy();
    expect(within(card).getByText('December 25, 2026')).toBeTruthy();
  });

  it('cancelling: access until the end, no charge, and no reset when the plan ends with the month', async () => {
    const { panel } = renderManager(
      subscriptionAnswer({
        status: 'cancelling',
        cancel_status: 'cancelling',
        can_cancel: false,
        can_reactivate: true,
        next_charge: null,
      }),
    );
    const card = await panel();
    expect(await within(card).findByText('Access until')).toBeTruthy();
    expect(within(card).queryByText('Next charge')).toBeNull();
    expect(within(card).queryByText(/credits and trainings renew/)).toBeNull();
  });

  it('past due: what failed and when it is tried again; a new card pays the renewal now', async () => {
    let state = RETRYING;
    const calls: unknown[] = [];
    const { panel } = renderManager(RETRYING, {
      'GET /api/v1/payments/subscription': () => [200, state],
      'POST /api/v1/payments/test/card-on-file': ({ body }) => {
        calls.push(body);
        return [200, { card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } }];
      },
      'POST /api/v1/payments/pay-renewal': () => {
        calls.push('pay');
        state = subscriptionAnswer({ tier: 'starter' });
        return [
          200,
          { message: 'Your starter plan is renewed and active again.', subscription: state },
        ];
      },
    });
    const card = await panel();
    expect(await within(card).findByText('Payment failed')).toBeTruthy();
    expect(within(card).getByText('Next try')).toBeTruthy();
    expect(within(card).getByText('$9.99 on December 23, 2026')).toBeTruthy();
    const alert = within(card).getByRole('alert');
    expect(alert.textContent).toContain('The renewal payment of your Starter plan failed.');
    expect(alert.textContent).toContain(
      'Your card was declined. We will try again on December 23, 2026. If the last try on December 27, 2026 fails, your account returns to the Free plan',
    );

    fireEvent.click(await within(card).findByRole('button', { name: 'Update card and pay $9.99' }));
    fillCard(within(card));
    fireEvent.click(within(card).getByRole('button', { name: /Pay \$9\.99/ }));
    expect(await screen.findByText('Renewal paid: your plan is active again')).toBeTruthy();
    expect(await within(card).findByText('Active')).toBeTruthy();
    expect(calls).toEqual([
      {
        card: { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Ada Lovelace' },
      },
      'pay',
    ]);
  });

  it("past due with Stripe: Stripe's page for the failed invoice pays it; the card shows it paid", async () => {
    const payUrl = 'https://invoice.stripe.com/i/acct_studioshot/test_in_renewal_42';
    let state = subscriptionAnswer({
      ...RETRYING,
      renewal_problem: { ...RETRYING.renewal_problem!, pay_url: payUrl },
    });
    const { panel } = renderManager(state, {
      'GET /api/v1/payments/subscription': () => [200, state],
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer({ test_mode: false })],
    });
    const card = await panel();
    expect(await within(card).findByText('Payment failed')).toBeTruthy();
    const link = await within(card).findByRole('link', { name: /^Update card and pay \$9\.99/ });
    expect(link.textContent).toBe('Update card and pay $9.99 (opens in a new tab)');
    expect(link.getAttribute('href')).toBe(payUrl);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    // Stripe's page takes the card: no test card form here.
    expect(within(card).queryByRole('button', { name: /Update card/ })).toBeNull();
    expect(within(card).getByText('Stripe’s secure payment page opens in a new tab.')).toBeTruthy();

    vi.useFakeTimers({ shouldAdvanceTime: true });
    // The new tab is the browser's business; this page only notes that it opened.
    link.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(link);
    expect(
      within(card).getByText(
        'Paid on Stripe’s page? Your plan shows as active here as soon as Stripe confirms it.',
      ),
    ).toBeTruthy();
    // Paid there: Stripe tells our server, and the card asks again until it hears.
    state = subscriptionAnswer({ tier: 'starter' });
    await vi.advanceTimersByTimeAsync(PAID_AT_STRIPE_POLL_MS);
    expect(await within(card).findByText('Active')).toBeTruthy();
    expect(within(card).queryByRole('link', { name: /Update card/ })).toBeNull();
  });

  it('past due with Stripe, no page to pay on (not reported by Stripe): no card form either', async () => {
    const { panel } = renderManager(RETRYING, {
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer({ test_mode: false })],
    });
    const card = await panel();
    expect(await within(card).findByText('Payment failed')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: /Update card/ })).toBeNull();
    expect(within(card).queryByRole('link', { name: /Update card/ })).toBeNull();
  });

  it('free after a failed renewal: says why, and the way back to a plan', async () => {
    const { panel } = renderManager({
      ...FREE_SUBSCRIPTION,
      renewal_problem: {
        state: 'lapsed',
        tier: 'professional',
        reason: 'Your card was declined.',
        next_attempt_at: null,
        final_attempt_at: null,
        lapsed_at: '2026-12-27T12:00:00.000Z',
      },
    });
    const card = await panel();
    expect(
      await within(card).findByText(
        'Your Professional plan ended on December 27, 2026 because its renewal payment failed: Your card was declined. Your credits are still yours.',
      ),
    ).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'View Plans' }).getAttribute('href')).toBe(
      '/pricing',
    );
  });
});
