import { describe, expect, it } from 'vitest';
import { lowCreditLevel } from './low-credit';

describe('low-credit banner levels', () => {
  it.each([
    [0, 'Out of Credits!', 'Buy Credits Now'],
    [null, 'Out of Credits!', 'Buy Credits Now'],
    [1, 'Almost Out of Credits!', 'Get More Credits'],
    [2, 'Almost Out of Credits!', 'Get More Credits'],
    [3, 'Running Low on Credits', 'View Credit Packages'],
    [5, 'Running Low on Credits', 'View Credit Packages'],
  ])('%s credits: %s', (credits, title, action) => {
    expect(lowCreditLevel(credits)).toMatchObject({ title, action });
  });

  it('is not shown above 5 credits', () => {
    expect(lowCreditLevel(6)).toBeNull();
    expect(lowCreditLevel(350)).toBeNull();
  });
});
