import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pricingAnswer } from '../features/payments/testing';
import { STORAGE_KEYS } from '../lib/storage';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

const pricing = () => [200, pricingAnswer()] as [number, unknown];

describe('/pricing', () => {
  it('shows the plan cards: name, description, price per month, credits a month, features, Most Popular', async () => {
    stubApi({ 'GET /api/v1/payments/pricing': pricing });
    renderApp('/pricing');

    const pro = await screen.findByRole('article', { name: 'Professional' });
    expect(within(pro).getByText('Most Popular')).toBeTruthy();
    expect(within(pro).getByText('$19.99')).toBeTruthy();
    expect(within(pro).getByText('/month')).toBeTruthy();
    expect(within(pro).getByText('8 credits (32 headshots) a month')).toBeTruthy();
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

describe('/pricing billing period', () => {
  const pressed = (name: RegExp) =>
    screen.getByRole('button', { name }).getAttribute('aria-pressed');

  it('Monthly by default; Annual shows each price per year, per month and two months free', async () => {
    stubApi({ 'GET /api/v1/payments/pricing': pricing });
    const router = renderApp('/pricing');
    const group = await screen.findByRole('group', { name: 'Billing period' });
    // The period switch shows while the catalogue loads; the cards come with the answer.
    await screen.findByRole('article', { name: 'Starter' });
    expect(pressed(/^Monthly$/)).toBe('true');
    expect(pressed(/^Annual/)).toBe('false');
    expect(within(group).getByRole('button', { name: /^Annual/ }).textContent).toBe(
      'AnnualTwo months free',
    );
    expect(screen.queryByText('/year')).toBeNull();

    fireEvent.click(within(group).getByRole('button', { name: /^Annual/ }));
    expect(pressed(/^Annual/)).toBe('true');
    expect(pressed(/^Monthly$/)).toBe('false');
    expect(router.state.location.search).toBe('?billing=annual');
    for (const [name, year, month, saved, credits] of [
      ['Starter', '$99.90', '$8.33', '$19.98', '4 credits (16 headshots) a month'],
      ['Professional', '$199.90', '$16.66', '$39.98', '8 credits (32 headshots) a month'],
      ['Premium', '$399.90', '$33.33', '$79.98', '16 credits (64 headshots) a month'],
    ] as const) {
      const card = screen.getByRole('article', { name });
      expect(within(card).getByText(year)).toBeTruthy();
      expect(within(card).getByText('/year')).toBeTruthy();
      expect(within(card).queryByText('/month')).toBeNull();
      expect(within(card).getByText(`${month}/month billed yearly`)).toBeTruthy();
      expect(within(card).getByText(`Two months free: save ${saved}`)).toBeTruthy();
      // Credits still come monthly.
      expect(within(card).getByText(credits)).toBeTruthy();
    }
    expect(screen.getAllByRole('button', { name: 'Subscribe Annually' })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Subscribe Monthly' })).toBeNull();
    expect(screen.getByText(/Keep your plan until the end of the year you paid for/)).toBeTruthy();

    // Back to Monthly: the spec's cards as they were, the address without the parameter.
    fireEvent.click(within(group).getByRole('button', { name: 'Monthly' }));
    expect(router.state.location.search).toBe('');
    expect(screen.getAllByRole('button', { name: 'Subscribe Monthly' })).toHaveLength(3);
    expect(
      within(screen.getByRole('article', { name: 'Premium' })).getByText('$39.99'),
    ).toBeTruthy();
  });

  it('?billing=annual opens on the annual prices, beside ?plan=', async () => {
    stubApi({ 'GET /api/v1/payments/pricing': pricing });
    renderApp('/pricing?plan=premium&billing=annual');
    const premium = await screen.findByRole('article', { name: 'Premium' });
    expect(premium.getAttribute('aria-current')).toBe('true');
    expect(within(premium).getByText('$399.90')).toBeTruthy();
    expect(pressed(/^Annual/)).toBe('true');
  });

  it('signed out: Subscribe Annually keeps the cycle through sign-in to /payment', async () => {
    stubApi({ 'GET /api/v1/payments/pricing': pricing });
    const router = renderApp('/pricing?billing=annual');
    const premium = await screen.findByRole('article', { name: 'Premium' });
    fireEvent.click(within(premium).getByRole('button', { name: 'Subscribe Annually' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(
      '/payment?type=training&billing=annual',
    );
    expect(window.localStorage.getItem(STORAGE_KEYS.authRedirect)).toBe(
      '/payment?type=training&billing=annual',
    );
    // The plan as the catalogue prices it per month; the address says the cycle.
    expect(JSON.parse(window.localStorage.getItem('selectedPlan') ?? '')).toEqual({
      planId: 'premium',
      type: 'subscription',
      planName: 'Premium',
      price: 3999,
      credits: 16,
    });
  });

  it('signed in on the free plan: Subscribe Annually goes to /payment?type=training&billing=annual', async () => {
    signIn();
    stubApi({
      'GET /api/v1/payments/pricing': pricing,
      'GET /api/v1/users/profile': () => [200, TEST_USER],
    });
    const router = renderApp('/pricing');
    fireEvent.click(await screen.findByRole('button', { name: /^Annual/ }));
    const starter = screen.getByRole('article', { name: 'Starter' });
    fireEvent.click(within(starter).getByRole('button', { name: 'Subscribe Annually' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment'));
    expect(router.state.location.search).toBe('?type=training&billing=annual');
  });

  it("an annual subscriber's upgrades are shown at annual prices, without the toggle", async () => {
    const annualStarter = { plan_type: 'starter', subscription_interval: 'annual' } as const;
    signIn(annualStarter);
    stubApi({
      'GET /api/v1/payments/pricing': pricing,
      'GET /api/v1/users/profile': () => [200, { ...TEST_USER, ...annualStarter }],
    });
    // The address cannot switch a subscriber's cycle: upgrades keep it.
    const router = renderApp('/pricing?billing=monthly');
    const premium = await screen.findByRole('article', { name: 'Premium' });
    expect(within(premium).getByText('$399.90')).toBeTruthy();
    expect(within(premium).getByText('/year')).toBeTruthy();
    expect(screen.getByText(/Your plan is billed yearly/)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Billing period' })).toBeNull();
    fireEvent.click(within(premium).getByRole('button', { name: 'Upgrade to Premium' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment'));
    expect(router.state.location.search).toBe('?type=upgrade&from=starter');
  });

  it('a monthly subscriber sees monthly upgrade prices and no toggle', async () => {
    signIn({ plan_type: 'starter' });
    stubApi({
      'GET /api/v1/payments/pricing': pricing,
      'GET /api/v1/users/profile': () => [
        200,
        { ...TEST_USER, plan_type: 'starter', subscription_interval: 'monthly' },
      ],
    });
    renderApp('/pricing?billing=annual');
    const premium = await screen.findByRole('article', { name: 'Premium' });
    expect(within(premium).getByText('$39.99')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Billing period' })).toBeNull();
  });
});
