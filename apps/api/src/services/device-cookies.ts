import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a browser stays a known device of an account after its latest sign-in there. */
export const DEVICE_COOKIE_TTL_DAYS = 180;
const TTL_MS = DEVICE_COOKIE_TTL_DAYS * 86_400_000;

export interface DeviceCookie {
  name: string;
  value: string;
  maxAgeMs: number;
  deviceId: string;
}

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): after a
 * successful sign-in the browser gets a cookie naming the account and a random device id, signed
 * by the server. A sign-in that presents a valid one for its account comes from a device the
 * owner has used, so the soft per-account limit that strangers can run up never stops it.
 * One cookie per account (the name is derived from the account), so a shared browser keeps all.
 */
export class DeviceCookies {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cookie name for an account: stable, and saying nothing about the account. */
  nameFor(userId: string): string {
    return `ss_device_${this.mac(`name:${userId}`).slice(0, 16)}`;
  }

  /** A fresh cookie for a device (a new device id unless the device was already known). */
  issue(userId: string, deviceId: string = randomBytes(16).toString('base64url')): DeviceCookie {
    const issuedAt = Math.floor(this.now() / 1000);
    const payload = `${deviceId}.${issuedAt}`;
    return {
      name: this.nameFor(userId),
      value: `${payload}.${this.mac(`device:${userId}.${payload}`)}`,
      maxAgeMs: TTL_MS,
      deviceId,
    };
  }

  /** The device id of a valid, unexpired cookie issued for this account; null otherwise. */
  verify(userId: string, value: string | undefined): string | null {
    if (!value) return null;
    const parts = value.split('.');
    if (parts.length !== 3) return null;
    const [deviceId = '', issuedAt = '', signature = ''] = parts;
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(deviceId) || !/^\d{1,12}$/.test(issuedAt)) return null;
    const expected = Buffer.from(this.mac(`device:${userId}.${deviceId}.${issuedAt}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const age = this.now() - Number(issuedAt) * 1000;
    if (age < -60_000 || age > TTL_MS) return null;
    return deviceId;
  }

  private mac(text: string): string {
    return createHmac('sha256', this.secret).update(text, 'utf8').digest('base64url');
  }
}

/** The cookies of a request's Cookie header (the first of a repeated name wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2)
      value = value.slice(1, -1);
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}
