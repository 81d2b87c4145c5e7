import type { HealthResponse } from '@studioshot/contracts';
import type { Db } from '@studioshot/db';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';

const CHECK_TIMEOUT_MS = 2000;

/** A check that has not answered in two seconds counts as down. */
export function within<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);
}

export class HealthService {
  private readonly startedAt = Date.now();
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly version: string,
    /** What production runs with that it normally refuses (an explicit allowance). */
    private readonly warnings: string[] = [],
    /** DEBUG_PROMPTS: said in every answer, so the web app can show the debug panel. */
    private readonly debug = false,
  ) {}

  /** From now on the readiness check fails: this process is shutting down. */
  beginShutdown(): void {
    this.stopping = true;
  }

  async check(): Promise<HealthResponse> {
    const [database, redis] = await Promise.all([
      within(sql`SELECT 1`.execute(this.db)).then(
        () => 'up' as const,
        () => 'down' as const,
      ),
      within(this.redis.ping()).then(
        () => 'up' as const,
        () => 'down' as const,
      ),
    ]);
    return {
      status: this.stopping ? 'stopping' : database === 'up' && redis === 'up' ? 'ok' : 'degraded',
      version: this.version,
      database,
      redis,
      uptime_s: Math.round((Date.now() - this.startedAt) / 1000),
      ...(this.warnings.length > 0 ? { warnings: this.warnings } : {}),
      ...(this.debug ? { debug: true as const } : {}),
    };
  }
}
