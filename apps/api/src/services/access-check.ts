import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import { verifyAccessToken, type AccessClaims, type AccessTokenConfig } from './tokens.js';

/**
 * The one check of an access token, for HTTP requests (middleware/auth.ts) and /ws sockets
 * alike: its signature, issuer, audience and expiry, then whether its sign-in was revoked.
 */
export class AccessCheck {
  constructor(
    private readonly config: AccessTokenConfig,
    private readonly revocations: Pick<SessionRevocationsRepository, 'isRevoked'>,
  ) {}

  /** The token's claims when it is valid and its sign-in still stands; else null. */
  async claims(token: string | null | undefined): Promise<AccessClaims | null> {
    const claims = token ? verifyAccessToken(this.config, token) : null;
    if (!claims || (await this.revocations.isRevoked(claims.sessionId))) return null;
    return claims;
  }
}
