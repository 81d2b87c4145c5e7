import { describe, expect, it } from 'vitest';
import { freePlanSubscription } from './free-plan.js';

describe('the free plan answer', () => {
  it('has no cycle, no charge and nothing to cancel; its trainings and a lapse as given', () => {
    const lapse = { reason: 'card declined' };
    expect(freePlanSubscription(2, lapse)).toEqual({
      status: 'free',
      tier: 'free',
      billing_cycle: null,
      next_billing_date: null,
      cancel_at_period_end: false,
      cancel_status: null,
      can_cancel: false,
      can_reactivate: false,
      features: { training_jobs: 2 },
      next_charge: null,
      allowance_resets_at: null,
      renewal_problem: lapse,
    });
    expect(freePlanSubscription(0).renewal_problem).toBeNull();
  });
});
