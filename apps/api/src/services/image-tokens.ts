import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Image addresses carry a short-lived token signed for that one image (never the access token),
 * so <img src> works without exposing a session: `${id}.${expiry}.${mac}`.
 */
export class ImageTokens {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds = 3600,
  ) {}

  sign(imageId: string, now = Date.now()): string {
    // Rounded up to a 15-minute boundary: the same image keeps the same address for a while, so
    // a page that polls does not make the browser download it again every time.
    const expiry = Math.ceil((Math.floor(now / 1000) + this.ttlSeconds) / 900) * 900;
    return `${expiry}.${this.mac(imageId, expiry)}`;
  }

  verify(imageId: string, token: string, now = Date.now()): boolean {
    const [expiryText, mac] = token.split('.');
    const expiry = Number(expiryText);
    if (!mac || !Number.isInteger(expiry) || expiry < Math.floor(now / 1000)) return false;
    const expected = Buffer.from(this.mac(imageId, expiry));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private mac(imageId: string, expiry: number): string {
    return createHmac('sha256', this.secret)
      .update(`image:${imageId}:${expiry}`)
      .digest('base64url');
  }
}
