import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { probeEngine } from './engine-handshake.js';
import { loadWorkerEnv } from './env.js';

const python = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../engine/.venv/bin/python',
);

describe('engine handshake', () => {
  it('starts the real Python engine and reads its ready message on fd 3', async () => {
    const hello = await probeEngine(python, 'studio');
    expect(hello).toMatchObject({ v: 1, type: 'ready', engine: 'studio' });
    expect(hello.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('fails clearly when the engine cannot start', async () => {
    await expect(probeEngine(python, 'no-such-engine', 5000)).rejects.toThrow(/exited with code 2/);
  });
});

describe('loadWorkerEnv', () => {
  it('names a bad variable', () => {
    expect(() => loadWorkerEnv({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
  });
  it('defaults to the studio engine', () => {
    const env = loadWorkerEnv({
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATABASE_URL: 'postgres://u@127.0.0.1/db',
    });
    expect(env.ENGINE_KIND).toBe('studio');
    expect(env.PHOTO_CHECK_CONCURRENCY).toBe(1);
  });
});
