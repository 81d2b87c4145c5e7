import type { User } from '@studioshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FREE_SUBSCRIPTION, pricingAnswer, subscriptionAnswer } from '../features/payments/testing';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

type Handlers = Parameters<typeof stubApi>[0];

function dashboard(user: Partial<User>, extra: Handlers = {}) {
  signIn(user);
  const fetchMock = stubApi({
    'GET /api/v1/users/profile': () => [200, { ...TEST_USER, ...user }],
    'GET /api/v1/payments/subscription': () => [200, FREE_SUBSCRIPTION],
    'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
    ...extra,
  });
  const router = renderApp('/dashboard');
  return { router, fetchMock };
}

const subscription = () => screen.findByRole('region', { name: 'Subscription' });

describe('dashboard subscription manager', () => {
  it('free: says so and links to /pricing', async () => {
    dashboard({});
    const panel = await subscription();
    expect(await within(panel).findByRole('link', { name: 'View Plans' })).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'View Plans' }).getAttribute('href')).toBe(
      '/pricing',
    );
  });

  it('active: cancel asks first, then shows cancelling with access-until and Reactivate', async () => {
    let state = subscriptionAnswer();
    const calls: string[] = [];
    dashboard(
      { plan_type: 'professional', training_limit: 5, credits_balance: 20 },
      {
        'GET /api/v1/payments/subscription': () => [200, state],
        'POST /api/v1/payments/cancel-subscription': () => {
          calls.push('cancel');
          state = subscriptionAnswer({
            status: 'cancelling',
            cancel_at_period_end: true,
            cancel_status: 'cancelling',
            can_cancel: false,
            can_reactivate: true,
          });
          return [
            200,
            {
              message:
                'Your subscription is cancelled. You keep your plan until 2026-12-22, and your credits never expire.',
              access_until: '2026-12-22T12:00:00.000Z',
              credits_retained: 20,
            },
          ];
        },
        'POST /api/v1/payments/reactivate-subscription': () => {
          calls.push('reactivate');
          state = subscriptionAnswer();
          return [
            200,
            {
              message: 'Your professional plan is active again and renews on 2026-12-22.',
              subscription: state,
            },
          ];
        },
      },
    );
    const panel = await subscription();
    expect(await within(panel).findByText('Professional')).toBeTruthy();
    expect(within(panel).getByText('$19.99/month')).toBeTruthy();
    expect(within(panel).getByText('Next billing date')).toBeTruthy();
    expect(within(panel).getByText('December 22, 2026')).toBeTruthy();
    expect(within(panel).getByText('5 models')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel Subscription' }));
    expect(calls).toEqual([]);
    expect(within(panel).getByText('Cancel your Professional subscription?')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Keep Subscription' }));
    expect(within(panel).queryByText('Cancel your Professional subscription?')).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel Subscription' }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Yes, Cancel Subscription' }));
    expect(await screen.findByText('Subscription cancelled')).toBeTruthy();
    expect(await within(panel).findByText(/You keep your plan until 2026-12-22/)).toBeTruthy();
    expect(within(panel).getByText(/20 credits retained/)).toBeTruthy();
    expect(await within(panel).findByText('Cancelling')).toBeTruthy();
    expect(within(panel).getByText('Access until')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: 'Reactivate Subscription' }));
    expect(await screen.findByText(/active again/)).toBeTruthy();
    expect(await within(panel).findByText('Active')).toBeTruthy();
    expect(calls).toEqual(['cancel', 'reactivate']);
  });

  it.each([
    ['load', 'Failed to load subscription information'],
    ['cancel', 'Failed to cancel subscription'],
    ['reactivate', 'Failed to reactivate subscription'],
  ])('%s failure shows %s', async (which, message) => {
    dashboard(
      { plan_type: 'professional', training_limit: 5 },
      {
        'GET /api/v1/payments/subscription': () =>
          which === 'load'
            ? [404, {}]
            : [
                200,
                subscriptionAnswer(
                  which === 'reactivate'
                    ? { status: 'cancelling', can_cancel: false, can_reactivate: true }
                    : {},
                ),
              ],
        'POST /api/v1/payments/cancel-subscription': () => [409, {}],
        'POST /api/v1/payments/reactivate-subscription': () => [409, {}],
      },
    );
    const panel = await subscription();
    if (which === 'cancel') {
      fireEvent.click(await within(panel).findByRole('button', { name: 'Cancel Subscription' }));
      fireEvent.click(within(panel).getByRole('button', { name: 'Yes, Cancel Subscription' }));
    }
    if (which === 'reactivate') {
      fireEvent.click(
        await within(panel).findByRole('button', { name: 'Reactivate Subscription' }),
      );
    }
    expect(await within(panel).findByText(message)).toBeTruthy();
  });
});

describe('dashboard credits and training', () => {
  it('shows the stat cards, the out-of-credits banner, and refreshes every 10 s', async () => {
    const { fetchMock } = dashboard({ credits_balance: 0, total_generations: 7 });
    expect(await screen.findByRole('heading', { name: 'Out of Credits!' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
    expect(screen.getByText('Models Trained / Limit')).toBeTruthy();
    expect(screen.getByText('Credits Available')).toBeTruthy();
    expect(screen.getByText('Current Plan')).toBeTruthy();
    expect(screen.getByText('Total Generations')).toBeTruthy();
    expect(screen.getByText('7')).toBeTruthy();

    const profileCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url) === '/api/v1/users/profile').length;
    const before = profileCalls();
    await vi.advanceTimersByTimeAsync(10_000);
    await waitFor(() => expect(profileCalls()).toBeGreaterThan(before));
  });

  it('a low balance can be dismissed', async () => {
    dashboard({ credits_balance: 2 });
    expect(await screen.findByRole('heading', { name: 'Almost Out of Credits!' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('heading', { name: 'Almost Out of Credits!' })).toBeNull();
  });

  it('free plan: the train action goes to /pricing', async () => {
    const { router } = dashboard({ credits_balance: 10 });
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Train AI Model' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
  });

  it('with slots left: + Train New Model goes to /upload', async () => {
    const { router } = dashboard({
      plan_type: 'professional',
      training_limit: 5,
      models_trained: 2,
      credits_balance: 10,
    });
    expect(await screen.findByText('3 slots remaining')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '+ Train New Model' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
  });

  it('at the limit: the train action opens the training-limit modal with its offers', async () => {
    const { router } = dashboard({
      plan_type: 'starter',
      training_limit: 1,
      models_trained: 1,
      credits_balance: 10,
    });
    expect(await screen.findByText('Plan limit reached (1 models max)')).toBeTruthy();
    expect(screen.getByText('Limit reached')).toBeTruthy();
    fireEvent.click(
      screen.getByRole('button', { name: 'Plan limit reached - upgrade for more models' }),
    );
    const modal = await screen.findByRole('dialog', { name: 'Train more models' });
    expect(within(modal).getByText('$25')).toBeTruthy();
    expect(within(modal).getByText('$45')).toBeTruthy();
    expect(within(modal).getByText('40% saving')).toBeTruthy();
    expect(within(modal).getByText('$49')).toBeTruthy();
    expect(within(modal).getByText('2 trainings, 8 credits')).toBeTruthy();
    expect(within(modal).getByText('$99')).toBeTruthy();
    expect(within(modal).getByText('4 trainings, 16 credits')).toBeTruthy();

    fireEvent.click(within(modal).getByRole('button', { name: 'Buy 3 Trainings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment'));
    expect(router.state.location.search).toBe('?type=training&quantity=3&price=45');
    expect(JSON.parse(window.localStorage.getItem('trainingPurchaseIntent') ?? '{}')).toMatchObject(
      { type: 'additional_training', currentPlan: 'starter' },
    );
  });

  it('the modal upgrade stores the target plan and goes to /payment?type=upgrade&from=plan', async () => {
    const { router } = dashboard({
      plan_type: 'professional',
      training_limit: 5,
      models_trained: 5,
      credits_balance: 10,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Plan to Train More' }));
    const modal = await screen.findByRole('dialog', { name: 'Train more models' });
    expect(within(modal).queryByRole('button', { name: 'Upgrade to Professional' })).toBeNull();
    fireEvent.click(within(modal).getByRole('button', { name: 'Upgrade to Premium' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment'));
    expect(router.state.location.search).toBe('?type=upgrade&from=professional');
    expect(JSON.parse(window.localStorage.getItem('selectedPlan') ?? '{}')).toEqual({
      planId: 'premium',
      type: 'subscription',
      planName: 'Premium',
      price: 9900,
      credits: 16,
    });
  });

  it('generate without credits goes to /pricing with the Need Credits banner', async () => {
    const { router } = dashboard({
      plan_type: 'starter',
      training_limit: 1,
      models_trained: 1,
      credits_balance: 0,
    });
    fireEvent.click(await screen.findByRole('button', { name: /Generate Premium Headshots/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(await screen.findByRole('region', { name: 'Need Credits' })).toBeTruthy();
  });
});
