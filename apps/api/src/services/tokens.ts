import { createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';

export interface AccessTokenConfig {
  secret: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

interface Verifier {
  /** jsonwebtoken probes a string secret with createPublicKey (which throws) on every call; a
   *  ready KeyObject skips that, and that probe was most of the profile endpoint's CPU time. */
  key: KeyObject;
  /** Tokens that already passed verification with this configuration, until they expire: every
   *  request of a session carries the same token. Revocation is still checked on every request. */
  verified: LRUCache<string, AccessClaims>;
}
const verifiers = new WeakMap<AccessTokenConfig, Verifier>();
function verifierOf(config: AccessTokenConfig): Verifier {
  let verifier = verifiers.get(config);
  if (!verifier) {
    verifier = {
      key: createSecretKey(Buffer.from(config.secret, 'utf8')),
      verified: new LRUCache({ max: 20_000 }),
    };
    verifiers.set(config, verifier);
  }
  return verifier;
}
const keyOf = (config: AccessTokenConfig) => verifierOf(config).key;

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
  const { verified } = verifierOf(config);
  const known = verified.get(token);
  if (known && known.expiresAt * 1000 > Date.now()) return known;
  const claims = verifyUncached(config, token);
  if (claims)
    verified.set(token, claims, { ttl: Math.max(1, claims.expiresAt * 1000 - Date.now()) });
  return claims;
}

function verifyUncached(config: AccessTokenConfig, token: string): AccessClaims | null {
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
