import { describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken, type AccessTokenConfig } from './tokens.js';

const config: AccessTokenConfig = {
  secret: 'x'.repeat(40),
  issuer: 'iss',
  audience: 'aud',
  ttlSeconds: 1,
};

describe('access token verification cache', () => {
  it('stops accepting a cached token once it expires', async () => {
    const token = signAccessToken(config, 'user-1', 'session-1');
    expect(verifyAccessToken(config, token)?.userId).toBe('user-1');
    expect(verifyAccessToken(config, token)?.userId).toBe('user-1');
    await new Promise((r) => setTimeout(r, 2100));
    expect(verifyAccessToken(config, token)).toBeNull();
  });

  it('is per configuration: a token is not accepted under another secret', () => {
    const token = signAccessToken(config, 'user-1', 'session-1');
    expect(verifyAccessToken(config, token)).not.toBeNull();
    expect(verifyAccessToken({ ...config, secret: 'y'.repeat(40) }, token)).toBeNull();
  });
});
