import { describe, expect, it } from 'vitest';
import {
  addMonthsUtc,
  creditMonthOf,
  MIN_CHARGE_CENTS,
  prorateUpgrade,
  type ProrationSide,
} from './proration.js';

const DAY = 24 * 60 * 60 * 1000;
const STARTER: ProrationSide = { price_cents: 999, credits: 4 };
const PROFESSIONAL: ProrationSide = { price_cents: 1999, credits: 8 };
const PREMIUM: ProrationSide = { price_cents: 3999, credits: 16 };
const start = new Date('2026-11-01T00:00:00Z');
const month = { start, end: new Date(start.getTime() + 30 * DAY) };
const at = (days: number) => new Date(start.getTime() + days * DAY);

describe('prorateUpgrade', () => {
  it('at the very start of the period charges the whole difference and every extra credit', () => {
    const figures = prorateUpgrade({ from: STARTER, to: PROFESSIONAL, period: month, now: start });
    expect(figures).toMatchObject({
      credited_cents: 999,
      new_plan_cents: 1999,
      prorated_cents: 1000,
      charged_cents: 1000,
      minimum_applied: false,
      credits: 4,
    });
  });

  it('half way charges half the difference, rounded half up, and half the extra credits', () => {
    const figures = prorateUpgrade({ from: STARTER, to: PROFESSIONAL, period: month, now: at(15) });
    // (1999 - 999) x 1/2 = 500; unused Starter 999 x 1/2 = 499.5 -> 500.
    expect(figures).toMatchObject({
      remaining_ms: 15 * DAY,
      period_ms: 30 * DAY,
      prorated_cents: 500,
      credited_cents: 500,
      new_plan_cents: 1000,
      charged_cents: 500,
      credits: 2,
    });
  });

  it('rounds each figure from the exact fraction and the lines always add up', () => {
    // 10 days of 30 left: (3999 - 999) / 3 = 1000; 999 / 3 = 333.
    const third = prorateUpgrade({ from: STARTER, to: PREMIUM, period: month, now: at(20) });
    expect([third.prorated_cents, third.credited_cents, third.new_plan_cents]).toEqual([
      1000, 333, 1333,
    ]);
    // 1 day left: 2000 / 30 = 66.67 -> 67; 1999 / 30 = 66.63 -> 67; 12 credits / 30 -> 0.
    const lastDay = prorateUpgrade({ from: PROFESSIONAL, to: PREMIUM, period: month, now: at(29) });
    expect(lastDay).toMatchObject({ prorated_cents: 67, credited_cents: 67, credits: 0 });
    for (let minute = 0; minute <= 30 * 24 * 60; minute += 997) {
      const f = prorateUpgrade({
        from: STARTER,
        to: PREMIUM,
        period: month,
        now: new Date(start.getTime() + minute * 60_000),
      });
      expect(f.new_plan_cents - f.credited_cents).toBe(f.prorated_cents);
      expect(f.prorated_cents).toBeLessThanOrEqual(3000);
      expect(f.credits).toBeLessThanOrEqual(12);
    }
  });

  it('at (and past) the end of the period the minimum charge applies and no credit is granted', () => {
    for (const now of [month.end, at(31)]) {
      const figures = prorateUpgrade({ from: STARTER, to: PREMIUM, period: month, now });
      expect(figures).toMatchObject({
        remaining_ms: 0,
        prorated_cents: 0,
        credited_cents: 0,
        charged_cents: MIN_CHARGE_CENTS,
        minimum_applied: true,
        credits: 0,
      });
    }
  });

  it('before the period starts counts the whole period', () => {
    const figures = prorateUpgrade({ from: STARTER, to: PREMIUM, period: month, now: at(-1) });
    expect(figures.prorated_cents).toBe(3000);
  });

  it('refuses a move to a cheaper plan', () => {
    expect(() =>
      prorateUpgrade({ from: PREMIUM, to: STARTER, period: month, now: start }),
    ).toThrow();
  });

  it('an annual period prorates the annual prices over the year, credits over the credit month', () => {
    const year = { start, end: addMonthsUtc(start, 12) };
    const annual = (side: ProrationSide) => ({ ...side, price_cents: side.price_cents * 10 });
    // 2027-05-01 is 181 of the year's 365 days in: 184 days left.
    const now = new Date('2027-05-01T00:00:00Z');
    const figures = prorateUpgrade({
      from: annual(STARTER),
      to: annual(PROFESSIONAL),
      period: year,
      creditMonth: creditMonthOf(year, 'annual', now, start),
      now,
    });
    // (19990 - 9990) x 184/365 = 5041.09 -> 5041; 9990 x 184/365 = 5036.05 -> 5036.
    expect(figures).toMatchObject({ prorated_cents: 5041, credited_cents: 5036 });
    // The first day of a credit month: the whole monthly difference (8 - 4).
    expect(figures.credits).toBe(4);
    const midMonth = new Date('2027-05-16T12:00:00Z');
    expect(
      prorateUpgrade({
        from: annual(STARTER),
        to: annual(PROFESSIONAL),
        period: year,
        creditMonth: creditMonthOf(year, 'annual', midMonth, start),
        now: midMonth,
      }).credits,
    ).toBe(2);
  });
});

describe('credit months', () => {
  it('a monthly period is its own credit month', () => {
    expect(creditMonthOf(month, 'monthly', at(10), start)).toEqual(month);
  });

  it('an annual period has twelve calendar months from its start day, the last ending with it', () => {
    const jan31 = new Date('2027-01-31T09:00:00Z');
    const year = { start: jan31, end: addMonthsUtc(jan31, 12) };
    expect(creditMonthOf(year, 'annual', new Date('2027-02-10T00:00:00Z'), jan31)).toEqual({
      start: jan31,
      end: new Date('2027-02-28T09:00:00Z'),
    });
    expect(creditMonthOf(year, 'annual', new Date('2027-03-01T00:00:00Z'), jan31)).toEqual({
      start: new Date('2027-02-28T09:00:00Z'),
      end: new Date('2027-03-31T09:00:00Z'),
    });
    expect(creditMonthOf(year, 'annual', new Date('2028-01-30T00:00:00Z'), jan31)).toEqual({
      start: new Date('2027-12-31T09:00:00Z'),
      end: year.end,
    });
  });

  it('adds calendar months in UTC, clamping to the last day', () => {
    expect(addMonthsUtc(new Date('2027-01-31T00:00:00Z'), 1).toISOString()).toBe(
      '2027-02-28T00:00:00.000Z',
    );
    expect(addMonthsUtc(new Date('2028-01-31T00:00:00Z'), 1).toISOString()).toBe(
      '2028-02-29T00:00:00.000Z',
    );
    expect(addMonthsUtc(new Date('2027-11-15T00:00:00Z'), 3).toISOString()).toBe(
      '2028-02-15T00:00:00.000Z',
    );
  });
});
