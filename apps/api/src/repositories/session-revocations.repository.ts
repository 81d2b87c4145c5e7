import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

/** How long a process may answer from its own copy after its subscription last proved current. */
const LEASE_MS = 1_000;
/** How often a process proves its subscription current (several times per lease). */
const PING_MS = 250;

/** Registers ARGV[1] in the listeners (KEYS[1]) until ARGV[2] ms from now, by Redis's clock. */
const REGISTER = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 0`;

/** The listeners (KEYS[1]) still registered, each with the ms its registration has left. */
const REGISTERED = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local found = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'WITHSCORES')
for i = 2, #found, 2 do found[i] = tostring(tonumber(found[i]) - now) end
return found`;

/**
 * Revoked sign-in sessions, kept in Redis for as long as an access token can live, so logout and
 * token-reuse revocation also stop access tokens already issued.
 *
 * Every authenticated request asks, so each process keeps the set in memory, fed by a Redis
 * channel on which every revocation is announced. A revocation is only done when every process
 * answering from memory has it: each process acknowledges every announcement, and `revoke`
 * resolves once each listening process has acknowledged, so a request that starts after logout
 * answered is refused by every process.
 *
 * Which processes listen, and for how long their memory may be trusted, is settled by a lease:
 * a few times a second each process registers itself in Redis for LEASE_MS (by Redis's clock)
 * and publishes a ping
 * on its subscription's connection. Redis delivers a connection's messages in the order it
 * received them, so when a process reads its own ping back it has read every announcement made
 * before that ping; it then trusts its memory until LEASE_MS after it sent the ping, which is no
 * later than its registration expires. `revoke` waits for the acknowledgement of each registered
 * process, or for its registration to expire: a process cut off from Redis (whose pings no longer
 * come back) has by then stopped trusting its memory and asks Redis itself.
 */
export class SessionRevocationsRepository {
  private readonly local = new Map<string, number>();
  private readonly listeners = new Set<(sessionId: string) => void>();
  private readonly processId = randomUUID();
  /** Pings sent and not yet read back: sequence number -> when it was sent. */
  private readonly pings = new Map<number, number>();
  /** Announcements being waited on: session id -> the processes that acknowledged it. */
  private readonly awaiting = new Map<string, { acked: Set<string>; changed: () => void }[]>();
  private subscriber: Redis | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private sequence = 0;
  private live = false;
  private trustedUntil = 0;

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

  private get ackChannel(): string {
    return `${this.prefix}revoked-sessions:acks`;
  }

  private get pingChannel(): string {
    return `${this.prefix}revoked-sessions:pings`;
  }

  private get listenersKey(): string {
    return `${this.prefix}revocation-listeners`;
  }

  /** Subscribes to revocations; resolves once the local set is complete. */
  async start(): Promise<void> {
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, message: string) => this.received(channel, message));
    // A gap in the subscription may have missed announcements: ask Redis until reloaded.
    subscriber.on('close', () => {
      this.live = false;
      this.trustedUntil = 0;
    });
    subscriber.on('ready', () => {
      this.reload().catch(() => undefined);
    });
    subscriber.on('error', () => undefined);
    await subscriber.subscribe(this.channel, this.ackChannel, this.pingChannel);
    await this.reload();
    this.pingTimer = setInterval(() => this.ping(), PING_MS).unref();
  }

  /** Revokes the sessions; resolves once every process answering from memory refuses them. */
  async revoke(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const waits = sessionIds.map((id) => this.awaitAcks(id));
    try {
      const pipeline = this.redis.pipeline();
      for (const id of sessionIds) {
        pipeline.set(this.key(id), '1', 'EX', this.ttlSeconds);
        pipeline.publish(this.channel, id);
        this.remember(id);
      }
      await pipeline.exec();
      // Read after the announcements: a process registered from then on has read them first.
      const registered = await this.registeredListeners();
      await Promise.all(waits.map((wait) => wait.until(registered)));
    } finally {
      for (const wait of waits) wait.done();
    }
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    return this.knownRevoked(sessionId) ?? (await this.redis.exists(this.key(sessionId))) === 1;
  }

  /** What memory alone can answer: undefined when Redis must be asked (memory is not trusted). */
  knownRevoked(sessionId: string): boolean | undefined {
    const until = this.local.get(sessionId);
    if (until !== undefined && until > Date.now()) return true;
    if (this.live && performance.now() < this.trustedUntil) return false;
    return undefined;
  }

  /** Calls `listener` with each newly revoked session (here or in another process); unsubscribes. */
  onRevoked(listener: (sessionId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.live = false;
    this.trustedUntil = 0;
    clearInterval(this.pingTimer);
    await this.redis.zrem(this.listenersKey, this.processId).catch(() => undefined);
    await this.subscriber?.quit().catch(() => undefined);
  }

  private received(channel: string, message: string): void {
    if (channel === this.channel) {
      this.remember(message);
      this.redis.publish(this.ackChannel, `${this.processId} ${message}`).catch(() => undefined);
    } else if (channel === this.ackChannel) {
      const [processId = '', sessionId = ''] = message.split(' ');
      for (const wait of this.awaiting.get(sessionId) ?? []) {
        wait.acked.add(processId);
        wait.changed();
      }
    } else if (channel === this.pingChannel) {
      const [processId, sequence] = message.split(' ');
      if (processId !== this.processId) return;
      const sentAt = this.pings.get(Number(sequence));
      if (sentAt === undefined) return;
      for (const seq of this.pings.keys()) if (seq <= Number(sequence)) this.pings.delete(seq);
      if (this.live) this.trustedUntil = Math.max(this.trustedUntil, sentAt + LEASE_MS);
    }
  }

  /** Registers this process for a lease and publishes a ping behind everything announced so far. */
  private ping(): void {
    if (!this.live) return;
    this.sequence += 1;
    this.pings.set(this.sequence, performance.now());
    this.redis
      .pipeline()
      .eval(REGISTER, 1, this.listenersKey, this.processId, LEASE_MS)
      .publish(this.pingChannel, `${this.processId} ${this.sequence}`)
      .exec()
      .catch(() => undefined);
  }

  /** The listening processes and how long their registrations have left, in ms. */
  private async registeredListeners(): Promise<Map<string, number>> {
    const found = (await this.redis.eval(REGISTERED, 1, this.listenersKey)) as string[];
    const listeners = new Map<string, number>();
    for (let i = 0; i + 1 < found.length; i += 2) listeners.set(found[i]!, Number(found[i + 1]));
    return listeners;
  }

  /** Starts collecting acknowledgements of one announcement (before it is made). */
  private awaitAcks(sessionId: string) {
    const wait = { acked: new Set<string>(), changed: () => undefined as void };
    const waits = this.awaiting.get(sessionId) ?? [];
    waits.push(wait);
    this.awaiting.set(sessionId, waits);
    return {
      /** Resolves once each registered process acknowledged, or its registration ran out. */
      until: (registered: Map<string, number>) =>
        new Promise<void>((resolve) => {
          const started = performance.now();
          let timer: NodeJS.Timeout | undefined;
          const check = () => {
            const elapsed = performance.now() - started;
            let wait_ms = 0;
            for (const [processId, ttl] of registered)
              if (!wait.acked.has(processId) && ttl > elapsed)
                wait_ms = Math.max(wait_ms, ttl - elapsed);
            clearTimeout(timer);
            if (wait_ms === 0) {
              wait.changed = () => undefined;
              resolve();
            } else timer = setTimeout(check, wait_ms + 1);
          };
          wait.changed = check;
          check();
        }),
      done: () => {
        const left = (this.awaiting.get(sessionId) ?? []).filter((w) => w !== wait);
        if (left.length > 0) this.awaiting.set(sessionId, left);
        else this.awaiting.delete(sessionId);
      },
    };
  }

  private remember(sessionId: string): void {
    const known = this.local.has(sessionId);
    this.local.set(sessionId, Date.now() + this.ttlSeconds * 1000);
    if (!known) for (const listener of this.listeners) listener(sessionId);
  }

  private async reload(): Promise<void> {
    this.live = false;
    this.trustedUntil = 0;
    // A ping sent before the reload proves nothing about what the reload read.
    this.pings.clear();
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
    // Trust starts with the first ping read back after the reload.
    this.ping();
  }
}
