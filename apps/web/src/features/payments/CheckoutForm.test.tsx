import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { signIn, stubApi } from '../../test/app-harness';
import { CheckoutForm } from './CheckoutForm';
import { waitForPaymentConfirmation } from './payment-confirmation';
import { LIVE_CARDS_UNAVAILABLE } from './payments-api';

const intent = { payment_intent_id: 'pi_1', client_secret: 'pi_1_secret_x' };
const deferred = {
  currency: 'usd',
  mode: 'payment' as const,
  obtainIntent: () => Promise.resolve(intent),
};

describe('CheckoutForm', () => {
  it('shows the test card form in test mode', () => {
    render(
      <CheckoutForm
        {...deferred}
        amountCents={999}
        pricing={{ test_mode: true }}
        onSuccess={vi.fn()}
      />,
    );
    expect(screen.getByText('Test Mode Active')).toBeTruthy();
    expect(screen.getByLabelText('Card number')).toBeTruthy();
  });

  it('in Stripe mode without a publishable key, says cards cannot be taken (and loads no Stripe.js)', () => {
    render(
      <CheckoutForm
        {...deferred}
        amountCents={999}
        pricing={{ test_mode: false }}
        onSuccess={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe(LIVE_CARDS_UNAVAILABLE);
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(document.querySelector('script[src*="js.stripe.com"]')).toBeNull();
  });
});

describe('waitForPaymentConfirmation', () => {
  it('asks again while the payment is not completed yet, and stops once it is', async () => {
    signIn();
    let asks = 0;
    const fetchMock = stubApi({
      'POST /api/v1/payments/confirm-payment': () => {
        asks += 1;
        // Processing at the bank (409), then not yet paid as the server reads it (402).
        return asks < 3
          ? asks === 1
            ? [
                409,
                { detail: 'This payment has not been completed yet.', code: 'payment_incomplete' },
              ]
            : [402, { detail: 'This payment has not been paid.', code: 'payment_required' }]
          : [
              200,
              {
                message: 'Payment confirmed',
                kind: 'credits',
                credits_awarded: 20,
                new_credits_balance: 20,
                plan_type: 'free',
                training_limit: 0,
              },
            ];
      },
    });
    expect(await waitForPaymentConfirmation('pi_1', { delaysMs: [0] })).toBe(true);
    expect(asks).toBe(3);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('gives up after its asks while the payment is still not completed', async () => {
    signIn();
    stubApi({
      'POST /api/v1/payments/confirm-payment': () => [
        409,
        { detail: 'This payment has not been completed yet.', code: 'payment_incomplete' },
      ],
    });
    expect(await waitForPaymentConfirmation('pi_1', { maxAsks: 3, delaysMs: [0] })).toBe(false);
  });

  it('ends the wait on any other answer: the order confirm then says what is wrong', async () => {
    signIn();
    const fetchMock = stubApi({
      'POST /api/v1/payments/confirm-payment': () => [
        404,
        { detail: 'Failed to confirm payment', code: 'payment_not_found' },
      ],
    });
    expect(await waitForPaymentConfirmation('pi_1', { delaysMs: [0] })).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
