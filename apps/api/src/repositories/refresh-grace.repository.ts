import type { TokenSet } from '@studioshot/contracts';
import { ZTokenSetSchema } from '@studioshot/contracts';
import type { Redis } from 'ioredis';
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The answer a refresh token was rotated into, kept for a short grace window so a second tab
 * refreshing with the same token at the same moment gets the very same pair instead of tripping
 * reuse detection. Keyed by the used token's hash; the pair is sealed (AES-256-GCM) with a key
 * derived from the used token itself and a server secret, so Redis alone (a dump, a replica)
 * never yields a usable refresh token, and only a holder of the old token can open it.
 */
export class RefreshGraceRepository {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly secret: string,
    readonly ttlSeconds: number,
  ) {}

  /** The Redis key of a used token's answer (tests expire the window through it). */
  key(usedToken: string): string {
    return this.keyOfHash(createHash('sha256').update(usedToken, 'utf8').digest('hex'));
  }

  private keyOfHash(tokenHash: string): string {
    return `${this.prefix}refresh-grace:${tokenHash}`;
  }

  async remember(usedToken: string, answer: TokenSet): Promise<void> {
    if (this.ttlSeconds <= 0) return;
    const key = this.key(usedToken);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyFor(usedToken), iv);
    cipher.setAAD(Buffer.from(key, 'utf8'));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
    const value = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    await this.redis.set(key, value, 'EX', this.ttlSeconds);
  }

  /** The answer given for this used token, while its grace window lasts. */
  async recall(usedToken: string): Promise<TokenSet | undefined> {
    if (this.ttlSeconds <= 0) return undefined;
    const key = this.key(usedToken);
    const value = await this.redis.get(key);
    if (!value) return undefined;
    try {
      const raw = Buffer.from(value, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.keyFor(usedToken), raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(key, 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
      return ZTokenSetSchema.parse(JSON.parse(json.toString('utf8')));
    } catch {
      return undefined;
    }
  }

  /** Drops the answers kept for these used tokens, named by their hashes (a deleted account's). */
  async forget(tokenHashes: readonly string[]): Promise<void> {
    if (tokenHashes.length === 0) return;
    await this.redis.del(...tokenHashes.map((hash) => this.keyOfHash(hash)));
  }

  private keyFor(usedToken: string): Buffer {
    return createHmac('sha256', this.secret).update(`refresh-grace:${usedToken}`, 'utf8').digest();
  }
}
