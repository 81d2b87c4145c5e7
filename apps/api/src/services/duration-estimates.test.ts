import { describe, expect, it } from 'vitest';
import { waitSeconds } from './duration-estimates.js';

describe('waitSeconds', () => {
  it('shares the tasks ahead among the connected workers', () => {
    expect(waitSeconds(0, null, 1)).toBe(0);
    expect(waitSeconds(3, 20, 2)).toBe(30);
    expect(waitSeconds(3, null, 2)).toBeNull();
  });

  it('with no worker: nothing for a kind that never scales to zero', () => {
    expect(waitSeconds(0, 20, 0)).toBeNull();
    expect(waitSeconds(2, 20, 0, null)).toBeNull();
  });

  it("with no worker on a kind that scales to zero: the first worker's start, then the tasks ahead on it", () => {
    expect(waitSeconds(0, null, 0, 60)).toBe(60);
    expect(waitSeconds(2, 20, 0, 60)).toBe(100);
    expect(waitSeconds(2, null, 0, 60)).toBeNull();
    // A worker up: its start is behind it.
    expect(waitSeconds(2, 20, 1, 60)).toBe(40);
  });
});
