/**
 * The product catalogue and business constants, from packages/pricing (shared with the server,
 * which charges only what is there), plus the labels the pages show.
 */
export * from '@studioshot/pricing';
import type { PlanType } from '@studioshot/contracts';

const PLAN_LABELS: Record<PlanType, string> = {
  free: 'Free',
  starter: 'Starter',
  professional: 'Professional',
  premium: 'Premium',
};

export function isPlanType(value: unknown): value is PlanType {
  return typeof value === 'string' && value in PLAN_LABELS;
}

/** A plan's display name; unknown or missing plans read as Free (product spec, dashboard). */
export function planLabel(plan: string | null | undefined): string {
  return isPlanType(plan) ? PLAN_LABELS[plan] : 'Free';
}

export { formatDollars } from './format-dollars';

/** A date of the subscription panel, e.g. "October 1, 2026"; the raw value if unparsable. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
