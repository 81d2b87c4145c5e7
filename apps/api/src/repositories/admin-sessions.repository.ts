import type { Redis } from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';

/** Who opened an admin session: the user and the sign-in it was minted from. */
export interface AdminSessionHolder {
  userId: string;
  sessionId: string;
}

/**
 * The queue console's sessions, kept in Redis by the hash of their cookie's value (a dump of
 * Redis yields no usable cookie), each expiring on its own. Ending one deletes it.
 */
export class AdminSessionsRepository {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(token: string): string {
    return `${this.prefix}admin-session:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
  }

  /** A fresh session's cookie value. */
  async open(holder: AdminSessionHolder, ttlSeconds: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(token), JSON.stringify(holder), 'EX', ttlSeconds);
    return token;
  }

  async find(token: string): Promise<AdminSessionHolder | undefined> {
    const value = await this.redis.get(this.key(token));
    if (!value) return undefined;
    const holder = JSON.parse(value) as Partial<AdminSessionHolder>;
    return typeof holder.userId === 'string' && typeof holder.sessionId === 'string'
      ? { userId: holder.userId, sessionId: holder.sessionId }
      : undefined;
  }

  async end(token: string): Promise<void> {
    await this.redis.del(this.key(token));
  }
}
