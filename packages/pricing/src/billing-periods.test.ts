import { describe, expect, it } from 'vitest';
import { BILLING_CYCLE_MONTHS } from './index.js';
import { anchoredPeriodEnd, creditMonthOf } from './proration.js';

const utc = (iso: string) => new Date(`${iso}T09:30:00.000Z`);
const day = (date: Date) => date.toISOString().slice(0, 10);

/** The starts of `count` periods, each starting where the one before ended. */
function periodStarts(anchor: Date, months: number, count: number): string[] {
  const starts = [anchor];
  while (starts.length < count)
    starts.push(anchoredPeriodEnd(anchor, starts[starts.length - 1]!, months));
  return starts.map(day);
}

describe('anchored billing periods', () => {
  it('a monthly plan bought on 31 January keeps to the 31st, clamped to shorter months', () => {
    expect(periodStarts(utc('2027-01-31'), BILLING_CYCLE_MONTHS.monthly, 15)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
      // A leap year's February.
      '2028-02-29',
      '2028-03-31',
    ]);
  });

  it('a plan bought on the 30th comes back to the 30th after February', () => {
    expect(periodStarts(utc('2027-01-30'), 1, 5)).toEqual([
      '2027-01-30',
      '2027-02-28',
      '2027-03-30',
      '2027-04-30',
      '2027-05-30',
    ]);
  });

  it('keeps the time of day of the anchor', () => {
    const anchor = utc('2027-01-31');
    expect(anchoredPeriodEnd(anchor, utc('2027-02-28'), 1).toISOString()).toBe(
      '2027-03-31T09:30:00.000Z',
    );
  });

  it('an annual plan bought on 29 February ends on 28 February, and is back on the 29th in a leap year', () => {
    expect(periodStarts(utc('2028-02-29'), BILLING_CYCLE_MONTHS.annual, 5)).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
  });

  it("a period that started on a clamped day before anchoring ends on the anchor's day", () => {
    // Stored when each period was one month after the previous end: 31 Jan, 28 Feb, 28 Mar.
    expect(day(anchoredPeriodEnd(utc('2027-01-31'), utc('2027-03-28'), 1))).toBe('2027-04-30');
  });
});

describe('anchored credit months', () => {
  const anchor = utc('2028-02-29');
  /** Every credit month of an annual period, found as the renewal job does: from each end. */
  function creditMonths(periodStart: Date): string[][] {
    const period = { start: periodStart, end: anchoredPeriodEnd(anchor, periodStart, 12) };
    const months = [creditMonthOf(period, 'annual', period.start, anchor)];
    while (months[months.length - 1]!.end < period.end)
      months.push(creditMonthOf(period, 'annual', months[months.length - 1]!.end, anchor));
    return months.map((month) => [day(month.start), day(month.end)]);
  }

  it("an annual plan from 29 February grants credits on the 29th, or February's last day", () => {
    const first = creditMonths(anchor);
    expect(first).toHaveLength(12);
    expect(first.slice(0, 2)).toEqual([
      ['2028-02-29', '2028-03-29'],
      ['2028-03-29', '2028-04-29'],
    ]);
    expect(first[11]).toEqual(['2029-01-29', '2029-02-28']);

    // The second year starts on 28 February, yet its credit months are on the 29th again.
    const second = creditMonths(utc('2029-02-28'));
    expect(second).toHaveLength(12);
    expect(second.slice(0, 2)).toEqual([
      ['2029-02-28', '2029-03-29'],
      ['2029-03-29', '2029-04-29'],
    ]);
    expect(second[11]).toEqual(['2030-01-29', '2030-02-28']);
  });

  it('a monthly period is its own credit month', () => {
    const period = { start: utc('2027-02-28'), end: utc('2027-03-31') };
    expect(creditMonthOf(period, 'monthly', utc('2027-03-10'), utc('2027-01-31'))).toEqual(period);
  });

  it('the month `now` falls in, mid-month', () => {
    const period = { start: utc('2029-02-28'), end: utc('2030-02-28') };
    expect(creditMonthOf(period, 'annual', utc('2029-07-01'), anchor)).toEqual({
      start: utc('2029-06-29'),
      end: utc('2029-07-29'),
    });
  });
});
