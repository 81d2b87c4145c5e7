import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Image addresses carry a short-lived token signed for that one image (never the access token),
 * so <img src> works without exposing a session: `${id}.${expiry}.${mac}`.
 */
export class ImageTokens {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds = 3600,
    /**
     * Expiries are rounded up to this many seconds: with 15 minutes, the same image keeps the
     * same address for a while, so a page that polls does not make the browser download it again
     * every time. 1 gives exactly `ttlSeconds` (a download link).
     */
    private readonly roundToSeconds = 900,
  ) {}

  sign(imageId: string, now = Date.now()): string {
    const expiry = this.expiryOf(now);
    return `${expiry}.${this.mac(imageId, expiry)}`;
  }

  /** When a token signed at `now` stops working, in seconds since the epoch. */
  expiryOf(now = Date.now()): number {
    const round = this.roundToSeconds;
    return Math.ceil((Math.floor(now / 1000) + this.ttlSeconds) / round) * round;
  }

  /** The longest a token can live, in seconds (its lifetime and the rounding up). */
  get maxLifetimeSeconds(): number {
    return this.ttlSeconds + this.roundToSeconds;
  }

  verify(imageId: string, token: string, now = Date.now()): boolean {
    return this.expiryIfValid(imageId, token, now) !== undefined;
  }

  /** When the token stops working (seconds since the epoch), if it is valid for this image now. */
  expiryIfValid(imageId: string, token: string, now = Date.now()): number | undefined {
    const [expiryText, mac] = token.split('.');
    const expiry = Number(expiryText);
    if (!mac || !Number.isInteger(expiry) || expiry < Math.floor(now / 1000)) return undefined;
    const expected = Buffer.from(this.mac(imageId, expiry));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given)
      ? expiry
      : undefined;
  }

  private mac(imageId: string, expiry: number): string {
    return createHmac('sha256', this.secret)
      .update(`image:${imageId}:${expiry}`)
      .digest('base64url');
  }
}
