import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

const none = { credits: 0, plan: null, training_slots: 0, headshots: 0 };
const ENTRIES = [
  {
    id: '6c1e7a52-2f61-4c1c-9b59-0a4d3a1f8e01',
    receipt_number: 'SS-20261201-6C1E7A52',
    kind: 'renewal',
    description: 'Professional plan renewal',
    amount_cents: 1999,
    currency: 'usd',
    status: 'succeeded',
    created_at: '2026-12-01T09:00:00.000Z',
    paid_at: '2026-12-01T09:00:01.000Z',
    refunded_at: null,
    granted: { ...none, plan: 'professional', credits: 8 },
    has_receipt: true,
    refund: null,
    refundable_until: null,
  },
  {
    id: '0b7f3c1a-8d2e-4f5a-9c6b-1e2d3f4a5b6c',
    receipt_number: 'SS-20261115-0B7F3C1A',
    kind: 'subscription',
    description: 'Professional plan subscription',
    amount_cents: 1999,
    currency: 'usd',
    status: 'refunded',
    created_at: '2026-11-15T09:00:00.000Z',
    paid_at: null,
    refunded_at: '2026-11-15T09:05:00.000Z',
    granted: none,
    has_receipt: true,
    refund: { reason: null, requested_at: null, credits_taken_back: 0 },
    refundable_until: null,
  },
  {
    id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    receipt_number: 'SS-20261110-9A8B7C6D',
    kind: 'credits',
    description: 'Professional Pack (60 credits)',
    amount_cents: 2499,
    currency: 'usd',
    status: 'failed',
    created_at: '2026-11-10T09:00:00.000Z',
    paid_at: null,
    refunded_at: null,
    granted: none,
    has_receipt: false,
    refund: null,
    refundable_until: null,
  },
];

/** A credit pack paid within the 30 days: it can be refunded. */
const REFUNDABLE = {
  id: '3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a',
  receipt_number: 'SS-20261202-3D2C1B0A',
  kind: 'credits',
  description: 'Professional Pack (60 credits)',
  amount_cents: 2499,
  currency: 'usd',
  status: 'succeeded',
  created_at: '2026-12-02T09:00:00.000Z',
  paid_at: '2026-12-02T09:00:01.000Z',
  refunded_at: null,
  granted: { ...none, credits: 60 },
  has_receipt: true,
  refund: null,
  refundable_until: '2027-01-01T09:00:01.000Z',
};

describe('/billing', () => {
  it('lists payments and renewals with amount, date, what each granted, status and receipt', async () => {
    signIn();
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/history': () => [200, { payments: ENTRIES }],
    });
    renderApp('/billing');
    expect(await screen.findByText('Loading your billing history...')).toBeTruthy();
    const renewal = await screen.findByRole('article', { name: 'Professional plan renewal' });
    expect(within(renewal).getByText('Renewal')).toBeTruthy();
    expect(within(renewal).getByText('$19.99')).toBeTruthy();
    expect(within(renewal).getByText('December 1, 2026')).toBeTruthy();
    expect(within(renewal).getByText('Professional plan and 8 credits')).toBeTruthy();
    expect(within(renewal).getByText('Paid')).toBeTruthy();
    // The link's name starts with the words it shows (WCAG 2.5.3, label in name).
    const receipt = within(renewal).getByRole('link', {
      name: 'View receipt SS-20261201-6C1E7A52',
    });
    expect(receipt.textContent).toContain('View receipt');
    expect(receipt.getAttribute('href')).toBe(
      '/billing/receipts/6c1e7a52-2f61-4c1c-9b59-0a4d3a1f8e01',
    );

    const refunded = screen.getByRole('article', { name: 'Professional plan subscription' });
    expect(within(refunded).getByText('Refunded')).toBeTruthy();
    expect(within(refunded).getByText('Nothing')).toBeTruthy();
    expect(within(refunded).getByText('(refunded November 15, 2026)')).toBeTruthy();

    const failed = screen.getByRole('article', { name: 'Professional Pack (60 credits)' });
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).queryByRole('link')).toBeNull();
  });

  it('says when there are no payments yet', async () => {
    signIn();
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/history': () => [200, { payments: [] }],
    });
    renderApp('/billing');
    expect(await screen.findByText('No payments yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/pricing');
  });

  it('shows the error and tries again', async () => {
    signIn();
    let answer: [number, unknown] = [500, { detail: 'Something broke.', code: 'internal_error' }];
    const fetchMock = stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/history': () => answer,
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderApp('/billing');
      // A server fault is retried twice (the query client's rule) before the page says so.
      await vi.advanceTimersByTimeAsync(8000);
    } finally {
      vi.useRealTimers();
    }
    expect(await screen.findByText('Failed to load billing history')).toBeTruthy();
    answer = [200, { payments: ENTRIES }];
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('article', { name: 'Professional plan renewal' })).toBeTruthy();
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url) === '/api/v1/payments/history').length,
    ).toBeGreaterThan(1);
  });
});

describe('/billing: the money-back guarantee', () => {
  it('offers a refund only where the 30 days have not passed, asks why, and shows it refunded', async () => {
    signIn();
    let history: object[] = [REFUNDABLE, ...ENTRIES];
    let asked: unknown;
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/history': () => [200, { payments: history }],
      'POST /api/v1/payments/refunds': ({ body }) => {
        asked = body;
        const refunded = {
          ...REFUNDABLE,
          status: 'refunded',
          refunded_at: '2026-12-03T09:00:00.000Z',
          refund: {
            reason: 'not_satisfied',
            requested_at: '2026-12-03T09:00:00.000Z',
            credits_taken_back: 45,
          },
          refundable_until: null,
        };
        history = [refunded, ...ENTRIES];
        return [
          200,
          {
            message: 'Your refund is on its way: it reaches your card in 5 to 10 business days.',
            payment: refunded,
          },
        ];
      },
    });
    renderApp('/billing');
    // Newest first: the pack paid this week, then the failed one.
    const [pack] = await screen.findAllByRole('article', {
      name: 'Professional Pack (60 credits)',
    });
    const renewal = screen.getByRole('article', { name: 'Professional plan renewal' });
    expect(within(renewal).queryByRole('button', { name: /Request a refund/ })).toBeNull();

    fireEvent.click(
      within(pack!).getByRole('button', { name: 'Request a refund of SS-20261202-3D2C1B0A' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Request a refund' });
    expect(within(dialog).getByText(/You can ask until January 1, 2027/)).toBeTruthy();
    expect(
      within(dialog).getByText(
        'The credits this payment gave you that are not spent yet go (up to 60).',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $24.99' }));
    expect(await within(dialog).findByText('Choose a reason to continue.')).toBeTruthy();
    expect(asked).toBeUndefined();

    fireEvent.click(within(dialog).getByLabelText('I am not happy with my headshots'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $24.99' }));
    await waitFor(() =>
      expect(asked).toEqual({ payment_id: REFUNDABLE.id, reason: 'not_satisfied' }),
    );
    expect(await screen.findByText('Refund: 45 unspent credits taken back')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Request a refund/ })).toBeNull();
  });

  it("shows the server's refusal in the dialog and keeps it open", async () => {
    signIn();
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/history': () => [200, { payments: [REFUNDABLE] }],
      'POST /api/v1/payments/refunds': () => [
        409,
        {
          detail: 'The payment provider refused this refund: The card issuer declined the refund.',
          code: 'conflict',
        },
      ],
    });
    renderApp('/billing');
    fireEvent.click(await screen.findByRole('button', { name: /^Request a refund of/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Request a refund' });
    fireEvent.click(within(dialog).getByLabelText('Another reason'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $24.99' }));
    expect(
      await within(dialog).findByText(
        'The payment provider refused this refund: The card issuer declined the refund.',
      ),
    ).toBeTruthy();
  });
});

describe('/billing/receipts/{id}', () => {
  it('shows a printable receipt: number, date, item, amount, what was granted, the company', async () => {
    signIn();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/receipts/6c1e7a52-2f61-4c1c-9b59-0a4d3a1f8e01': () => [
        200,
        {
          ...ENTRIES[0],
          kind: 'upgrade',
          description: 'Upgrade from Starter to Professional',
          amount_cents: 667,
          seller: { name: 'Studioshot', website: 'https://studioshot.example' },
          customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
          payment_intent_id: 'pi_test_123',
          proration: {
            from_plan: 'starter',
            to_plan: 'professional',
            billing_cycle: 'monthly',
            period_start: '2026-11-21T09:00:00.000Z',
            period_end: '2026-12-21T09:00:00.000Z',
            priced_at: '2026-12-01T09:00:00.000Z',
            remaining_days: 20,
            from_price_cents: 999,
            to_price_cents: 1999,
            credited_cents: 666,
            new_plan_cents: 1333,
            prorated_cents: 667,
            charged_cents: 667,
            minimum_applied: false,
            credits: 2,
          },
        },
      ],
    });
    renderApp('/billing/receipts/6c1e7a52-2f61-4c1c-9b59-0a4d3a1f8e01');
    const receipt = await screen.findByRole('article', { name: 'Receipt' });
    expect(within(receipt).getByText('Studioshot')).toBeTruthy();
    expect(within(receipt).getByText('SS-20261201-6C1E7A52')).toBeTruthy();
    expect(within(receipt).getByText('December 1, 2026')).toBeTruthy();
    expect(within(receipt).getByText('Upgrade from Starter to Professional')).toBeTruthy();
    expect(within(receipt).getByText('Professional plan and 8 credits')).toBeTruthy();
    expect(within(receipt).getByText('Credit for unused Starter time: −$6.66')).toBeTruthy();
    expect(within(receipt).getByText('$6.67')).toBeTruthy();
    expect(within(receipt).getByText('ada@example.com')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Print receipt' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it("answers a receipt that is not the user's as not found", async () => {
    signIn();
    stubApi({ 'GET /api/v1/users/profile': () => [200, TEST_USER] });
    renderApp('/billing/receipts/00000000-0000-4000-8000-000000000000');
    expect(await screen.findByText('Receipt not found')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'See all receipts' }).getAttribute('href')).toBe(
        '/billing',
      ),
    );
  });
});
