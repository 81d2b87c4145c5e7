import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDateTime } from './format';

describe('settings formatting', () => {
  it('writes dates with the time, in the given zone', () => {
    expect(formatDateTime('2026-11-25T14:05:00.000Z', 'UTC')).toBe('25 Nov 2026, 14:05');
    expect(formatDateTime('not a date')).toBe('not a date');
  });

  it('writes days without the time, in the given zone', () => {
    expect(formatDate('2026-11-25T23:30:00.000Z', 'UTC')).toBe('25 Nov 2026');
    expect(formatDate('2026-11-25T23:30:00.000Z', 'Asia/Tokyo')).toBe('26 Nov 2026');
    expect(formatDate('not a date')).toBe('not a date');
  });

  it('writes sizes in the largest unit that keeps a number above one', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(14.2 * 1024 * 1024)).toBe('14 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB');
  });
});
