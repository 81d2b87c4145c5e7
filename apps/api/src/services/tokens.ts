import { createHash, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';

export interface AccessTokenConfig {
  secret: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
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
  return jwt.sign({ sid: sessionId }, config.secret, {
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
    const payload = jwt.verify(token, config.secret, {
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
