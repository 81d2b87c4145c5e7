import { describe, expect, it } from 'vitest';
import { templateCategory } from './index.js';

describe('templateCategory', () => {
  it('follows the spec numbering', () => {
    expect(templateCategory(1)).toBe('professional');
    expect(templateCategory(20)).toBe('professional');
    expect(templateCategory(21)).toBe('executive');
    expect(templateCategory(40)).toBe('executive');
    expect(templateCategory(41)).toBe('creative');
    expect(templateCategory(60)).toBe('creative');
  });
  it('rejects indexes outside 1..60', () => {
    expect(() => templateCategory(0)).toThrow(RangeError);
    expect(() => templateCategory(61)).toThrow(RangeError);
  });
});
