/**
 * What an upgrade in the middle of a billing period costs and grants. The user has paid the
 * current plan up to the end of the period; moving up now charges only the difference between
 * the two plans for the time that is left:
 *
 *   remaining fraction f = (period end - now) / (period end - period start), clamped to [0, 1]
 *   charged   = round((new price - old price) x f)      the upgrade's own figure
 *   credited  = round(old price x f)                     the unused time of the current plan
 *   new plan  = credited + charged                       the new plan for the rest of the period
 *
 * Every figure is in whole cents, rounded half up from the exact fraction (integer arithmetic, no
 * floating point), and the lines always add up: new plan - credited = charged. A charge below
 * MIN_CHARGE_CENTS (an upgrade in the last minutes of a period) is raised to it, and says so.
 * Credits: the difference between the plans' monthly credits for the part of the current credit
 * month that is left, rounded down to whole credits (a credit is never granted for time not paid).
 */

/** The smallest amount a card payment can be (Stripe's minimum charge in US dollars). */
export const MIN_CHARGE_CENTS = 50;

export interface ProrationSide {
  /** The plan's price for one billing period of the subscription's interval. */
  price_cents: number;
  /** Credits the plan grants each month. */
  credits: number;
}

export interface Window {
  start: Date;
  end: Date;
}

export interface ProrationFigures {
  /** Milliseconds left of the period, and its whole length. */
  remaining_ms: number;
  period_ms: number;
  /** The unused time of the current plan, taken off the new one. */
  credited_cents: number;
  /** The new plan for the rest of the period. */
  new_plan_cents: number;
  /** (new price - old price) x remaining fraction, rounded half up. */
  prorated_cents: number;
  /** What the card is charged: the prorated figure, or the minimum charge when below it. */
  charged_cents: number;
  minimum_applied: boolean;
  /** Extra credits granted now, for the rest of the current credit month. */
  credits: number;
}

/** a x num / den, rounded half up; all non-negative integers. */
function mulDivRoundHalfUp(a: number, num: number, den: number): number {
  const value = (2n * BigInt(a) * BigInt(num) + BigInt(den)) / (2n * BigInt(den));
  return Number(value);
}

function mulDivFloor(a: number, num: number, den: number): number {
  return Number((BigInt(a) * BigInt(num)) / BigInt(den));
}

function remainingOf(window: Window, now: Date): { remaining: number; length: number } {
  const length = Math.max(0, window.end.getTime() - window.start.getTime());
  const remaining = Math.min(length, Math.max(0, window.end.getTime() - now.getTime()));
  return { remaining, length };
}

/**
 * An upgrade's figures. `period` is the subscription's current billing period; `creditMonth` the
 * month of it in which credits are granted now (the period itself for a monthly plan; see
 * creditMonthOf).
 */
export function prorateUpgrade(input: {
  from: ProrationSide;
  to: ProrationSide;
  period: Window;
  creditMonth?: Window;
  now: Date;
}): ProrationFigures {
  const { from, to, period, now } = input;
  if (to.price_cents < from.price_cents) throw new Error('an upgrade never costs less');
  const { remaining, length } = remainingOf(period, now);
  const prorate = (cents: number) =>
    length === 0 ? 0 : mulDivRoundHalfUp(cents, remaining, length);
  const proratedCents = prorate(to.price_cents - from.price_cents);
  const creditedCents = prorate(from.price_cents);
  const chargedCents = Math.max(proratedCents, MIN_CHARGE_CENTS);

  const month = remainingOf(input.creditMonth ?? period, now);
  const creditGap = Math.max(0, to.credits - from.credits);
  const credits = month.length === 0 ? 0 : mulDivFloor(creditGap, month.remaining, month.length);

  return {
    remaining_ms: remaining,
    period_ms: length,
    credited_cents: creditedCents,
    new_plan_cents: creditedCents + proratedCents,
    prorated_cents: proratedCents,
    charged_cents: chargedCents,
    minimum_applied: chargedCents !== proratedCents,
    credits,
  };
}

/** `date` plus whole calendar months (UTC), the day kept or clamped to the month's last day. */
export function addMonthsUtc(date: Date, months: number): Date {
  const day = date.getUTCDate();
  const target = new Date(date.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

/** Whole calendar months (UTC) from `from`'s month to `to`'s month; days and times ignored. */
function calendarMonthsBetweenUtc(from: Date, to: Date): number {
  return (
    (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth())
  );
}

/**
 * The end of a subscription's billing period that starts at `start`, `months` long. Periods keep
 * to the subscription's anchor (its first period's start), as Stripe's billing cycle anchor does:
 * period k runs from anchor + k x months to anchor + (k + 1) x months, each clamped to the
 * month's last day, so a plan bought on 31 January renews on 28 February, 31 March, 30 April.
 * Adding months to the previous end instead would stay on the 28th for good. k is counted in
 * calendar months, so a start already clamped (28 February) still finds its own period.
 */
export function anchoredPeriodEnd(anchor: Date, start: Date, months: number): Date {
  const k = Math.floor(calendarMonthsBetweenUtc(anchor, start) / months);
  return addMonthsUtc(anchor, (k + 1) * months);
}

/**
 * The credit month of a period that `now` falls in: a monthly period is its own credit month; an
 * annual period grants credits monthly, each month starting on the anchor's day (the
 * subscription's first period's start; see anchoredPeriodEnd), clamped to the month's last day.
 */
export function creditMonthOf(
  period: Window,
  interval: 'monthly' | 'annual',
  now: Date,
  anchor: Date,
): Window {
  if (interval === 'monthly') return period;
  const first = calendarMonthsBetweenUtc(anchor, period.start);
  const monthStart = (month: number) =>
    month === 0 ? period.start : addMonthsUtc(anchor, first + month);
  let months = 0;
  // An annual period has 12 credit months; the last one ends with the period.
  while (months < 11 && monthStart(months + 1).getTime() <= now.getTime()) {
    months += 1;
  }
  const next = monthStart(months + 1);
  return {
    start: monthStart(months),
    end: months === 11 || next.getTime() > period.end.getTime() ? period.end : next,
  };
}
