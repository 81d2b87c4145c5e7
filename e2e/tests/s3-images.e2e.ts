import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { completeTask, type GeneratedImageRecord } from '@studioshot/db';
import { generationImageKey, S3Storage } from '@studioshot/storage';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Page, Request, Response } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIXTURES,
  pageShot,
  register,
  seedModel,
  startProduct,
  type Product,
} from '../fixtures.js';
import { signedInPage, type Session } from '../harness.js';

/**
 * Generated images in S3 mode, in Chromium: the product runs on a bucket of the S3 test server
 * (which, as S3 does, answers a page's cross-origin requests only as the bucket's CORS rule says).
 * The gallery shows each headshot through the API's redirect to the bucket, within the page's
 * Content-Security-Policy; a page cannot read a link before `bucket-cors` has set the bucket's
 * rule, and after it the gallery's Download saves the image under its name, byte for byte.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SIZE = 512;
const THUMBNAIL = 128;

function s3TestEndpoint(): string {
  const endpoint = process.env.S3_TEST_ENDPOINT;
  if (!endpoint)
    throw new Error('S3_TEST_ENDPOINT is not set: run the browser tests with `npm test`.');
  return endpoint;
}

/** The S3 settings of a deployment on this bucket (the test server takes any credentials). */
function s3Settings(bucket: string): Record<string, string> {
  return {
    STORAGE_DRIVER: 's3',
    S3_BUCKET: bucket,
    S3_ENDPOINT: s3TestEndpoint(),
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: 'studioshot-test',
    AWS_SECRET_ACCESS_KEY: 'studioshot-test-secret',
  };
}

/** `pnpm --filter @studioshot/api bucket-cors`'s script, run with the product's settings. */
async function bucketCors(settings: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bucket-cors.ts'], {
    cwd: path.join(ROOT, 'apps/api'),
    env: settings,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code, output).toBe(0);
}

/** A headshot as the worker stores it: the JPEG and its thumbnail, each a little different. */
async function headshot(position: number): Promise<{ image: Buffer; thumbnail: Buffer }> {
  const source = sharp(path.join(FIXTURES, 'astronaut.jpg'))
    .rotate()
    .modulate({ brightness: 0.9 + position * 0.05 });
  const image = await source.clone().resize(SIZE, SIZE).jpeg({ quality: 85 }).toBuffer();
  const thumbnail = await source.resize(THUMBNAIL, THUMBNAIL).jpeg({ quality: 80 }).toBuffer();
  return { image, thumbnail };
}

let product: Product;
let storage: S3Storage;
let session: Session;
/** The stored JPEG of each headshot, by the file name the API gives it. */
const stored = new Map<string, Buffer>();

beforeAll(async () => {
  const bucket = `studioshot-e2e-${randomBytes(4).toString('hex')}`;
  const settings = s3Settings(bucket);
  const config = { region: 'us-east-1', endpoint: settings.S3_ENDPOINT, forcePathStyle: true };
  const credentials = {
    accessKeyId: settings.AWS_ACCESS_KEY_ID!,
    secretAccessKey: settings.AWS_SECRET_ACCESS_KEY!,
  };
  storage = new S3Storage({ bucket, ...config }, new S3Client({ ...config, credentials }));
  await storage.client.send(new CreateBucketCommand({ Bucket: bucket }));
  product = await startProduct(settings);
  session = await register(product.api, 'Grace Hopper');
  const userId = session.user.id;

  // A finished generation of four headshots, stored and completed as the worker leaves one.
  const modelId = await seedModel(product.db, userId, 'completed');
  const generationId = randomUUID();
  await product.db
    .insertInto('tasks')
    .values({
      id: generationId,
      user_id: userId,
      task_type: 'generation',
      status: 'running',
      model_id: modelId,
      params: JSON.stringify({ model_id: modelId }),
      started_at: new Date(),
    })
    .execute();
  await product.db
    .insertInto('generations')
    .values({
      id: generationId,
      user_id: userId,
      model_id: modelId,
      items: JSON.stringify([{ template_id: 'prof_1', variant: 0, prompt: 'studio portrait' }]),
      seed: 1,
    })
    .execute();
  const images: GeneratedImageRecord[] = [];
  for (let position = 0; position < 4; position++) {
    const { image, thumbnail } = await headshot(position);
    const imageKey = generationImageKey(userId, generationId, `0-${position}.jpg`);
    const thumbnailKey = generationImageKey(userId, generationId, `0-${position}-thumb.jpg`);
    await storage.putStream(imageKey, Readable.from(image), { contentType: 'image/jpeg' });
    await storage.putStream(thumbnailKey, Readable.from(thumbnail), { contentType: 'image/jpeg' });
    stored.set(`headshot-${generationId.slice(0, 8)}-${position + 1}.jpg`, image);
    images.push({
      position,
      templateId: 'prof_1',
      variant: 0,
      imageKey,
      thumbnailKey,
      width: SIZE,
      height: SIZE,
      sizeBytes: image.length,
      identityScore: 0.9 - position * 0.05,
      identityDistance: 0.2 + position * 0.05,
    });
  }
  const done = await completeTask(product.db, generationId, {
    message: 'Your headshots are ready',
    result: { images: images.length },
    output: { type: 'generation', images, shortItems: 0 },
    gpuSeconds: 1,
  });
  expect(done?.status).toBe('completed');
}, 120_000);

afterAll(async () => {
  await product?.stop();
  if (!storage) return;
  const listed = await storage.client.send(new ListObjectsV2Command({ Bucket: storage.bucket }));
  const keys = (listed.Contents ?? []).map((object) => ({ Key: object.Key! }));
  if (keys.length)
    await storage.client.send(
      new DeleteObjectsCommand({ Bucket: storage.bucket, Delete: { Objects: keys } }),
    );
  await storage.client.send(new DeleteBucketCommand({ Bucket: storage.bucket }));
  await storage.close();
});

/** A Content-Security-Policy violation the page saw: what was blocked, by which directive, where. */
interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/** What the page reported: its CSP violations (the document's events) and its console errors. */
interface PageReports {
  violations(): Promise<Violation[]>;
  consoleErrors: string[];
}

async function watchReports(page: Page): Promise<PageReports> {
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { __violations: Violation[] }).__violations = seen;
    window.addEventListener('securitypolicyviolation', (event) =>
      seen.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
      }),
    );
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return {
    consoleErrors,
    violations: () =>
      page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations),
  };
}

describe('generated images in S3 mode, in Chromium', () => {
  it('the gallery shows each headshot from the bucket, and Download saves it once the bucket allows the page', async () => {
    const { context, page } = await signedInPage(product.browser, session);
    try {
      const reports = await watchReports(page);
      // A browser without the save-file picker (Firefox, Safari): the plain download, which
      // Playwright sees.
      await page.addInitScript(() => {
        (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = undefined;
      });
      // Every answer from the bucket, with the request to the API that sent the browser there.
      const fromBucket: { response: Response; from: Request | null }[] = [];
      page.on('response', (response) => {
        if (new URL(response.url()).origin !== storage.downloadOrigin) return;
        fromBucket.push({ response, from: response.request().redirectedFrom() });
      });

      await page.goto(product.url('/gallery'));
      await page.getByText('4 headshots, newest first.').waitFor();
      const list = page.getByRole('list', { name: 'Headshots' });
      const cards = list.getByRole('article');
      expect(await cards.count()).toBe(4);
      // Each shown at its stored size once loaded. One that fails gives 0, and its card shows
      // the broken-image placeholder (a role="img" that is no <img>) instead.
      const widths = await Promise.all(
        [0, 1, 2, 3].map((n) =>
          cards
            .nth(n)
            .getByRole('img')
            .evaluate((shown) => {
              if (!(shown instanceof HTMLImageElement)) return 0;
              if (shown.complete) return shown.naturalWidth;
              return new Promise<number>((resolve) => {
                shown.addEventListener('load', () => resolve(shown.naturalWidth), { once: true });
                shown.addEventListener('error', () => resolve(0), { once: true });
              });
            }),
        ),
      );
      expect(widths).toEqual([THUMBNAIL, THUMBNAIL, THUMBNAIL, THUMBNAIL]);

      // Each came from the bucket after the API's 302 for its thumbnail, which no cache keeps.
      const listed = await product.api<{
        images: { id: string; url: string; thumbnail_url: string; filename: string }[];
      }>(session, '/models/generated-images?limit=10&offset=0', undefined, 'GET');
      expect(listed.body.images).toHaveLength(4);
      for (const image of listed.body.images) {
        const hop = fromBucket.find(
          ({ from }) =>
            from && new URL(from.url()).pathname === `/images/generated/${image.id}/thumbnail`,
        );
        expect(hop, `the thumbnail of ${image.id} from the bucket`).toBeDefined();
        const redirect = (await hop!.from!.response())!;
        expect(redirect.status()).toBe(302);
        expect(await redirect.headerValue('cache-control')).toBe('private, no-store');
        expect(hop!.response.status()).toBe(200);
        expect(await hop!.response.headerValue('content-type')).toBe('image/jpeg');
      }
      expect(await reports.violations()).toEqual([]);
      expect(reports.consoleErrors).toEqual([]);
      await pageShot(page, '67-gallery-s3');

      // The first card's headshot.
      const card = cards.first();
      const href = (await card.getByRole('link').getAttribute('href'))!;
      const first = listed.body.images.find(
        (image) =>
          new URL(image.url, product.app.baseUrl).pathname ===
          new URL(href, product.app.baseUrl).pathname,
      )!;
      expect(first).toBeDefined();

      // Before the bucket has its CORS rule a page of the product may show a link but not read
      // it, as on S3 (asked from another page, whose console errors these are).
      const probe = await context.newPage();
      await probe.goto(product.url('/health'));
      const refused = await probe.evaluate(async (url) => {
        try {
          await fetch(url, { cache: 'no-store' });
          return 'read';
        } catch (error) {
          return String(error);
        }
      }, first.url);
      await probe.close();
      expect(refused, 'the S3 test server must apply the bucket CORS rule').toMatch(/TypeError/);

      // Set as a deployment sets it: the command, with the product's settings and address.
      await bucketCors({ ...product.app.env, PUBLIC_URL: product.app.baseUrl });

      const name = await card.getAttribute('aria-label');
      const download = page.waitForEvent('download');
      download.catch(() => undefined);
      await list.getByRole('button', { name: `Download ${name}`, exact: true }).click();
      // The toast says how it went: saved, or opened in a new tab because the fetch failed.
      const toast = page.getByText(/^(Headshot saved\.|Your headshot opened in a new tab)/);
      await toast.waitFor();
      expect(await toast.innerText(), reports.consoleErrors.join('\n')).toBe('Headshot saved.');
      const saved = await download;
      // Saved from the fetched bytes (a blob), under the image's name, byte for byte.
      expect(saved.url()).toMatch(/^blob:/);
      expect(saved.suggestedFilename()).toBe(first.filename);
      expect(stored.has(first.filename)).toBe(true);
      const bytes = await readFile(await saved.path());
      expect(Buffer.compare(bytes, stored.get(first.filename)!)).toBe(0);

      expect(await reports.violations()).toEqual([]);
      expect(reports.consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
