import type { User } from '@studioshot/db';
import pg from 'pg';
import type { Logger } from '@studioshot/observability';

const TTL_MS = 30_000;
const RECONNECT_MS = 1_000;

/**
 * Profiles cached in this process, dropped the moment Postgres announces a committed change to the
 * row (the `users_changed` trigger), whoever made it: this API, another replica, the worker. While
 * the LISTEN connection is down nothing is served from the cache, and it is emptied, because
 * announcements may have been missed. A 30 s lifetime bounds any staleness the feed could not see.
 * Reads that decide money or limits never use it: they run in SQL.
 */
export class UserCache {
  private readonly entries = new Map<string, { user: User; at: number }>();
  /** Bumped on every announcement per user, so a read that raced a change is not cached. */
  private readonly changes = new Map<string, number>();
  private sequence = 0;
  /** The marker of every user when `changes` was last emptied: a marker never comes back. */
  private forgotten = -1;
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly logger: Logger,
  ) {}

  /** Starts listening; resolves once announcements flow (or after a failed first try). */
  async start(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    this.client = client;
    client.on('notification', (message) => {
      if (message.payload) this.changed(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query('LISTEN users_changed');
      if (this.client === client) this.listening = true;
    } catch (error) {
      this.lost(client, error);
    }
  }

  /** Whether change announcements are flowing (the cache serves nothing while they are not). */
  get live(): boolean {
    return this.listening;
  }

  /** The cached user, or undefined (a miss, or the feed is down). */
  get(userId: string): User | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(userId);
    if (!entry) return undefined;
    if (Date.now() - entry.at > TTL_MS) {
      this.entries.delete(userId);
      return undefined;
    }
    return entry.user;
  }

  /** A marker to take before reading the row, and give back to `set` after. */
  mark(userId: string): number {
    return this.changes.get(userId) ?? this.forgotten;
  }

  set(user: User, marker: number): void {
    if (!this.listening || this.mark(user.id) !== marker) return;
    this.entries.set(user.id, { user, at: Date.now() });
  }

  /**
   * A change to the user's row: announced by Postgres, or a signed-in write of this process
   * (middleware/fresh-profile.ts), which drops the entry without waiting for the announcement.
   */
  changed(userId: string): void {
    this.entries.delete(userId);
    this.sequence += 1;
    this.changes.set(userId, this.sequence);
    if (this.changes.size > 100_000) this.forgetChanges();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    await this.client?.end().catch(() => undefined);
  }

  /** Empties `changes`; a read marked before then is neither cached nor joined by later reads. */
  private forgetChanges(): void {
    this.changes.clear();
    this.sequence += 1;
    this.forgotten = this.sequence;
  }

  private lost(client: pg.Client, error?: unknown): void {
    // error, end and a failed connect can all report one loss: act once per connection.
    if (this.client !== client) return;
    const wasListening = this.listening;
    this.listening = false;
    this.client = undefined;
    this.entries.clear();
    this.forgetChanges();
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    if (this.closed) return;
    if (wasListening)
      this.logger.warn({ err: error }, 'user change feed lost; profile cache off until it is back');
    setTimeout(() => void this.start(), RECONNECT_MS).unref();
  }
}
