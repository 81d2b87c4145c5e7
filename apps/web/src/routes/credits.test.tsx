import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fillCard, intentAnswer, pricingAnswer } from '../features/payments/testing';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

describe('/credits', () => {
  it('shows the back button, name, balance and the four packages with per-credit prices, each count said once', async () => {
    signIn({ credits_balance: 3 });
    stubApi({
      'GET /api/v1/users/profile': () => [200, { ...TEST_USER, credits_balance: 3 }],
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
    });
    renderApp('/credits');
    expect(await screen.findByRole('heading', { name: 'Buy Credits' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByText('Current balance')).toBeTruthy();
    expect(screen.getByText('credits remaining')).toBeTruthy();

    const expected = [
      ['Starter Pack', '20 credits (80 headshots)', '$9.99', '$0.50 per credit', null],
      ['Professional Pack', '60 credits (240 headshots)', '$24.99', '$0.42 per credit', '16% OFF'],
      ['Business Pack', '150 credits (600 headshots)', '$49.99', '$0.33 per credit', '34% OFF'],
      ['Enterprise Pack', '350 credits (1400 headshots)', '$99.99', '$0.29 per credit', '42% OFF'],
    ] as const;
    for (const [name, credits, price, perCredit, savings] of expected) {
      const card = screen.getByRole('article', { name });
      // Said once on the card: under its name, not again in its list.
      expect(card.textContent!.split(credits)).toHaveLength(2);
      expect(within(card).getByText(credits)).toBeTruthy();
      expect(within(card).getByText(price)).toBeTruthy();
      expect(within(card).getByText(perCredit)).toBeTruthy();
      if (savings) expect(within(card).getByText(savings)).toBeTruthy();
    }
    expect(screen.getByText('$29.99')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Why Choose Credit Packages' })).toBeTruthy();
    expect(screen.getByText('Do credits expire?')).toBeTruthy();
  });

  it('buys a package: Processing..., card, confirm, profile refresh, success, /generate-trained', async () => {
    signIn();
    const calls: string[] = [];
    let balance = 0;
    stubApi({
      'GET /api/v1/users/profile': () => {
        calls.push('profile');
        return [200, { ...TEST_USER, credits_balance: balance }];
      },
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
      'POST /api/v1/payments/create-credit-package': ({ body }) => {
        calls.push(`create ${(body as { package_id: string }).package_id}`);
        return [200, intentAnswer(2499)];
      },
      'POST /api/v1/payments/test/confirm-card': ({ body }) => {
        calls.push(`card ${(body as { card: { number: string } }).card.number}`);
        return [200, { payment_intent_id: 'pi_test_1', status: 'succeeded' }];
      },
      'POST /api/v1/payments/confirm-credit-package': () => {
        calls.push('confirm');
        balance = 60;
        return [200, { credits_added: 60, new_credits_balance: 60 }];
      },
    });
    const router = renderApp('/credits');
    const card = await screen.findByRole('article', { name: 'Professional Pack' });
    fireEvent.click(within(card).getByRole('button', { name: 'Buy Now' }));

    const processing = await within(card).findByRole('button', { name: 'Processing...' });
    expect((processing as HTMLButtonElement).disabled).toBe(true);
    const dialog = await screen.findByRole('dialog', { name: 'Buy the Professional Pack' });
    expect(within(dialog).getByText('Test Mode Active')).toBeTruthy();
    // The checkout is open with its price, and nothing is created until Pay.
    expect(within(dialog).getByText('$24.99')).toBeTruthy();
    expect(calls.filter((c) => c.startsWith('create'))).toEqual([]);
    fillCard(within(dialog));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay $24.99' }));
    expect(await within(dialog).findByText('Processing Secure Payment...')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(2100);

    await waitFor(() => expect(router.state.location.pathname).toBe('/generate-trained'));
    expect(
      await screen.findByText(
        'Purchase successful! 60 credits have been added. Your balance is now 60 credits.',
      ),
    ).toBeTruthy();
    expect(calls.filter((c) => c !== 'profile')).toEqual([
      'create professional_pack',
      'card 4242 4242 4242 4242',
      'confirm',
    ]);
    expect(calls.lastIndexOf('profile')).toBeGreaterThan(calls.indexOf('confirm'));
    expect(JSON.parse(window.localStorage.getItem('user') ?? '{}').credits_balance).toBe(60);
  });

  it('Pay that cannot make the payment says so in the form, and closing resets the button', async () => {
    signIn();
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
      'POST /api/v1/payments/create-credit-package': () => [
        503,
        { detail: 'Failed to create credit payment', code: 'service_unavailable' },
      ],
    });
    renderApp('/credits');
    const card = await screen.findByRole('article', { name: 'Starter Pack' });
    fireEvent.click(within(card).getByRole('button', { name: 'Buy Now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy the Starter Pack' });
    fillCard(within(dialog));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay $9.99' }));
    await vi.advanceTimersByTimeAsync(2100);
    expect(await within(dialog).findByText('Failed to create credit payment')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const button = within(card).getByRole('button', { name: 'Buy Now' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
  });

  it('a declined card grants nothing; a failed confirmation alerts Purchase failed', async () => {
    signIn();
    let confirms = 0;
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
      'POST /api/v1/payments/create-credit-package': () => [200, intentAnswer(999)],
      'POST /api/v1/payments/test/confirm-card': ({ body }) =>
        (body as { card: { number: string } }).card.number.startsWith('4000')
          ? [402, { detail: 'Your card was declined.', code: 'payment_failed' }]
          : [200, { payment_intent_id: 'pi_test_1', status: 'succeeded' }],
      'POST /api/v1/payments/confirm-credit-package': () => {
        confirms += 1;
        return [500, { detail: 'Something went wrong on our side.', code: 'internal_error' }];
      },
    });
    renderApp('/credits');
    const card = await screen.findByRole('article', { name: 'Starter Pack' });
    fireEvent.click(within(card).getByRole('button', { name: 'Buy Now' }));
    const dialog = await screen.findByRole('dialog');
    fillCard(within(dialog), '4000 0000 0000 0002');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay $9.99' }));
    await vi.advanceTimersByTimeAsync(2100);
    expect(await within(dialog).findByText('Your card was declined.')).toBeTruthy();
    expect(confirms).toBe(0);

    fillCard(within(dialog));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay $9.99' }));
    await vi.advanceTimersByTimeAsync(2100);
    expect(await within(dialog).findByText('Purchase failed. Please try again.')).toBeTruthy();
    expect(confirms).toBe(1);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(
        (within(card).getByRole('button', { name: 'Buy Now' }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
  });
});
