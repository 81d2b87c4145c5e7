import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderApp, signIn, stubApi, TEST_USER } from '../../test/app-harness';
import { queryClient } from '../../lib/query-client';
import { RenewalBanner, renewalNotice } from './RenewalBanner';
import { FREE_SUBSCRIPTION, pricingAnswer, subscriptionAnswer } from './testing';
import type { SubscriptionResponse } from './payments-api';
import { paymentKeys } from './query-keys';

const RETRYING = subscriptionAnswer({
  status: 'past_due',
  tier: 'starter',
  renewal_problem: {
    state: 'retrying',
    tier: 'starter',
    reason: 'Your card was declined.',
    next_attempt_at: '2026-12-23T12:00:00.000Z',
    final_attempt_at: '2026-12-27T12:00:00.000Z',
    lapsed_at: null,
  },
});
const LAPSED: SubscriptionResponse = {
  ...FREE_SUBSCRIPTION,
  renewal_problem: {
    state: 'lapsed',
    tier: 'premium',
    reason: 'Your card has expired.',
    next_attempt_at: null,
    final_attempt_at: null,
    lapsed_at: '2026-12-27T12:00:00.000Z',
  },
};

/** A signed-in page other than the dashboard: the banner belongs to the shell. */
function creditsPage(subscription: SubscriptionResponse) {
  signIn();
  stubApi({
    'GET /api/v1/users/profile': () => [200, TEST_USER],
    'GET /api/v1/payments/subscription': () => [200, subscription],
    'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
    'GET /api/v1/training/jobs': () => [200, { jobs: [] }],
  });
  renderApp('/credits');
}

describe('renewal banner', () => {
  it('while retrying: what failed, the next and last tries, and the way to update the card', () => {
    expect(renewalNotice(RETRYING.renewal_problem!)).toEqual({
      title: 'The renewal payment for your Starter plan failed.',
      detail:
        'Your card was declined. We will try again on December 23, 2026; update your card before December 27, 2026 to keep your plan.',
      action: { to: '/dashboard', text: 'Update card' },
    });
  });

  it('after the lapse: back on Free, credits kept, the way back to a plan', () => {
    expect(renewalNotice(LAPSED.renewal_problem!)).toEqual({
      title: 'Your Premium plan has ended: its renewal payment failed.',
      detail:
        'Your card has expired. You are on the Free plan since December 27, 2026, and your credits are still yours. Subscribe again to train and get monthly credits.',
      action: { to: '/pricing', text: 'Choose a plan' },
    });
  });

  it('shows on signed-in pages while a renewal is being retried', async () => {
    creditsPage(RETRYING);
    const banner = await screen.findByRole('complementary', { name: 'Subscription renewal' });
    expect(banner.textContent).toContain('The renewal payment for your Starter plan failed.');
    expect(within(banner).getByRole('link', { name: 'Update card' }).getAttribute('href')).toBe(
      '/dashboard',
    );
  });

  it('shows after a lapse, leading to /pricing', async () => {
    creditsPage(LAPSED);
    const banner = await screen.findByRole('complementary', { name: 'Subscription renewal' });
    expect(within(banner).getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe(
      '/pricing',
    );
  });

  it.each([
    ['active', subscriptionAnswer(), false],
    ['free, never lapsed', FREE_SUBSCRIPTION, false],
    ['retrying', RETRYING, true],
  ] as const)('%s: shown only for a renewal problem', (_name, subscription, shown) => {
    queryClient.setQueryData(paymentKeys.subscription(), subscription);
    const router = createMemoryRouter([{ path: '/', element: <RenewalBanner /> }]);
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const banner = screen.queryByRole('complementary', { name: 'Subscription renewal' });
    expect(banner !== null).toBe(shown);
  });
});
