import { describe, expect, it } from 'vitest';
import { tierRank } from './index.js';

describe('tierRank', () => {
  it('orders the plans free < starter < professional < premium', () => {
    expect(tierRank('free')).toBeLessThan(tierRank('starter'));
    expect(tierRank('starter')).toBeLessThan(tierRank('professional'));
    expect(tierRank('professional')).toBeLessThan(tierRank('premium'));
  });
});
