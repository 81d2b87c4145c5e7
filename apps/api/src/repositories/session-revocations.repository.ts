import type { Redis } from 'ioredis';

/**
 * Revoked sign-in sessions, kept in Redis for as long as an access token can live, so logout and
 * token-reuse revocation also stop access tokens already issued. Every authenticated request asks,
 * so each process also keeps the set in memory, fed by a Redis channel on which every revocation
 * is announced (and loaded in full whenever the subscription (re)starts). While the subscription
 * is down, the check goes to Redis itself.
 */
export class SessionRevocationsRepository {
  private readonly local = new Map<string, number>();
  private readonly listeners = new Set<(sessionId: string) => void>();
  private subscriber: Redis | undefined;
  private live = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  private key(sessionId: string): string {
    return `${this.prefix}revoked-session:${sessionId}`;
  }

  private get channel(): string {
    return `${this.prefix}revoked-sessions`;
  }

  /** Subscribes to revocations; resolves once the local set is complete. */
  async start(): Promise<void> {
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, sessionId: string) => this.remember(sessionId));
    // A gap in the subscription may have missed announcements: fall back to Redis until reloaded.
    subscriber.on('close', () => {
      this.live = false;
    });
    subscriber.on('ready', () => {
      this.reload().catch(() => undefined);
    });
    subscriber.on('error', () => undefined);
    await subscriber.subscribe(this.channel);
    await this.reload();
  }

  async revoke(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const id of sessionIds) {
      pipeline.set(this.key(id), '1', 'EX', this.ttlSeconds);
      pipeline.publish(this.channel, id);
      this.remember(id);
    }
    await pipeline.exec();
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    const until = this.local.get(sessionId);
    if (until !== undefined && until > Date.now()) return true;
    if (this.live) return false;
    return (await this.redis.exists(this.key(sessionId))) === 1;
  }

  /** Calls `listener` with each newly revoked session (here or in another process); unsubscribes. */
  onRevoked(listener: (sessionId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.live = false;
    await this.subscriber?.quit().catch(() => undefined);
  }

  private remember(sessionId: string): void {
    const known = this.local.has(sessionId);
    this.local.set(sessionId, Date.now() + this.ttlSeconds * 1000);
    if (!known) for (const listener of this.listeners) listener(sessionId);
  }

  private async reload(): Promise<void> {
    this.live = false;
    const now = Date.now();
    for (const [id, until] of this.local) if (until <= now) this.local.delete(id);
    const pattern = `${this.key('')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) this.remember(key.slice(pattern.length - 1));
    } while (cursor !== '0');
    this.live = this.subscriber?.status === 'ready';
  }
}
