/**
 * A plan payment that would lower the plan, or whose starting plan is no longer the user's:
 * thrown inside the fulfilment transaction (by the upgrade's own check too), which then refunds.
 */
export class StalePlanPayment extends Error {}
