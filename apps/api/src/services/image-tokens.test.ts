import { describe, expect, it } from 'vitest';
import { ImageTokens } from './image-tokens.js';

const tokens = new ImageTokens('secret-for-images', 3600);
const t0 = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('image tokens', () => {
  it('open exactly the image they were signed for, until they expire', () => {
    const token = tokens.sign('photo-1', t0);
    expect(tokens.verify('photo-1', token, t0)).toBe(true);
    expect(tokens.verify('photo-2', token, t0)).toBe(false);
    expect(tokens.verify('photo-1', token, t0 + 3600_000)).toBe(true);
    expect(tokens.verify('photo-1', token, t0 + 3600_000 + 900_000 + 1000)).toBe(false);
  });

  it('refuse forged, altered and foreign tokens', () => {
    const token = tokens.sign('photo-1', t0);
    const [expiry, mac] = token.split('.');
    expect(tokens.verify('photo-1', `${Number(expiry) + 3600}.${mac}`, t0)).toBe(false);
    expect(tokens.verify('photo-1', `${expiry}.${mac!.slice(0, -2)}xx`, t0)).toBe(false);
    expect(tokens.verify('photo-1', new ImageTokens('other-secret').sign('photo-1', t0), t0)).toBe(
      false,
    );
    expect(tokens.verify('photo-1', 'garbage', t0)).toBe(false);
  });

  it('expire exactly on time when not rounded (download links)', () => {
    const links = new ImageTokens('secret-for-links', 900, 1);
    const token = links.sign('export-1', t0);
    expect(links.expiryOf(t0)).toBe(t0 / 1000 + 900);
    expect(links.verify('export-1', token, t0 + 900_000)).toBe(true);
    expect(links.verify('export-1', token, t0 + 901_000)).toBe(false);
  });

  it('keep one address for a while, so polling pages reuse cached thumbnails', () => {
    expect(tokens.sign('photo-1', t0 + 1000)).toBe(tokens.sign('photo-1', t0 + 60_000));
  });
});
