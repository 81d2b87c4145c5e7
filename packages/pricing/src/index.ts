import type { PlanType } from './types.js';
export type { PlanType } from './types.js';

/** Plan tiers in ascending order; an upgrade is only ever offered to a later tier. */
export const PLAN_TIERS: readonly PlanType[] = ['free', 'starter', 'professional', 'premium'];

export function tierRank(plan: PlanType): number {
  return PLAN_TIERS.indexOf(plan);
}
