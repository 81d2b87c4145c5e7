// Test fixtures for the payment screens (imported by tests only).
import type { PricingResponse, SubscriptionResponse } from '@studioshot/contracts';
import { freePlanSubscription } from '@studioshot/pricing';
import { fireEvent, screen } from '@testing-library/react';
import { pricingAnswer as catalogueAnswer } from './catalogue';

/** What GET /api/v1/payments/pricing answers in test mode (the server's own answer). */
export function pricingAnswer(overrides: Partial<PricingResponse> = {}): PricingResponse {
  return { ...catalogueAnswer({ testMode: true }), ...overrides };
}

export function intentAnswer(amount: number, id = 'pi_test_1') {
  return { payment_intent_id: id, client_secret: `${id}_secret_x`, amount, currency: 'usd' };
}

export function subscriptionAnswer(
  overrides: Partial<SubscriptionResponse> = {},
): SubscriptionResponse {
  return {
    status: 'active',
    tier: 'professional',
    billing_cycle: 'monthly',
    next_billing_date: '2026-12-22T12:00:00.000Z',
    cancel_at_period_end: false,
    cancel_status: 'active',
    can_cancel: true,
    can_reactivate: false,
    features: { training_jobs: 5 },
    next_charge: { date: '2026-12-22T12:00:00.000Z', amount_cents: 1999, currency: 'usd' },
    allowance_resets_at: '2026-12-22T12:00:00.000Z',
    renewal_problem: null,
    ...overrides,
  };
}

/** What a free account's GET /api/v1/payments/subscription answers (the server's own answer). */
export const FREE_SUBSCRIPTION: SubscriptionResponse = freePlanSubscription(0);

/** Types a complete card into the card form inside `within` (default: the document). */
export function fillCard(
  scope: Pick<typeof screen, 'getByLabelText'> = screen,
  number = '4242 4242 4242 4242',
): void {
  fireEvent.change(scope.getByLabelText('Name on card'), { target: { value: 'Ada Lovelace' } });
  fireEvent.change(scope.getByLabelText('Card number'), { target: { value: number } });
  fireEvent.change(scope.getByLabelText('Expiry (MM/YY)'), { target: { value: '12/34' } });
  fireEvent.change(scope.getByLabelText('CVC'), { target: { value: '123' } });
}
