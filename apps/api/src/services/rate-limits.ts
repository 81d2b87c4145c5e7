import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';

export interface LimitRule {
  points: number;
  windowSeconds: number;
}

/**
 * A pair of counters (per account and per IP) for one sensitive action. Either one running out
 * answers 429 with Retry-After.
 */
export class ActionRateLimit {
  private readonly perAccount: RateLimiterRedis;
  private readonly perIp: RateLimiterRedis;

  constructor(
    redis: Redis,
    keyPrefix: string,
    account: LimitRule,
    ip: LimitRule,
    private readonly noun: string,
  ) {
    this.perAccount = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${keyPrefix}:account`,
      points: account.points,
      duration: account.windowSeconds,
    });
    this.perIp = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${keyPrefix}:ip`,
      points: ip.points,
      duration: ip.windowSeconds,
    });
  }

  async consume(account: string, ip: string): Promise<void> {
    try {
      await Promise.all([this.perAccount.consume(account), this.perIp.consume(ip)]);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      const minutes = Math.ceil(seconds / 60);
      throw new AppError(
        'rate_limited',
        `Too many ${this.noun}. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
        { 'Retry-After': String(seconds) },
      );
    }
  }

  /** Forgives an account's failed attempts after a success. */
  async reset(account: string): Promise<void> {
    await this.perAccount.delete(account);
  }
}
