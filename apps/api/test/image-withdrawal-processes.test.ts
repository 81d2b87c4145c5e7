import { ZGeneratedImagesResponseSchema, ZGenerationResultSchema } from '@studioshot/contracts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditUser, deliver, generate, trainedModel } from './generation-helpers.js';
import { startApiProcess, stopApiProcess, type ApiProcess } from './api-process.js';
import { bearer, createTestApp, type TestApp } from './helpers.js';

/**
 * Two real API processes serve the same images, each from its own memory of the rows. An image
 * deleted through one, or an account whose deletion is asked through one, is refused by both on
 * the very next request: each had served the image (and so remembered it) just before.
 */

let t: TestApp;
let storageDir: string;
let apis: ApiProcess[] = [];
let ports: number[] = [];

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'studioshot-withdrawal-'));
  t = await createTestApp({ GENERATION_WAIT_MS: '0', STORAGE_DIR: storageDir });
  const settings = { LOG_LEVEL: 'info', REGISTER_MAX_PER_IP: '100000' };
  apis = await Promise.all([startApiProcess(t, settings), startApiProcess(t, settings)]);
  ports = apis.map((api) => api.port);
}, 120_000);

afterAll(async () => {
  await Promise.all(apis.map(stopApiProcess));
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
});

/** A user with one delivered generation of `count` images, as the gallery lists them. */
async function userWithImages(count: number) {
  const user = await creditUser(t, 1);
  const modelId = await trainedModel(t, user.id);
  const res = await generate(t, user, '/api/v1/generation/generate-trained', {
    model_id: modelId,
    prompt: 'x',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await deliver(t, user.id, ZGenerationResultSchema.parse(res.body).id, count);
  const list = await t.request.get('/models/generated-images?limit=50').set(bearer(user.token));
  return { user, images: ZGeneratedImagesResponseSchema.parse(list.body).images };
}

async function statusOf(port: number, url: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`);
  await res.arrayBuffer();
  return res.status;
}

/** Both processes serve every URL (each now remembers its image). */
async function servedByBoth(urls: string[]): Promise<void> {
  for (const port of ports)
    for (const url of urls) expect(await statusOf(port, url), `${port} ${url}`).toBe(200);
}

async function refusedByBoth(urls: string[]): Promise<void> {
  for (const port of ports)
    for (const url of urls) expect(await statusOf(port, url), `${port} ${url}`).toBe(404);
}

describe('withdrawn images, across API processes', () => {
  it('an image deleted through one process is refused by both on the next request', async () => {
    const { user, images } = await userWithImages(4);
    const kept = images.at(-1)!;
    for (const [i, image] of images.slice(0, -1).entries()) {
      const urls = [image.url, image.thumbnail_url];
      await servedByBoth(urls);
      const through = ports[i % 2]!;
      const deleted = await fetch(
        `http://127.0.0.1:${through}/models/generated-images/${image.id}`,
        {
          method: 'DELETE',
          headers: bearer(user.token),
        },
      );
      expect(deleted.status).toBe(200);
      await refusedByBoth(urls);
    }
    // Only what was deleted is refused.
    await servedByBoth([kept.url, kept.thumbnail_url]);
  });

  it("an account's images are refused by both once its deletion is asked", async () => {
    const { user, images } = await userWithImages(2);
    const other = await userWithImages(1);
    const urls = images.flatMap((image) => [image.url, image.thumbnail_url]);
    await servedByBoth(urls);
    const asked = await fetch(`http://127.0.0.1:${ports[1]}/api/v1/users/me`, {
      method: 'DELETE',
      headers: { ...bearer(user.token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ password: 'correct horse' }),
    });
    expect(asked.status, await asked.clone().text()).toBe(202);
    await refusedByBoth(urls);
    await servedByBoth([other.images[0]!.url]);
  });
});
