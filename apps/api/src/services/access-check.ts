import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import { verifyAccessToken, type AccessClaims, type AccessTokenConfig } from './tokens.js';

/**
 * The one check of an access token, for HTTP requests (middleware/auth.ts) and /ws sockets
 * alike: its signature, issuer, audience and expiry, then whether its sign-in was revoked.
 */
export class AccessCheck {
  constructor(
    private readonly config: AccessTokenConfig,
    private readonly revocations: Pick<SessionRevocationsRepository, 'isRevoked' | 'knownRevoked'>,
  ) {}

  /** The token's claims when it is valid and its sign-in still stands; else null. */
  async claims(token: string | null | undefined): Promise<AccessClaims | null> {
    return this.check(token);
  }

  /**
   * The same check, answered at once when memory decides it (a verified token, revocations in
   * memory and trusted: nearly every request), and as a promise only when Redis must be asked.
   * Every authenticated request runs it: awaiting an answer already known cost each one three
   * promises and their turns of the event loop.
   */
  check(token: string | null | undefined): AccessClaims | null | Promise<AccessClaims | null> {
    const claims = token ? verifyAccessToken(this.config, token) : null;
    if (!claims) return null;
    const revoked = this.revocations.knownRevoked(claims.sessionId);
    if (revoked === undefined) {
      return this.revocations.isRevoked(claims.sessionId).then((later) => (later ? null : claims));
    }
    return revoked ? null : claims;
  }
}
