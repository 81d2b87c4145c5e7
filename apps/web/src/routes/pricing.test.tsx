import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pricingAnswer } from '../features/payments/testing';
import { STORAGE_KEYS } from '../lib/storage';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

const pricing = () => [200, pricingAnswer()] as [number, unknown];

describe('/pricing', () => {
  it('shows the plan cards: name, description, price per month, headshots/month, features, Most Popular', async () => {
    stubApi({ 'GET /api/v1/payments/pricing': pricing });
    renderApp('/pricing');

    const pro = await screen.findByRole('article', { name: 'Professional' });
    expect(within(pro).getByText('Most Popular')).toBeTruthy();
    expect(within(pro).getByText('$19.99')).toBeTruthy();
    expect(within(pro).getByText('/month')).toBeTruthy();
    expect(within(pro).getByText('8 headshots/month')).toBeTruthy();
    expect(within(pro).getByText('5 personal AI models')).toBeTruthy();
    expect(
      within(pro).getByText('For professionals who want several looks and regular refreshes.'),
    ).toBeTruthy();
    const starter = screen.getByRole('article', { name: 'Starter' });
    expect(within(starter).queryByText('Most Popular')).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Subscribe Monthly' })).toHaveLength(3);
  });

  it('signed out: Subscribe Monthly stores selectedPlan and goes to /auth?redirect=/payment?type=training', async () => {
    stubApi({ 'GET /api/v1/payments/pricing': pricing });
    const router = renderApp('/pricing');
    const premium = await screen.findByRole('article', { name: 'Premium' });
    fireEvent.click(within(premium).getByRole('button', { name: 'Subscribe Monthly' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(
      '/payment?type=training',
    );
    expect(JSON.parse(window.localStorage.getItem('selectedPlan') ?? '')).toEqual({
      planId: 'premium',
      type: 'subscription',
      planName: 'Premium',
      price: 3999,
      credits: 16,
    });
  });

  it('signed in on the free plan goes straight to /payment?type=training', async () => {
    signIn();
    stubApi({
      'GET /api/v1/payments/pricing': pricing,
      'GET /api/v1/users/profile': () => [200, TEST_USER],
    });
    const router = renderApp('/pricing');
    const starter = await screen.findByRole('article', { name: 'Starter' });
    fireEvent.click(within(starter).getByRole('button', { name: 'Subscribe Monthly' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment'));
    expect(router.state.location.search).toBe('?type=training');
  });

  it('offers only plans above the current tier, and says so on the top tier', async () => {
    signIn({ plan_type: 'starter' });
    stubApi({
      'GET /api/v1/payments/pricing': pricing,
      'GET /api/v1/users/profile': () => [200, { ...TEST_USER, plan_type: 'starter' }],
    });
    renderApp('/pricing');
    expect(await screen.findByRole('button', { name: 'Upgrade to Professional' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upgrade to Premium' })).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Starter' })).toBeNull();
  });

  it("a subscriber's Upgrade goes to the prorated upgrade checkout, /payment?type=upgrade&from=plan", async () => {
    signIn({ plan_type: 'starter' });
    stubApi({
      'GET /api/v1/payments/pricing': pricing,
      'GET /api/v1/users/profile': () => [200, { ...TEST_USER, plan_type: 'starter' }],
    });
    const router = renderApp('/pricing');
    expect(await screen.findByText(/today you pay only the difference/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Premium' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment'));
    expect(router.state.location.search).toBe('?type=upgrade&from=starter');
    expect(JSON.parse(window.localStorage.getItem('selectedPlan') ?? '')).toMatchObject({
      planId: 'premium',
      price: 3999,
    });
  });

  it("signed in on premium: You're on the highest plan!", async () => {
    signIn({ plan_type: 'premium' });
    stubApi({
      'GET /api/v1/payments/pricing': pricing,
      'GET /api/v1/users/profile': () => [200, { ...TEST_USER, plan_type: 'premium' }],
    });
    renderApp('/pricing');
    expect(
      await screen.findByRole('heading', { name: "You're on the highest plan!" }),
    ).toBeTruthy();
  });

  it('signed out with no plans: No Plans Available', async () => {
    stubApi({
      'GET /api/v1/payments/pricing': () => [
        200,
        pricingAnswer({ pricing_options: [], subscription_plans: [] }),
      ],
    });
    renderApp('/pricing');
    expect(await screen.findByRole('heading', { name: 'No Plans Available' })).toBeTruthy();
  });

  it('a load error shows the spec message and a retry', async () => {
    stubApi({
      'GET /api/v1/payments/pricing': () => [500, { detail: 'x', code: 'internal_error' }],
    });
    renderApp('/pricing');
    expect(
      await screen.findByText('Failed to load pricing information. Please try again.', undefined, {
        timeout: 8000,
      }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
  }, 10_000);

  it('?plan= highlights the plan', async () => {
    stubApi({ 'GET /api/v1/payments/pricing': pricing });
    renderApp('/pricing?plan=starter');
    const starter = await screen.findByRole('article', { name: 'Starter' });
    expect(starter.getAttribute('aria-current')).toBe('true');
    expect(within(starter).getByText('Selected')).toBeTruthy();
  });

  it("reason 'credits' shows the Need Credits banner with three Coming Soon packs", async () => {
    stubApi({ 'GET /api/v1/payments/pricing': pricing });
    const router = renderApp('/');
    await router.navigate('/pricing', {
      state: {
        reason: 'credits',
        message: 'You need credits to generate headshots. Purchase credit packs below:',
      },
    });
    const banner = await screen.findByRole('region', { name: 'Need Credits' });
    expect(
      within(banner).getByText(
        'You need credits to generate headshots. Purchase credit packs below:',
      ),
    ).toBeTruthy();
    expect(within(banner).getAllByRole('button', { name: 'Coming Soon' })).toHaveLength(3);
    for (const [name, price] of [
      ['10 Credits', '$19.99'],
      ['25 Credits', '$39.99'],
      ['50 Credits', '$69.99'],
    ]) {
      expect(within(banner).getByText(name!)).toBeTruthy();
      expect(within(banner).getByText(price!)).toBeTruthy();
    }
    expect(window.localStorage.getItem(STORAGE_KEYS.authRedirect)).toBeNull();
  });
});
