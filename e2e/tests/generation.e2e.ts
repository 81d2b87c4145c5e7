import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCaller,
  makeTrainingPhotos,
  userWithTrainingSlot,
  type ApiCaller,
} from '../fixtures.js';
import {
  DESKTOP,
  launchBrowser,
  screenshot as saveScreenshot,
  signedInPage,
  startApp,
  type RunningApp,
  type Session,
} from '../harness.js';

/**
 * Generation in the browser against the real product: the API, the worker and the studio engine
 * train a model from real photos, then /generate-trained makes four headshots with live progress,
 * they are saved (picker and plain downloads), found in /gallery and favourited; and the paid
 * $29 order of /payment lands on /results, where a reload shows the same four images.
 */
const SHOTS = '/tmp/shots';
const MOBILE = { width: 375, height: 800 };

let app: RunningApp;
let api: ApiCaller;
let browser: Browser;
let photoDir: string;
let session: Session;

const url = (p: string) => `${app.baseUrl}${p}`;

/** Polls `read` until it returns a value; fails naming `what`, with the app's logs. */
async function until<T>(read: () => Promise<T | undefined>, what: string, ms = 90_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${app.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A user with a model trained by the worker from 12 real photos, and 20 bought credits. */
async function trainedUserWithCredits(): Promise<Session> {
  const user = await userWithTrainingSlot(api, 'Hedy');
  const patched = await api(user, '/api/v1/users/profile', { gender: 'female', age: 41 }, 'PATCH');
  expect(patched.status).toBe(200);

  const created = await api<{ session_id: string }>(user, '/api/v1/upload/create-session', {
    expected_files: 12,
    session_type: 'training',
  });
  expect(created.status).toBe(201);
  const sessionId = created.body.session_id;
  for (const file of await makeTrainingPhotos(photoDir)) {
    const form = new FormData();
    const type = file.endsWith('.png') ? 'image/png' : 'image/jpeg';
    form.append('file', new Blob([await readFile(file)], { type }), path.basename(file));
    const res = await fetch(url(`/api/v1/upload/file/${sessionId}`), {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.access_token}` },
      body: form,
    });
    expect(res.status, await res.clone().text()).toBe(201);
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
  const completed = await api(user, `/api/v1/upload/complete/${sessionId}`);
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  const started = await api<{ id: string }>(user, '/api/v1/training/start', {
    model_name: 'Hedy, studio portraits',
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

  const intent = await api<{ payment_intent_id: string; client_secret: string }>(
    user,
    '/api/v1/payments/create-credit-package',
    { package_id: 'starter_pack' },
  );
  expect(intent.status).toBeLessThan(300);
  const card = await api(user, '/api/v1/payments/test/confirm-card', {
    payment_intent_id: intent.body.payment_intent_id,
    client_secret: intent.body.client_secret,
    card: { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Hedy Lamarr' },
  });
  expect(card.status).toBeLessThan(300);
  const confirmed = await api(user, '/api/v1/payments/confirm-credit-package', {
    payment_intent_id: intent.body.payment_intent_id,
  });
  expect(confirmed.status).toBeLessThan(300);
  return user;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  photoDir = await mkdtemp(path.join(tmpdir(), 'studioshot-generation-e2e-'));
  app = await startApp();
  api = apiCaller(app.baseUrl);
  browser = await launchBrowser();
  session = await trainedUserWithCredits();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (photoDir) await rm(photoDir, { recursive: true, force: true });
});

/** A full-page shot from the top: in /tmp/shots to look at, and with the others in e2e/screenshots. */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  await saveScreenshot(page, name);
}

async function mobileShot(page: Page, name: string) {
  await page.setViewportSize(MOBILE);
  await screenshot(page, name);
  await page.setViewportSize(DESKTOP);
}

interface SavedFile {
  name: string;
  type: string;
  size: number;
  /** The first two bytes, to see it is a JPEG. */
  head: number[];
}

/**
 * Chromium on a desktop has window.showSaveFilePicker, which would open a real dialog: this one
 * writes into a record the test reads instead.
 */
async function stubSavePicker(page: Page) {
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

const imageIds = (page: Page, region: string) =>
  page
    .getByRole('region', { name: region })
    .getByRole('img')
    .evaluateAll((imgs) =>
      imgs.map((img) => new URL((img as HTMLImageElement).src).pathname.split('/')[3]),
    );

describe('generating headshots in the browser', () => {
  it('generates on /generate-trained with live progress, saves them, and favourites one in /gallery', async () => {
    const { context, page } = await signedInPage(browser, session);
    await stubSavePicker(page);
    try {
      await page.goto(url('/generate-trained'));
      const generate = page.getByRole('button', { name: 'Generate Premium Headshots' });
      await generate.waitFor();
      await page.getByText('20', { exact: true }).waitFor();
      expect(await page.getByLabel('Trained model').inputValue()).toMatch(/^[0-9a-f-]{36}$/);
      await page.getByText('Executive / Leadership').click();
      await page.getByRole('button', { name: 'Leadership Style' }).click();
      const sample = page
        .getByRole('list', { name: 'Leadership Style prompts' })
        .getByRole('button');
      await sample.first().click();
      expect(await page.getByLabel('Custom prompt').inputValue()).toBe(
        await sample.first().innerText(),
      );
      await screenshot(page, '60-generate-trained-idle');

      await generate.click();
      await page.getByRole('button', { name: 'Generating...' }).waitFor();
      // Read the page in one go each time: the bar moves on by itself.
      const readPage = () =>
        page.evaluate(() => {
          const bar = document.querySelector(
            '[role="progressbar"][aria-label="Generation progress"]',
          );
          return {
            value: bar?.getAttribute('aria-valuenow') ?? null,
            text: bar?.getAttribute('aria-valuetext') ?? null,
            done: document.getElementById('results-title') !== null,
            failed: document.getElementById('generation-failed-title')?.parentElement?.textContent,
          };
        });
      const seen: { value: number; text: string }[] = [];
      let progressShot = false;
      const deadline = Date.now() + 120_000;
      for (let state = await readPage(); !state.done; state = await readPage()) {
        if (state.failed) throw new Error(`generation failed: ${state.failed}\n${app.logs()}`);
        if (Date.now() > deadline) throw new Error(`no headshots came\n${app.logs()}`);
        if (state.value !== null) {
          seen.push({ value: Number(state.value), text: state.text ?? '' });
          if (!progressShot && Number(state.value) > 0) {
            await screenshot(page, '61-generate-trained-progress');
            progressShot = true;
          }
        }
        await page.waitForTimeout(25);
      }
      // The bar showed the worker's own progress and message before the images came.
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.some((s) => s.value > 0 && s.value < 100)).toBe(true);
      expect(seen.map((s) => s.value)).toEqual([...seen.map((s) => s.value)].sort((a, b) => a - b));
      expect(progressShot).toBe(true);

      const results = page.getByRole('region', { name: 'Your Premium Headshots' });
      const cards = results.getByRole('article');
      expect(await cards.count()).toBe(4);
      await results.getByText('Best likeness', { exact: true }).waitFor();
      // Every image really loaded.
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>('[aria-labelledby="results-title"] img'),
        ).every((img) => img.complete && img.naturalWidth === 1024),
      );
      // One credit spent: 20 -> 19, in the pill.
      await page.getByText('19', { exact: true }).waitFor();
      await screenshot(page, '62-generate-trained-results');
      await mobileShot(page, '62-generate-trained-results-mobile');

      // Save one: Chromium's save-file picker (stubbed) gets the JPEG.
      await results.getByRole('button', { name: 'Save Headshot 1' }).click();
      await page.getByText('Headshot saved.').waitFor();
      const saved = await page.evaluate(
        () => (window as unknown as { __saved: SavedFile[] }).__saved,
      );
      expect(saved).toHaveLength(1);
      expect(saved[0]).toMatchObject({ type: 'image/jpeg', head: [0xff, 0xd8] });
      expect(saved[0]!.name).toMatch(/^headshot-[0-9a-f]{8}-1\.jpg$/);
      expect(saved[0]!.size).toBeGreaterThan(10_000);

      // Save All: four plain downloads, spaced apart.
      const downloads: string[] = [];
      const allSaved = new Promise<void>((resolve) => {
        page.on('download', (download) => {
          downloads.push(download.suggestedFilename());
          if (downloads.length === 4) resolve();
        });
      });
      await results.getByRole('button', { name: 'Save All' }).click();
      await allSaved;
      expect(downloads).toEqual(
        [1, 2, 3, 4].map((n) => saved[0]!.name.replace(/-1\.jpg$/, `-${n}.jpg`)),
      );
      const generatedIds = await imageIds(page, 'Your Premium Headshots');

      // The gallery, from the dashboard.
      await page.getByRole('link', { name: 'Back to Dashboard' }).click();
      const total = page.getByText('Total Generations').locator('..');
      await total.getByText('1', { exact: true }).waitFor();
      await total.getByRole('link', { name: 'View Gallery' }).click();
      await page.waitForURL((u) => u.pathname === '/gallery');
      await page.getByText('4 headshots, newest first.').waitFor();
      const list = page.getByRole('list', { name: 'Headshots' });
      expect(
        await list
          .getByRole('img')
          .evaluateAll((imgs) =>
            imgs.map((img) => new URL((img as HTMLImageElement).src).pathname.split('/')[3]),
          ),
      ).toEqual(generatedIds);
      const heart = list.getByRole('button', { name: 'Favourite Headshot 2' });
      expect(await heart.getAttribute('aria-pressed')).toBe('false');
      await heart.click();
      await page.waitForFunction(
        () =>
          document
            .querySelector('button[aria-label="Favourite Headshot 2"]')
            ?.getAttribute('aria-pressed') === 'true',
      );
      // Kept by the server: still a favourite after a reload.
      await page.reload();
      await list.getByRole('button', { name: 'Favourite Headshot 2' }).waitFor();
      expect(
        await list
          .getByRole('button', { name: 'Favourite Headshot 2' })
          .getAttribute('aria-pressed'),
      ).toBe('true');
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>('ul[aria-label="Headshots"] img'),
        ).every((img) => img.complete && img.naturalWidth > 0),
      );
      await screenshot(page, '63-gallery');
      await mobileShot(page, '63-gallery-mobile');
    } finally {
      await context.close();
    }
  });

  it('pays $29 on /payment, lands on /results with four headshots, and a reload shows the same four', async () => {
    const { context, page } = await signedInPage(browser, session);
    try {
      const before = await api<{ total: number }>(
        session,
        '/models/generated-images?limit=1&offset=0',
        undefined,
        'GET',
      );
      await page.goto(
        url(`/payment?type=generation&user_id=${session.user.id}&style=professional`),
      );
      await page.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
      const form = page.getByRole('form', { name: 'Card details' });
      await form.getByLabel('Name on card').fill('Hedy Lamarr');
      await form.getByLabel('Card number').fill('4242 4242 4242 4242');
      await form.getByLabel('Expiry (MM/YY)').fill('1234');
      await form.getByLabel('CVC').fill('123');
      await page.getByRole('button', { name: 'Pay $29.00' }).click();

      await page.waitForURL((u) => u.pathname.startsWith('/results/'), { timeout: 15_000 });
      const address = new URL(page.url());
      expect(address.pathname).toBe(`/results/${session.user.id}`);
      expect(address.searchParams.get('payment_intent')).toBeTruthy();
      await page.getByRole('heading', { name: 'Preparing your headshots' }).waitFor();
      await screenshot(page, '64-results-preparing');
      await page.getByRole('progressbar', { name: 'Generation progress' }).waitFor();
      await screenshot(page, '65-results-generating');
      const ready = page.getByRole('heading', { name: 'Your Professional Headshots Are Ready!' });
      await ready.waitFor({ timeout: 120_000 });
      const gallery = page.getByRole('region', { name: 'Your Headshots' });
      expect(await gallery.getByRole('article').count()).toBe(4);
      await page.getByText('Cost', { exact: true }).locator('..').getByText('$29.00').waitFor();
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>(
            '[aria-labelledby="results-gallery-title"] img',
          ),
        ).every((img) => img.complete && img.naturalWidth === 1024),
      );
      await screenshot(page, '66-results-ready');
      await mobileShot(page, '66-results-ready-mobile');
      const first = await imageIds(page, 'Your Headshots');
      expect(first).toHaveLength(4);

      await page.reload();
      await ready.waitFor({ timeout: 120_000 });
      expect(await imageIds(page, 'Your Headshots')).toEqual(first);

      // The payment paid for one generation only: four new images, not eight.
      const after = await api<{ total: number }>(
        session,
        '/models/generated-images?limit=1&offset=0',
        undefined,
        'GET',
      );
      expect(after.body.total).toBe(before.body.total + 4);
    } finally {
      await context.close();
    }
  });
});
