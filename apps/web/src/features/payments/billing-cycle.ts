import {
  ANNUAL_PRICE_MONTHS,
  BILLING_CYCLE_MONTHS,
  planPeriodPriceCents,
  type BillingCycle,
} from './catalogue';

/** The figures a plan is sold at on one billing cycle, all from the catalogue's rule. */
export interface CycleFigures {
  cycle: BillingCycle;
  /** What one billing period costs: a month, or a year. */
  periodCents: number;
  /** The period's price spread over its months, to the nearest cent. */
  perMonthCents: number;
  /** What the period saves against paying monthly for as long. */
  savedCents: number;
}

export function cycleFigures(monthlyCents: number, cycle: BillingCycle): CycleFigures {
  const periodCents = planPeriodPriceCents({ price_cents: monthlyCents }, cycle);
  const months = BILLING_CYCLE_MONTHS[cycle];
  return {
    cycle,
    periodCents,
    perMonthCents: Math.round(periodCents / months),
    savedCents: monthlyCents * months - periodCents,
  };
}

/** Months of an annual plan that are not charged for. */
export const ANNUAL_MONTHS_FREE = BILLING_CYCLE_MONTHS.annual - ANNUAL_PRICE_MONTHS;

const NUMBER_WORDS = [
  'no',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

/** 'two months free', worded from the catalogue's annual rule. */
export function monthsFreeText(months: number = ANNUAL_MONTHS_FREE): string {
  const count = NUMBER_WORDS[months] ?? String(months);
  return `${count} ${months === 1 ? 'month' : 'months'} free`;
}

/** The unit a period's price is quoted in: '/month' or '/year'. */
export function perPeriod(cycle: BillingCycle): string {
  return cycle === 'annual' ? '/year' : '/month';
}
