import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { AppError } from '../errors.js';

export interface LimitRule {
  points: number;
  windowSeconds: number;
}

/** 429 with Retry-After and the one wording every limit uses. */
export function rateLimited(noun: string, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    'rate_limited',
    `Too many ${noun}. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    { retryAfterSeconds: seconds },
  );
}

/**
 * Counts one attempt in a fixed window (set by the first attempt). Answers 0 when it fits, else
 * the milliseconds until the window ends; a refused attempt is not counted. With an account
 * index (KEYS[2]) the counter is listed under the account, so clearing the account finds it.
 */
const TAKE = `
local n = redis.call('INCR', KEYS[1])
local window = tonumber(ARGV[2])
if n == 1 then redis.call('PEXPIRE', KEYS[1], window) end
if n > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], window)
    ttl = window
  end
  return ttl
end
if KEYS[2] then
  redis.call('SADD', KEYS[2], KEYS[1])
  if redis.call('PTTL', KEYS[2]) < window then redis.call('PEXPIRE', KEYS[2], window) end
end
return 0`;

/** Gives back an attempt counted by TAKE (one that turned out not to count). */
const GIVE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * The soft per-account limit: while a wait is running (KEYS[2]) the attempt is refused with the
 * wait left; otherwise it is counted (KEYS[1], kept for a window after the latest attempt) and,
 * from the threshold on, every attempt starts a wait that doubles each time, up to a cap.
 */
const SOFT_TAKE = `
local wait = redis.call('PTTL', KEYS[2])
if wait > 0 then return wait end
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
local over = n - tonumber(ARGV[1])
if over >= 0 then
  local delay = tonumber(ARGV[3]) * (2 ^ math.min(over, 24))
  delay = math.floor(math.min(delay, tonumber(ARGV[4])))
  redis.call('SET', KEYS[2], n, 'PX', delay)
end
return 0`;

/** Deletes every counter listed under an account (KEYS[1]), the list, and KEYS[2..]. */
const CLEAR_ACCOUNT = `
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do redis.call('DEL', key) end
for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
return 0`;

/** Counters are keyed by a hash of the e-mail, so no address is written to Redis. */
export const accountKey = (email: string) =>
  createHash('sha256').update(email, 'utf8').digest('hex').slice(0, 32);

/** The Redis keys of the soft sign-in limit of an account (tests move its clock with these). */
export function softLoginKeys(redisPrefix: string, email: string) {
  const root = `${redisPrefix}rl:login:account:${accountKey(email)}`;
  return { count: `${root}:failures`, wait: `${root}:wait` };
}

/** The first wait of the soft limit; each later failure doubles it, up to the login window. */
export const SOFT_LIMIT_FIRST_WAIT_MS = 30_000;

export interface AuthLimitSettings {
  login: {
    /** Soft: failures from devices without a device cookie, per account, any address. */
    perAccount: number;
    /** Hard: per (account, address), and per (account, known device). */
    perAccountAddress: number;
    /** Hard: per address, any account (devices without a device cookie). */
    perIp: number;
    windowSeconds: number;
  };
  forgot: { perAccountAddress: number; perIp: number; windowSeconds: number };
  reset: LimitRule;
  register: LimitRule;
}

/** A sign-in that passed the limits; say how it ended. */
export interface LoginAttempt {
  /** The right password: the attempt does not count, and the account's failures are forgiven. */
  succeeded(): Promise<void>;
}

/**
 * The limits on the anonymous auth calls, in Redis, following the OWASP authentication guidance:
 * hard limits per (account, address) and per address answer 429 with Retry-After; a soft limit
 * per account across all addresses makes devices without a device cookie wait a growing time,
 * and never stops a known device; nothing here sleeps. Nothing limits an account alone in a way
 * a stranger could use against its owner: a known device always gets to try its password, and
 * reset requests count per address and per (account, address) only.
 */
export class AuthRateLimits {
  private readonly root: string;

  constructor(
    private readonly redis: Redis,
    private readonly redisPrefix: string,
    private readonly settings: AuthLimitSettings,
  ) {
    this.root = `${redisPrefix}rl:`;
  }

  /**
   * Counts a sign-in before its password is checked (so parallel guesses cannot all slip in)
   * and refuses it with 429 when a limit is spent. A known device (`device`: the id in a valid
   * device cookie for this account) is limited only by its own failures.
   */
  async login(email: string, ip: string, device?: string): Promise<LoginAttempt> {
    const { login } = this.settings;
    const account = accountKey(email);
    const index = this.indexKey(account);
    const windowMs = login.windowSeconds * 1000;
    const noun = 'sign-in attempts';
    if (device) {
      const key = `${this.root}login:device:${account}:${device}`;
      await this.takeOrRefuse(key, login.perAccountAddress, windowMs, noun, index);
      return { succeeded: () => this.del(key) };
    }
    const ipKey = `${this.root}login:ip:${ip}`;
    const pairKey = `${this.root}login:account-ip:${account}:${ip}`;
    await this.takeOrRefuse(ipKey, login.perIp, windowMs, noun);
    try {
      await this.takeOrRefuse(pairKey, login.perAccountAddress, windowMs, noun, index);
    } catch (error) {
      await this.give(ipKey);
      throw error;
    }
    const soft = softLoginKeys(this.redisPrefix, email);
    const wait = Number(
      await this.redis.eval(
        SOFT_TAKE,
        2,
        soft.count,
        soft.wait,
        login.perAccount,
        windowMs,
        SOFT_LIMIT_FIRST_WAIT_MS,
        windowMs,
      ),
    );
    if (wait > 0) {
      await Promise.all([this.give(ipKey), this.give(pairKey)]);
      throw rateLimited(noun, wait);
    }
    return {
      succeeded: async () => {
        await Promise.all([this.give(ipKey), this.del(pairKey, soft.count, soft.wait)]);
      },
    };
  }

  /** Reset-code requests: per address and per (account, address), never per account alone. */
  async forgotPassword(email: string, ip: string): Promise<void> {
    const { forgot } = this.settings;
    const account = accountKey(email);
    const windowMs = forgot.windowSeconds * 1000;
    const noun = 'password reset requests';
    const ipKey = `${this.root}forgot:ip:${ip}`;
    await this.takeOrRefuse(ipKey, forgot.perIp, windowMs, noun);
    try {
      await this.takeOrRefuse(
        `${this.root}forgot:account-ip:${account}:${ip}`,
        forgot.perAccountAddress,
        windowMs,
        noun,
        this.indexKey(account),
      );
    } catch (error) {
      await this.give(ipKey);
      throw error;
    }
  }

  async resetPassword(ip: string): Promise<void> {
    const { reset } = this.settings;
    await this.takeOrRefuse(
      `${this.root}reset:ip:${ip}`,
      reset.points,
      reset.windowSeconds * 1000,
      'password reset attempts',
    );
  }

  async register(ip: string): Promise<void> {
    const { register } = this.settings;
    await this.takeOrRefuse(
      `${this.root}register:ip:${ip}`,
      register.points,
      register.windowSeconds * 1000,
      'sign-up attempts',
    );
  }

  /**
   * Forgets every counter of an account (after a successful password reset): its sign-in
   * failures from every address and device, the soft limit's wait, and its reset requests.
   */
  async clearAccount(email: string): Promise<void> {
    const soft = softLoginKeys(this.redisPrefix, email);
    await this.redis.eval(
      CLEAR_ACCOUNT,
      3,
      this.indexKey(accountKey(email)),
      soft.count,
      soft.wait,
    );
  }

  private indexKey(account: string): string {
    return `${this.root}account-counters:${account}`;
  }

  private async takeOrRefuse(
    key: string,
    points: number,
    windowMs: number,
    noun: string,
    index?: string,
  ): Promise<void> {
    const keys = index ? [key, index] : [key];
    const wait = Number(await this.redis.eval(TAKE, keys.length, ...keys, points, windowMs));
    if (wait > 0) throw rateLimited(noun, wait);
  }

  private async give(key: string): Promise<void> {
    await this.redis.eval(GIVE, 1, key);
  }

  private async del(...keys: string[]): Promise<void> {
    await this.redis.del(...keys);
  }
}
