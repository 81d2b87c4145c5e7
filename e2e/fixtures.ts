import { createDb, type Db } from '@studioshot/db';
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp, { type Sharp } from 'sharp';
import { expect } from 'vitest';
import {
  DESKTOP,
  launchBrowser,
  screenshot as saveScreenshot,
  startApp,
  type RunningApp,
  type Session,
} from './harness.js';

// What several browser tests need: the running product, test photos, API calls, users who may
// train or have trained, seeded models, screenshots, and following a generation on the page.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = path.join(ROOT, 'apps/worker/test/fixtures');

export const uniqueEmail = (who: string) =>
  `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export type ApiCaller = <T>(
  session: Session | null,
  path: string,
  body?: unknown,
  method?: string,
) => Promise<{ status: number; body: T }>;

/** JSON calls to the running API, signed in as `session` when given. */
export function apiCaller(baseUrl: string): ApiCaller {
  return async <T>(session: Session | null, p: string, body?: unknown, method = 'POST') => {
    const res = await fetch(`${baseUrl}${p}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(session ? { Authorization: `Bearer ${session.access_token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
}

/** A new account, signed up through the API. */
export async function register(api: ApiCaller, name: string): Promise<Session> {
  const registered = await api<Session>(null, '/api/v1/auth/register', {
    email: uniqueEmail(name.split(' ')[0]!.toLowerCase()),
    password: 'studio-portrait-1',
    name,
  });
  expect(registered.status).toBe(201);
  return registered.body;
}

/** The account as the API answers it now (GET /api/v1/users/profile). */
export async function profileOf(
  api: ApiCaller,
  session: Session,
): Promise<{
  credits_balance: number;
  training_limit: number;
  plan_type: string;
  subscription_interval: string | null;
}> {
  const profile = await api<{
    credits_balance: number;
    training_limit: number;
    plan_type: string;
    subscription_interval: string | null;
  }>(session, '/api/v1/users/profile', undefined, 'GET');
  expect(profile.status).toBe(200);
  return profile.body;
}

/** A new account with one training slot bought through the API (test card 4242). */
export async function userWithTrainingSlot(api: ApiCaller, name: string): Promise<Session> {
  const session = await register(api, name);
  const intent = await api<{ payment_intent_id: string; client_secret: string }>(
    session,
    '/api/v1/payments/create-training-purchase',
    { quantity: 1 },
  );
  expect(intent.status).toBeLessThan(300);
  const card = await api(session, '/api/v1/payments/test/confirm-card', {
    payment_intent_id: intent.body.payment_intent_id,
    client_secret: intent.body.client_secret,
    card: { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Test User' },
  });
  expect(card.status).toBeLessThan(300);
  const confirmed = await api(session, '/api/v1/payments/confirm-additional-training', {
    payment_intent_id: intent.body.payment_intent_id,
    pack_id: 'training_1',
    amount: 2500,
    payment_method: 'stripe',
  });
  expect(confirmed.status).toBeLessThan(300);
  return session;
}

/**
 * Twelve distinct photos of one person (the astronaut fixtures of the photo checks, each changed a
 * little: crop, light, mirror), all at least 512 px. Two are big enough for the browser to
 * optimise them: a JPEG stored on its side with EXIF orientation 6 (it must arrive upright), and a
 * PNG. Plus a group shot, which the checks must flag.
 */
export async function makeTrainingPhotos(dir: string): Promise<string[]> {
  const source = (name: string) => sharp(path.join(FIXTURES, name)).rotate();
  const variants: [string, Sharp][] = [
    ['portrait-01.jpg', source('astronaut.jpg').modulate({ brightness: 0.97 })],
    ['portrait-02.jpg', source('astronaut-mirror.jpg').modulate({ brightness: 1.03 })],
    ['portrait-03.jpg', source('astronaut-warm.jpg').modulate({ brightness: 0.98 })],
    ['portrait-04.jpg', source('astronaut-tilted.jpg').modulate({ brightness: 1.02 })],
    ['portrait-05.jpg', source('astronaut-closer.jpg').modulate({ brightness: 0.96 })],
    ['portrait-06.jpg', source('astronaut-low-quality.jpg').modulate({ brightness: 1.04 })],
    [
      'portrait-08.jpg',
      source('astronaut.jpg').extract({ left: 12, top: 0, width: 488, height: 488 }).resize(560),
    ],
    ['portrait-09.jpg', source('astronaut.jpg').flop().modulate({ brightness: 0.93 })],
    [
      'portrait-10.jpg',
      source('astronaut-warm.jpg')
        .extract({ left: 0, top: 8, width: 500, height: 500 })
        .resize(540),
    ],
    ['portrait-11.jpg', source('astronaut-closer.jpg').flop().modulate({ saturation: 0.85 })],
  ];
  const files: string[] = [];
  for (const [name, image] of variants) {
    const file = path.join(dir, name);
    await image.jpeg({ quality: 88 }).toFile(file);
    files.push(file);
  }
  // Over 800KB, stored sideways (2240x2560) with "rotate 90° clockwise to view": the browser must
  // turn it upright while scaling it to 1024x896.
  const sideways = path.join(dir, 'portrait-07.jpg');
  await sharp(path.join(FIXTURES, 'astronaut-exif-rotated.jpg'))
    .resize(2240, 2560)
    .jpeg({ quality: 97 })
    .withMetadata({ orientation: 6 })
    .toFile(sideways);
  files.splice(6, 0, sideways);
  // Over 800KB: the browser scales it to 1024 px and re-encodes it as JPEG.
  const large = path.join(dir, 'portrait-12.png');
  await source('astronaut.jpg')
    .resize(1800, 1800, { kernel: 'lanczos3' })
    .modulate({ brightness: 1.05 })
    .png({ compressionLevel: 1 })
    .toFile(large);
  files.push(large);
  return files;
}

/** Waits until `count` photos are shown and none is still being checked. */
export async function waitForChecks(page: Page, count: number) {
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('article[data-state]').length === n &&
      document.querySelectorAll('article[data-state="checking"]').length === 0,
    count,
    { timeout: 60_000 },
  );
}

/** The built product, a browser and the product's database, for one test file. */
export interface Product {
  app: RunningApp;
  api: ApiCaller;
  browser: Browser;
  db: Db;
  /** An address of the running product. */
  url(p: string): string;
  /** Polls `read` until it returns a value; fails naming `what`, with the product's logs. */
  until<T>(read: () => Promise<T | undefined>, what: string, ms?: number): Promise<T>;
  stop(): Promise<void>;
}

/** The product as `startApp` runs it, with `extraEnv` on top of its settings. */
export async function startProduct(extraEnv: Record<string, string> = {}): Promise<Product> {
  mkdirSync(SHOTS, { recursive: true });
  const app = await startApp(extraEnv);
  const browser = await launchBrowser();
  const db = createDb(app.databaseUrl, { max: 2 });
  return {
    app,
    api: apiCaller(app.baseUrl),
    browser,
    db,
    url: (p) => `${app.baseUrl}${p}`,
    async until<T>(read: () => Promise<T | undefined>, what: string, ms = 90_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const value = await read();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${app.logs()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async stop() {
      await db.destroy();
      await browser.close();
      await app.stop();
    },
  };
}

/** What the API answers for one uploaded photo. */
export interface UploadedPhoto {
  id: string;
  thumbnail_url: string;
}

/**
 * One photo file uploaded into an upload session, as the upload page sends it (multipart, its
 * type from its name), through the API at `baseUrl`; fails unless the API accepts it.
 */
export async function uploadPhoto(
  baseUrl: string,
  user: { access_token: string },
  sessionId: string,
  file: string,
): Promise<UploadedPhoto> {
  const form = new FormData();
  const type = file.endsWith('.png') ? 'image/png' : 'image/jpeg';
  form.append('file', new Blob([await readFile(file)], { type }), path.basename(file));
  const res = await fetch(`${baseUrl}/api/v1/upload/file/${sessionId}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${user.access_token}` },
    body: form,
  });
  const text = await res.text();
  expect(res.status, `${path.basename(file)}: ${text}`).toBe(201);
  return JSON.parse(text) as UploadedPhoto;
}

/**
 * The test photos uploaded through the API into a new upload session, and checked by the
 * worker; returns the session, still open.
 */
export async function uploadCheckedPhotos(product: Product, user: Session): Promise<string> {
  const { api, app, until } = product;
  const created = await api<{ session_id: string }>(user, '/api/v1/upload/create-session', {
    expected_files: 12,
    session_type: 'training',
  });
  expect(created.status).toBe(201);
  const sessionId = created.body.session_id;
  const photoDir = await mkdtemp(path.join(tmpdir(), 'studioshot-e2e-photos-'));
  try {
    for (const file of await makeTrainingPhotos(photoDir))
      await uploadPhoto(app.baseUrl, user, sessionId, file);
  } finally {
    await rm(photoDir, { recursive: true, force: true });
  }
  await until(async () => {
    const status = await api<{ checks_pending: number }>(
      user,
      `/api/v1/upload/session/${sessionId}/status`,
      undefined,
      'GET',
    );
    return status.body.checks_pending === 0 ? true : undefined;
  }, 'the photo checks');
  return sessionId;
}

/** Completes the upload session and trains a model on it with the worker, until it is done. */
export async function trainModel(
  product: Product,
  user: Session,
  sessionId: string,
  modelName: string,
): Promise<void> {
  const { api, until } = product;
  const completed = await api(user, `/api/v1/upload/complete/${sessionId}`);
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  const started = await api<{ id: string }>(user, '/api/v1/training/start', {
    model_name: modelName,
    session_id: sessionId,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const job = await until(async () => {
    const read = await api<{ status: string; error_message: string | null }>(
      user,
      `/api/v1/training/jobs/${started.body.id}`,
      undefined,
      'GET',
    );
    return ['completed', 'failed'].includes(read.body.status) ? read.body : undefined;
  }, 'the training');
  expect(job).toMatchObject({ status: 'completed' });
}

/** The Starter Pack (20 credits), bought through the API with the test card 4242. */
export async function buyCredits(api: ApiCaller, user: Session, cardName: string): Promise<void> {
  const intent = await api<{ payment_intent_id: string; client_secret: string }>(
    user,
    '/api/v1/payments/create-credit-package',
    { package_id: 'starter_pack' },
  );
  expect(intent.status).toBeLessThan(300);
  const card = await api(user, '/api/v1/payments/test/confirm-card', {
    payment_intent_id: intent.body.payment_intent_id,
    client_secret: intent.body.client_secret,
    card: { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: cardName },
  });
  expect(card.status).toBeLessThan(300);
  const confirmed = await api(user, '/api/v1/payments/confirm-credit-package', {
    payment_intent_id: intent.body.payment_intent_id,
  });
  expect(confirmed.status).toBeLessThan(300);
}

/** Sets the profile's gender and age through the API, as /upload's profile step does. */
export async function setProfile(
  api: ApiCaller,
  user: Session,
  profile: { gender: 'female' | 'male'; age: number },
): Promise<void> {
  const patched = await api(user, '/api/v1/users/profile', profile, 'PATCH');
  expect(patched.status).toBe(200);
}

/**
 * A user with a model the worker trained from the test photos, and 20 bought credits: what the
 * generation pages need, made the way a person makes it.
 */
export async function trainedUserWithCredits(
  product: Product,
  who: {
    name: string;
    gender: 'female' | 'male';
    age: number;
    modelName: string;
    cardName: string;
  },
): Promise<Session> {
  const user = await userWithTrainingSlot(product.api, who.name);
  await setProfile(product.api, user, { gender: who.gender, age: who.age });
  const sessionId = await uploadCheckedPhotos(product, user);
  await trainModel(product, user, sessionId, who.modelName);
  await buyCredits(product.api, user, who.cardName);
  return user;
}

export type SeededTraining = 'queued' | 'running' | 'completed' | 'failed';

/**
 * A model row and (unless `task` is null) its training task, written to the database as a
 * training leaves them at that stage; returns the model's id (also its task's).
 */
export async function seedModel(
  db: Db,
  userId: string,
  task: SeededTraining | null = 'completed',
): Promise<string> {
  const id = crypto.randomUUID();
  const done = task === null || task === 'completed';
  await db
    .insertInto('models')
    .values({
      id,
      user_id: userId,
      name: 'Seeded portraits',
      status: done ? 'completed' : task === 'failed' ? 'failed' : 'training',
      ...(done
        ? { artifact_key: `users/${userId}/models/${id}/model.npz`, artifact_format: 2 }
        : {}),
    })
    .execute();
  if (task === null) return id;
  await db
    .insertInto('tasks')
    .values({
      id,
      user_id: userId,
      task_type: 'training',
      status: task,
      progress: task === 'completed' ? 100 : task === 'running' ? 40 : 0,
      message:
        task === 'completed' ? 'Training complete' : task === 'failed' ? 'Training failed' : null,
      error_message: task === 'failed' ? 'No usable face in the photos' : null,
      model_id: id,
      params: JSON.stringify({ model_id: id }),
      started_at: task === 'queued' ? null : new Date(),
      completed_at: task === 'completed' || task === 'failed' ? new Date() : null,
    })
    .execute();
  return id;
}

/** Where screenshots are also written during a run, to look at them. */
export const SHOTS = '/tmp/shots';
export const MOBILE = { width: 375, height: 800 };

/** A full-page shot from the top: in /tmp/shots to look at, and with the others in e2e/screenshots. */
export async function pageShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  await saveScreenshot(page, name);
}

/** The same at 375 px, then back to 1280. */
export async function mobileShot(page: Page, name: string): Promise<void> {
  await page.setViewportSize(MOBILE);
  await pageShot(page, name);
  await page.setViewportSize(DESKTOP);
}

/** Full-page shots at 1280 px (`name`) and 375 px (`name-mobile`), ending at 1280. */
export async function pageShots(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await pageShot(page, name);
  await mobileShot(page, `${name}-mobile`);
}

/** What the stubbed save-file picker was given. */
export interface SavedFile {
  name: string;
  type: string;
  size: number;
  /** The first two bytes, to see it is a JPEG. */
  head: number[];
}

/**
 * Chromium on a desktop has window.showSaveFilePicker, which would open a real dialog: this one
 * writes into a record (`window.__saved`, read with `savedFiles`) instead.
 */
export async function stubSavePicker(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const saved: unknown[] = [];
    (window as unknown as { __saved: unknown[] }).__saved = saved;
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async (options: {
      suggestedName: string;
    }) => ({
      createWritable: async () => ({
        write: async (blob: Blob) => {
          const head = [...new Uint8Array(await blob.slice(0, 2).arrayBuffer())];
          saved.push({ name: options.suggestedName, type: blob.type, size: blob.size, head });
        },
        close: async () => undefined,
      }),
    });
  });
}

export function savedFiles(page: Page): Promise<SavedFile[]> {
  return page.evaluate(() => (window as unknown as { __saved: SavedFile[] }).__saved);
}

/**
 * Clicks `generate` and follows the page until its results heading shows, reading the
 * generation's progress bar as it goes (its value and words each time), with a screenshot
 * (`progressShot`) once it has moved; fails with the page's failure text and the product's logs.
 * Answers what the bar showed, and whether the progress screenshot was taken.
 */
export async function followGeneration(
  page: Page,
  generate: Locator,
  { progressShot, logs }: { progressShot: string; logs: () => string },
): Promise<{ seen: { value: number; text: string }[]; progressShot: boolean }> {
  await generate.click();
  await page.getByRole('button', { name: 'Generating...' }).waitFor();
  // Read the page in one go each time: the bar moves on by itself.
  const readPage = () =>
    page.evaluate(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Generation progress"]');
      return {
        value: bar?.getAttribute('aria-valuenow') ?? null,
        text: bar?.getAttribute('aria-valuetext') ?? null,
        done: document.getElementById('results-title') !== null,
        failed: document.getElementById('generation-failed-title')?.parentElement?.textContent,
      };
    });
  const seen: { value: number; text: string }[] = [];
  let shot = false;
  const deadline = Date.now() + 120_000;
  for (let state = await readPage(); !state.done; state = await readPage()) {
    if (state.failed) throw new Error(`generation failed: ${state.failed}\n${logs()}`);
    if (Date.now() > deadline) throw new Error(`no headshots came\n${logs()}`);
    if (state.value !== null) {
      seen.push({ value: Number(state.value), text: state.text ?? '' });
      if (!shot && Number(state.value) > 0) {
        await pageShot(page, progressShot);
        shot = true;
      }
    }
    await page.waitForTimeout(25);
  }
  return { seen, progressShot: shot };
}
