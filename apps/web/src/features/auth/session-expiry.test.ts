import { describe, expect, it } from 'vitest';
import { tokenExpiry } from '../../lib/jwt';
import { expiryAction } from './session-expiry';

const jwtWith = (claims: object) =>
  `header.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.sig`;

describe('session expiry', () => {
  it('warns at 5 minutes, refreshes at 2, logs out at 0', () => {
    expect(expiryAction(null)).toBe('none');
    expect(expiryAction(301)).toBe('none');
    expect(expiryAction(300)).toBe('warn');
    expect(expiryAction(121)).toBe('warn');
    expect(expiryAction(120)).toBe('refresh');
    expect(expiryAction(1)).toBe('refresh');
    expect(expiryAction(0)).toBe('logout');
    expect(expiryAction(-30)).toBe('logout');
  });

  it('reads exp from the access token', () => {
    expect(tokenExpiry(jwtWith({ sub: 'u', exp: 1_900_000_000 }))).toBe(1_900_000_000);
    expect(tokenExpiry(jwtWith({ sub: 'ü-user?>>', exp: 5 }))).toBe(5);
    expect(tokenExpiry(jwtWith({ sub: 'u' }))).toBeNull();
    expect(tokenExpiry('not-a-jwt')).toBeNull();
    expect(tokenExpiry(null)).toBeNull();
  });
});
