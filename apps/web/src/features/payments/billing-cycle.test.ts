import { describe, expect, it } from 'vitest';
import { ANNUAL_MONTHS_FREE, cycleFigures, monthsFreeText, perPeriod } from './billing-cycle';
import { PLANS } from './catalogue';

describe('billing cycle figures', () => {
  it('a month is the plan price, nothing saved', () => {
    expect(cycleFigures(1999, 'monthly')).toEqual({
      cycle: 'monthly',
      periodCents: 1999,
      perMonthCents: 1999,
      savedCents: 0,
    });
  });

  it('a year is ten months of the price: per month to the cent, two months saved', () => {
    expect(PLANS.map((plan) => cycleFigures(plan.price_cents, 'annual'))).toEqual([
      { cycle: 'annual', periodCents: 9990, perMonthCents: 833, savedCents: 1998 },
      { cycle: 'annual', periodCents: 19990, perMonthCents: 1666, savedCents: 3998 },
      { cycle: 'annual', periodCents: 39990, perMonthCents: 3333, savedCents: 7998 },
    ]);
  });

  it('words the free months from the catalogue rule', () => {
    expect(ANNUAL_MONTHS_FREE).toBe(2);
    expect(monthsFreeText()).toBe('two months free');
    expect(monthsFreeText(1)).toBe('one month free');
    expect(monthsFreeText(13)).toBe('13 months free');
    expect(perPeriod('monthly')).toBe('/month');
    expect(perPeriod('annual')).toBe('/year');
  });
});
