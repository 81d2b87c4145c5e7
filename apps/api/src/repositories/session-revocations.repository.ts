import type { Redis } from 'ioredis';

/**
 * Revoked sign-in sessions, kept in Redis for as long as an access token can live, so that
 * logout and token-reuse revocation also stop access tokens that were already issued.
 */
export class SessionRevocationsRepository {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  private key(sessionId: string): string {
    return `${this.prefix}revoked-session:${sessionId}`;
  }

  async revoke(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const id of sessionIds) pipeline.set(this.key(id), '1', 'EX', this.ttlSeconds);
    await pipeline.exec();
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    return (await this.redis.exists(this.key(sessionId))) === 1;
  }
}
