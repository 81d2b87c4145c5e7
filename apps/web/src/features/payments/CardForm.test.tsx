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
  it('formats the fields; Pay reads as disabled until the card is complete, yet stays focusable', () => {
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
    expect(pay.getAttribute('aria-disabled')).toBe('true');
    // Focusable, so Tab stops on it rather than leaving the form.
    expect(pay.disabled).toBe(false);
    pay.focus();
    expect(document.activeElement).toBe(pay);

    // Why Pay is disabled is said in words, and tied to the button.
    const why = () => document.getElementById(pay.getAttribute('aria-describedby') ?? '');
    expect(why()?.textContent).toBe('Enter your card details to pay.');

    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4242424242' } });
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4242 4242 42');
    expect(why()?.textContent).toBe(
      'Please complete card information: name on card, card number, expiry date and CVC.',
    );

    fillCard();
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe(
      '4242 4242 4242 4242',
    );
    expect((screen.getByLabelText('Expiry (MM/YY)') as HTMLInputElement).value).toBe('12/34');
    expect(pay.getAttribute('aria-disabled')).toBeNull();
    expect(pay.getAttribute('aria-describedby')).toBeNull();
    expect(screen.queryByText(/Please complete card information/)).toBeNull();
  });

  it('marks each invalid field and describes it with its message', () => {
    render(
      <CardForm
        amountCents={999}
        testMode
        charge={vi.fn()}
        onSuccess={vi.fn()}
        minProcessingMs={0}
      />,
    );
    const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
    const description = (input: HTMLInputElement) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' ');

    // A month that cannot be: marked at once, no need to leave the field.
    fireEvent.change(field('Expiry (MM/YY)'), { target: { value: '1399' } });
    expect(field('Expiry (MM/YY)').value).toBe('13/99');
    expect(field('Expiry (MM/YY)').getAttribute('aria-invalid')).toBe('true');
    expect(description(field('Expiry (MM/YY)'))).toBe('The expiry month must be 01 to 12.');

    // A wrong check digit is marked at once too.
    fireEvent.change(field('Card number'), { target: { value: '4242424242424241' } });
    expect(field('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(description(field('Card number'))).toBe(
      'This card number is not valid: check the digits.',
    );

    // A short CVC is only incomplete while typing; leaving the field says so.
    fireEvent.change(field('CVC'), { target: { value: '12' } });
    expect(field('CVC').getAttribute('aria-invalid')).toBeNull();
    fireEvent.blur(field('CVC'));
    expect(field('CVC').getAttribute('aria-invalid')).toBe('true');
    expect(description(field('CVC'))).toBe('Enter the 3-digit CVV.');

    fireEvent.change(field('Expiry (MM/YY)'), { target: { value: '1234' } });
    fireEvent.change(field('Card number'), { target: { value: '4242424242424242' } });
    fireEvent.change(field('CVC'), { target: { value: '123' } });
    for (const label of ['Expiry (MM/YY)', 'Card number', 'CVC']) {
      expect(field(label).getAttribute('aria-invalid')).toBeNull();
      expect(field(label).getAttribute('aria-describedby')).toBeNull();
    }
    expect(screen.getByRole('button', { name: 'Pay $9.99' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    expect(screen.getByText(/Please complete card information: name on card\./)).toBeTruthy();
  });

  it('pays on Enter once the card is complete; before that Enter shows every problem', async () => {
    const charge = vi.fn().mockResolvedValue(undefined);
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
    const number = screen.getByLabelText('Card number');
    fireEvent.change(number, { target: { value: '4242' } });
    fireEvent.keyDown(number, { key: 'Enter' });
    expect(charge).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Name on card').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter the name on the card.')).toBeTruthy();
    expect(screen.getByText('Enter all 16 digits of the card number.')).toBeTruthy();

    fillCard();
    fireEvent.keyDown(screen.getByLabelText('CVC'), { key: 'Enter' });
    await waitFor(() => expect(onSuccess).toHaveBeenCalledOnce());
    expect(charge).toHaveBeenCalledOnce();
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
