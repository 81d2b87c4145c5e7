import { describe, expect, it } from 'vitest';
import { grantedSummary, isRenewal, paymentDate } from './billing-format';

const none = { credits: 0, plan: null, training_slots: 0, headshots: 0 };

describe('billing words', () => {
  it('says what a payment granted', () => {
    expect(grantedSummary({ ...none, credits: 60 })).toBe('60 credits');
    expect(grantedSummary({ ...none, plan: 'starter', credits: 4 })).toBe(
      'Starter plan and 4 credits',
    );
    expect(grantedSummary({ ...none, training_slots: 1 })).toBe('1 model training');
    expect(grantedSummary({ ...none, plan: 'premium', credits: 1, training_slots: 3 })).toBe(
      'Premium plan, 1 credit and 3 model trainings',
    );
    expect(grantedSummary({ ...none, headshots: 4 })).toBe('4 headshots');
    expect(grantedSummary(none)).toBe('Nothing');
  });

  it('dates a payment by when the money moved', () => {
    const entry = {
      created_at: '2026-11-01T00:00:00.000Z',
      paid_at: null as string | null,
      refunded_at: null as string | null,
    };
    expect(paymentDate({ ...entry })).toBe('2026-11-01T00:00:00.000Z');
    expect(paymentDate({ ...entry, refunded_at: '2026-11-02T00:00:00.000Z' })).toBe(
      '2026-11-02T00:00:00.000Z',
    );
    expect(paymentDate({ ...entry, paid_at: '2026-11-03T00:00:00.000Z' })).toBe(
      '2026-11-03T00:00:00.000Z',
    );
    expect(isRenewal({ kind: 'renewal' })).toBe(true);
    expect(isRenewal({ kind: 'subscription' })).toBe(false);
  });
});
