import bcrypt from 'bcrypt';
import pLimit, { type LimitFunction } from 'p-limit';
import { createHash } from 'node:crypto';

// bcrypt silently ignores everything past 72 bytes. We hash a fixed-size SHA-256 digest of the
// whole password instead (base64: 44 ASCII bytes, no NULs), so every byte of it counts.
function prehash(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('base64');
}

/** One-off hashing outside the API's request path (the seed CLI). */
export function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(prehash(password), cost);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(prehash(password), hash);
}

/**
 * The API's bcrypt, with at most `concurrency` hashes or compares running at once; the rest wait
 * in order. bcrypt runs on libuv's thread pool (4 threads by default), which file and DNS work
 * share: a burst of sign-ins or sign-ups can then never take all of it, and every password
 * operation costs the same bounded slice of CPU however many arrive together.
 */
export class PasswordHasher {
  private readonly limit: LimitFunction;
  private counters = { started: 0, peak: 0, peakWaiting: 0 };

  constructor(
    readonly cost: number,
    readonly concurrency: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError('bcrypt concurrency must be a positive integer');
    this.limit = pLimit(concurrency);
  }

  hash(password: string): Promise<string> {
    return this.run(() => bcrypt.hash(prehash(password), this.cost));
  }

  verify(password: string, hash: string): Promise<boolean> {
    return this.run(() => bcrypt.compare(prehash(password), hash));
  }

  /** bcrypt operations started so far, the most ever running and waiting at once, and now. */
  stats(): {
    started: number;
    peak: number;
    peakWaiting: number;
    running: number;
    waiting: number;
  } {
    return {
      ...this.counters,
      running: this.limit.activeCount,
      waiting: this.limit.pendingCount,
    };
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    const queued = this.limit(() => {
      this.counters.started += 1;
      this.counters.peak = Math.max(this.counters.peak, this.limit.activeCount);
      return work();
    });
    this.counters.peakWaiting = Math.max(this.counters.peakWaiting, this.limit.pendingCount);
    return queued;
  }
}
