import { createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export interface AccessTokenConfig {
  secret: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

// jsonwebtoken probes a string secret with createPublicKey (which throws) on every call; a
// ready KeyObject skips that and was most of the profile endpoint's CPU time.
const keys = new WeakMap<AccessTokenConfig, KeyObject>();
function keyOf(config: AccessTokenConfig): KeyObject {
  let key = keys.get(config);
  if (!key) {
    key = createSecretKey(Buffer.from(config.secret, 'utf8'));
    keys.set(config, key);
  }
  return key;
}

export interface AccessClaims {
  userId: string;
  sessionId: string;
  expiresAt: number;
}

export function signAccessToken(
  config: AccessTokenConfig,
  userId: string,
  sessionId: string,
): string {
  return jwt.sign({ sid: sessionId }, keyOf(config), {
    algorithm: 'HS256',
    expiresIn: config.ttlSeconds,
    issuer: config.issuer,
    audience: config.audience,
    subject: userId,
  });
}

/** Verifies signature (HS256 only: alg=none and algorithm swaps fail), expiry, issuer, audience. */
export function verifyAccessToken(config: AccessTokenConfig, token: string): AccessClaims | null {
  try {
    const payload = jwt.verify(token, keyOf(config), {
      algorithms: ['HS256'],
      issuer: config.issuer,
      audience: config.audience,
    });
    if (typeof payload === 'string') return null;
    const { sub, sid, exp } = payload as { sub?: unknown; sid?: unknown; exp?: unknown };
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') return null;
    return { userId: sub, sessionId: sid, expiresAt: exp };
  } catch {
    return null;
  }
}

/** Opaque token with 256 bits of randomness. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
