import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalStorage } from './local-storage.js';
import { S3Storage, type S3StorageConfig } from './s3-storage.js';

// Presigning is computed here, with no request: these links are checked without a server (the
// API's S3 test fetches them from the S3 test server).

beforeAll(() => {
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'studioshot-test');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'studioshot-test-secret');
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const KEY = 'users/u1/generations/g1/0-0.jpg';

describe('S3 download links', () => {
  const configs: [string, S3StorageConfig][] = [
    ['AWS, us-east-1', { bucket: 'shots', region: 'us-east-1' }],
    ['AWS, eu-west-1', { bucket: 'shots', region: 'eu-west-1' }],
    [
      'an endpoint, virtual-hosted',
      { bucket: 'shots', region: 'auto', endpoint: 'https://s3.example.com' },
    ],
    [
      'an endpoint, path style',
      {
        bucket: 'shots',
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:9000',
        forcePathStyle: true,
      },
    ],
  ];
  for (const [name, config] of configs) {
    it(`${name}: the link is on the storage's download origin, for as long as asked, named`, async () => {
      const storage = new S3Storage(config);
      try {
        const link = new URL(
          await storage.downloadUrl(KEY, {
            expiresInSeconds: 42.9,
            filename: 'headshot-1.jpg',
            contentType: 'image/jpeg',
          }),
        );
        expect(link.origin).toBe(storage.downloadOrigin);
        expect(link.searchParams.get('X-Amz-Expires')).toBe('42');
        expect(link.searchParams.get('response-content-disposition')).toBe(
          'attachment; filename="headshot-1.jpg"',
        );
        expect(link.searchParams.get('response-content-type')).toBe('image/jpeg');
        expect(link.pathname.endsWith(`/${KEY}`)).toBe(true);
      } finally {
        await storage.close();
      }
    });
  }

  it('refuses a key that is not valid, as every method does', async () => {
    const storage = new S3Storage({ bucket: 'shots', region: 'us-east-1' });
    await expect(
      storage.downloadUrl('../x', { expiresInSeconds: 10, filename: 'x.jpg' }),
    ).rejects.toThrow(/Invalid storage key/);
    await storage.close();
  });
});

describe('local download links', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'studioshot-download-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('there are none: the API sends the file itself', async () => {
    const storage = new LocalStorage(dir);
    expect(storage.downloadOrigin).toBeUndefined();
    expect(
      await storage.downloadUrl(KEY, { expiresInSeconds: 10, filename: 'x.jpg' }),
    ).toBeUndefined();
  });
});
