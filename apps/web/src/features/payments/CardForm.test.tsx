import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { CardForm } from './CardForm';

function fillCard(number = '4242424242424242') {
  fireEvent.change(screen.getByLabelText('Name on card'), { target: { value: 'Ada Lovelace' } });
  fireEvent.change(screen.getByLabelText('Card number'), { target: { value: number } });
  fireEvent.change(screen.getByLabelText('Expiry (MM/YY)'), { target: { value: '1234' } });
  fireEvent.change(screen.getByLabelText('CVC'), { target: { value: '123' } });
}

describe('CardForm', () => {
  it('formats the fields and keeps submit disabled until the card is complete', () => {
    render(
      <CardForm
        amountCents={2499}
        testMode
        charge={vi.fn()}
        onSuccess={vi.fn()}
        minProcessingMs={0}
      />,
    );
    expect(screen.getByText('Test Mode Active')).toBeTruthy();
    const pay = screen.getByRole('button', { name: 'Pay $24.99' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4242424242' } });
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4242 4242 42');
    expect(screen.getByText('Please complete card information')).toBeTruthy();

    fillCard();
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe(
      '4242 4242 4242 4242',
    );
    expect((screen.getByLabelText('Expiry (MM/YY)') as HTMLInputElement).value).toBe('12/34');
    expect(pay.disabled).toBe(false);
    expect(screen.queryByText('Please complete card information')).toBeNull();
  });

  it('charges the card, shows Processing Secure Payment... at least the minimum, then succeeds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const charge = vi.fn().mockResolvedValue(undefined);
      const onSuccess = vi.fn().mockResolvedValue(undefined);
      render(<CardForm amountCents={999} testMode={false} charge={charge} onSuccess={onSuccess} />);
      expect(screen.queryByText('Test Mode Active')).toBeNull();
      fillCard();
      fireEvent.click(screen.getByRole('button', { name: 'Pay $9.99' }));

      const busy = await screen.findByRole('button', { name: 'Processing Secure Payment...' });
      expect((busy as HTMLButtonElement).disabled).toBe(true);
      expect(charge).toHaveBeenCalledWith({
        number: '4242 4242 4242 4242',
        expiry: '12/34',
        cvc: '123',
        name: 'Ada Lovelace',
      });
      await vi.advanceTimersByTimeAsync(1500);
      expect(onSuccess).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(600);
      await waitFor(() => expect(onSuccess).toHaveBeenCalledOnce());
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a decline and lets the user try again', async () => {
    const charge = vi
      .fn()
      .mockRejectedValueOnce(
        new ApiError({ status: 402, code: 'payment_failed', detail: 'Your card was declined.' }),
      )
      .mockResolvedValueOnce(undefined);
    const onSuccess = vi.fn().mockResolvedValue(undefined);
    render(
      <CardForm
        amountCents={999}
        testMode
        charge={charge}
        onSuccess={onSuccess}
        minProcessingMs={0}
      />,
    );
    fillCard('4000000000000002');
    fireEvent.click(screen.getByRole('button', { name: 'Pay $9.99' }));
    expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    expect(onSuccess).not.toHaveBeenCalled();
    const pay = screen.getByRole('button', { name: 'Pay $9.99' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(false);

    fireEvent.change(screen.getByLabelText('Card number'), {
      target: { value: '4242424242424242' },
    });
    fireEvent.click(pay);
    await waitFor(() => expect(onSuccess).toHaveBeenCalledOnce());
  });

  it('shows the success handler failure and re-enables the button', async () => {
    const onSuccess = vi
      .fn()
      .mockRejectedValue(
        new Error('Payment succeeded but failed to confirm. Please contact support.'),
      );
    render(
      <CardForm
        amountCents={999}
        testMode
        charge={vi.fn().mockResolvedValue(undefined)}
        onSuccess={onSuccess}
        minProcessingMs={0}
      />,
    );
    fillCard();
    fireEvent.click(screen.getByRole('button', { name: 'Pay $9.99' }));
    expect(
      await screen.findByText('Payment succeeded but failed to confirm. Please contact support.'),
    ).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Pay $9.99' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });
});

describe('CardForm timing', () => {
  it('keeps Processing Secure Payment... up for the minimum even when the card is declined', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const charge = vi
        .fn()
        .mockRejectedValue(
          new ApiError({ status: 402, code: 'payment_failed', detail: 'Your card was declined.' }),
        );
      render(<CardForm amountCents={999} testMode charge={charge} onSuccess={vi.fn()} />);
      fillCard('4000000000000002');
      fireEvent.click(screen.getByRole('button', { name: 'Pay $9.99' }));
      await vi.advanceTimersByTimeAsync(1000);
      expect(screen.getByRole('button', { name: 'Processing Secure Payment...' })).toBeTruthy();
      expect(screen.queryByText('Your card was declined.')).toBeNull();
      await vi.advanceTimersByTimeAsync(1100);
      expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
