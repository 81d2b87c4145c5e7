/**
 * The subscription answer of someone on the free plan (never subscribed, or their plan ended):
 * no cycle, no charge coming, nothing to cancel or reactivate; their trainings as their account
 * allows, and, after a lapse, what went wrong with the last renewal. The API answers it and the
 * web's fixtures use it, so the two cannot drift.
 */
export function freePlanSubscription<Problem = never>(
  trainingJobs: number,
  renewalProblem: Problem | null = null,
) {
  return {
    status: 'free' as const,
    tier: 'free' as const,
    billing_cycle: null,
    next_billing_date: null,
    cancel_at_period_end: false,
    cancel_status: null,
    can_cancel: false,
    can_reactivate: false,
    features: { training_jobs: trainingJobs },
    next_charge: null,
    allowance_resets_at: null,
    renewal_problem: renewalProblem,
  };
}
