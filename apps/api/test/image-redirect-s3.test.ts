import { GetBucketCorsCommand } from '@aws-sdk/client-s3';
import {
  MESSAGES,
  ZGeneratedImagesResponseSchema,
  ZGenerationResultSchema,
} from '@studioshot/contracts';
import type { S3Storage } from '@studioshot/storage';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWithStorage } from './account-helpers.js';
import { creditUser, deliver, generate, jpeg, trainedModel } from './generation-helpers.js';
import { bearer, type TestApp } from './helpers.js';
import { IMAGE_LINK_SECONDS } from '../src/http/send-image.js';
import { webOrigins } from '../src/env.js';
import { ImageTokens } from '../src/services/image-tokens.js';
import { TEST_JWT_SECRET } from './helpers.js';

/**
 * S3 mode (the S3 test server): an image's address checks its token and redirects to a
 * presigned link on the bucket, which serves the image under its download name; the page's
 * Content-Security-Policy and the bucket's CORS let the page show and fetch it.
 */

let t: TestApp;
let storage: S3Storage;
beforeAll(async () => {
  t = await createAppWithStorage('s3', { GENERATION_WAIT_MS: '0' });
  storage = t.c.storage as S3Storage;
});
afterAll(async () => {
  await t?.close();
});

const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs `pnpm --filter @studioshot/api bucket-cors`'s script with these settings only. */
async function bucketCors(settings: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bucket-cors.ts'], {
    cwd: API_ROOT,
    env: { PATH: process.env.PATH, ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

async function galleryImages() {
  const user = await creditUser(t, 1);
  const modelId = await trainedModel(t, user.id);
  const res = await generate(t, user, '/api/v1/generation/generate-trained', {
    model_id: modelId,
    prompt: 'x',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await deliver(t, user.id, ZGenerationResultSchema.parse(res.body).id, 2);
  const list = await t.request.get('/models/generated-images').set(bearer(user.token));
  return { user, images: ZGeneratedImagesResponseSchema.parse(list.body).images };
}

describe('generated images in S3 mode', () => {
  it('redirects to a short-lived presigned link that downloads the image under its name', async () => {
    const { images } = await galleryImages();
    const image = images.find((i) => i.position === 0)!;
    const res = await t.request.get(image.url).redirects(0);
    expect(res.status).toBe(302);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const link = new URL(res.headers.location as string);
    expect(link.origin).toBe(storage.downloadOrigin);
    const lifetime = Number(link.searchParams.get('X-Amz-Expires'));
    const token = new URL(image.url, 'http://x').searchParams.get('token')!;
    const tokenLeft = Number(token.split('.')[0]) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(Math.min(IMAGE_LINK_SECONDS, tokenLeft));

    const fetched = await fetch(link);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-disposition')).toBe(
      `attachment; filename="${image.filename}"`,
    );
    expect(fetched.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await fetched.arrayBuffer());
    expect(Buffer.compare(bytes, await jpeg({ r: 0, g: 100, b: 200 }))).toBe(0);

    const thumb = await t.request.get(image.thumbnail_url).redirects(0);
    expect(thumb.status).toBe(302);
    const thumbBytes = Buffer.from(
      await (await fetch(thumb.headers.location as string)).arrayBuffer(),
    );
    expect(Buffer.compare(thumbBytes, await jpeg({ r: 0, g: 10, b: 20 }))).toBe(0);
  });

  it('a link never outlives the token it was asked with', async () => {
    const { images } = await galleryImages();
    const image = images[0]!;
    // A token with 40 s left: signed long ago, exact (no rounding of its expiry).
    const ttl = 3600;
    const tokens = new ImageTokens(`${TEST_JWT_SECRET}:images`, ttl, 1);
    const token = tokens.sign(image.id, Date.now() - (ttl - 40) * 1000);
    const res = await t.request.get(`/images/generated/${image.id}?token=${token}`).redirects(0);
    expect(res.status).toBe(302);
    const lifetime = Number(
      new URL(res.headers.location as string).searchParams.get('X-Amz-Expires'),
    );
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(40);
  });

  it('refuses a bad token, and a deleted image, with no link', async () => {
    const { user, images } = await galleryImages();
    const image = images[0]!;
    const bad = await t.request.get(`/images/generated/${image.id}?token=1.x`).redirects(0);
    expect(bad.status).toBe(403);
    expect(bad.body.detail).toBe(MESSAGES.imageLinkExpired);
    expect(bad.headers.location).toBeUndefined();
    await t.request.delete(`/models/generated-images/${image.id}`).set(bearer(user.token));
    const gone = await t.request.get(image.url).redirects(0);
    expect(gone.status).toBe(404);
    expect(gone.headers.location).toBeUndefined();
  });

  it("the page's Content-Security-Policy allows the bucket for images and fetches", async () => {
    const res = await t.request.get('/health');
    const csp = String(res.headers['content-security-policy']);
    const directive = (name: string) =>
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .find(([n]) => n === name)
        ?.slice(1);
    expect(directive('img-src')).toContain(storage.downloadOrigin);
    expect(directive('connect-src')).toContain(storage.downloadOrigin);
    // The test server is plain http: the browser must follow the redirect as it is.
    expect(directive('upgrade-insecure-requests')).toBeUndefined();
  });

  it("the bucket's CORS lets the web app's pages fetch a link and read its download name", async () => {
    const origins = webOrigins(t.c.env);
    // As a deployment sets it: the command, with the API's settings.
    const { env } = t.c;
    const settings = {
      NODE_ENV: 'test',
      DATABASE_URL: env.DATABASE_URL,
      REDIS_URL: env.REDIS_URL,
      JWT_SECRET: TEST_JWT_SECRET,
      S3_BUCKET: storage.bucket,
      S3_ENDPOINT: env.S3_ENDPOINT!,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'studioshot-test',
      AWS_SECRET_ACCESS_KEY: 'studioshot-test-secret',
    };
    const local = await bucketCors({ ...settings, STORAGE_DRIVER: 'local' });
    expect(local.code).toBe(1);
    expect(local.output).toContain('STORAGE_DRIVER=s3 and S3_BUCKET are required');
    const set = await bucketCors({ ...settings, STORAGE_DRIVER: 's3' });
    expect(set.code, set.output).toBe(0);
    // The rule as S3 keeps it, then the browser's requests, which the S3 test server answers
    // as that rule says (as S3 does).
    const rules = await storage.client.send(new GetBucketCorsCommand({ Bucket: storage.bucket }));
    expect(rules.CORSRules).toHaveLength(1);
    expect(rules.CORSRules?.[0]).toMatchObject({
      AllowedOrigins: origins,
      AllowedMethods: ['GET', 'HEAD'],
      ExposeHeaders: expect.arrayContaining(['Content-Disposition', 'Content-Length']),
    });

    const { images } = await galleryImages();
    const res = await t.request.get(images[0]!.url).redirects(0);
    const link = res.headers.location as string;
    const page = origins[0]!;
    const preflight = await fetch(link, {
      method: 'OPTIONS',
      headers: { Origin: page, 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(page);
    const got = await fetch(link, { headers: { Origin: page } });
    expect(got.status).toBe(200);
    expect(got.headers.get('access-control-allow-origin')).toBe(page);
    expect(got.headers.get('access-control-expose-headers')).toContain('Content-Disposition');
  });
});
