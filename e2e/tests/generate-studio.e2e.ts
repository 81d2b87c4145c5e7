import AxeBuilder from '@axe-core/playwright';
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
 * The /generate template studio against the real product: a user whose model the worker trained
 * from real photos picks a template in the carousel (category chip, arrow key, Next, a variant),
 * generates with live progress, gets four headshots of that template, downloads one, and the
 * credit is spent. Screenshots at 1280 and 375 px, axe on both.
 */
const SHOTS = '/tmp/shots';
const MOBILE = { width: 375, height: 800 };

let app: RunningApp;
let api: ApiCaller;
let browser: Browser;
let photoDir: string;
let session: Session;

const url = (p: string) => `${app.baseUrl}${p}`;

async function until<T>(read: () => Promise<T | undefined>, what: string, ms = 90_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${app.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A woman's account with a model trained by the worker from 12 real photos, and 20 credits. */
async function trainedUserWithCredits(): Promise<Session> {
  const user = await userWithTrainingSlot(api, 'Grace');
  const patched = await api(user, '/api/v1/users/profile', { gender: 'female', age: 45 }, 'PATCH');
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
    model_name: 'Grace, studio portraits',
    session_id: sessionId,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const job = await until(async () => {
    const read = await api<{ status: string }>(
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
    card: { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Grace Hopper' },
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
  photoDir = await mkdtemp(path.join(tmpdir(), 'studioshot-studio-e2e-'));
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

async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  await saveScreenshot(page, name);
}

/** At 375 px: a screenshot, no sideways scrolling, and no serious or critical axe violation. */
async function checkMobile(page: Page, name: string) {
  await page.setViewportSize(MOBILE);
  await page.waitForTimeout(350);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(MOBILE.width);
  await checkAxe(page);
  await screenshot(page, name);
  await page.setViewportSize(DESKTOP);
  await page.waitForTimeout(350);
}

async function checkAxe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
}

interface SavedFile {
  name: string;
  type: string;
  size: number;
  head: number[];
}

/** Chromium's save-file picker would open a real dialog: record what it would write instead. */
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

describe('the template studio in the browser', () => {
  it('picks a template on /generate, generates with live progress, and gets 4 headshots of it', async () => {
    const { context, page } = await signedInPage(browser, session);
    await stubSavePicker(page);
    const counter = page.getByText(/^Template \d+ of \d+$/);
    try {
      await page.goto(url('/generate'));
      const generate = page.getByRole('button', { name: 'Generate AI Headshot' });
      await generate.waitFor();
      await page.getByText('20', { exact: true }).waitFor();
      // The profile says female; one model, so no picker.
      expect(await page.getByRole('button', { name: 'Female' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      expect(await page.getByLabel('Trained model').count()).toBe(0);
      expect(await counter.innerText()).toBe('Template 1 of 30');
      // Every template picture on show really loaded, at 400x450.
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>('[data-testid="carousel-stage"] img'),
        )
          .filter((img) => img.closest('[data-offset="0"], [data-offset="1"], [data-offset="-1"]'))
          .every((img) => img.complete && img.naturalWidth === 400 && img.naturalHeight === 450),
      );
      await checkAxe(page);
      await screenshot(page, '70-generate-studio');
      await checkMobile(page, '70-generate-studio-mobile');

      await page.getByRole('button', { name: 'Executive / Leadership' }).click();
      await page.getByText('Template 1 of 10', { exact: true }).waitFor();
      // The arrow key moves the carousel; Next after the 300 ms lock.
      await page.locator('h1').click();
      await page.keyboard.press('ArrowRight');
      await page.getByText('Template 2 of 10', { exact: true }).waitFor();
      await page.waitForTimeout(350);
      await page.getByRole('button', { name: 'Next template' }).click();
      await page.getByText('Template 3 of 10', { exact: true }).waitFor();
      const variants = page.getByRole('group', { name: 'Variants of Warm Walnut Boardroom' });
      await variants.getByRole('button', { name: 'Dramatic' }).click();
      expect(
        await variants.getByRole('button', { name: 'Dramatic' }).getAttribute('aria-pressed'),
      ).toBe('true');

      await generate.click();
      await page.getByRole('button', { name: 'Generating...' }).waitFor();
      const readPage = () =>
        page.evaluate(() => ({
          value:
            document
              .querySelector('[role="progressbar"][aria-label="Generation progress"]')
              ?.getAttribute('aria-valuenow') ?? null,
          done: document.getElementById('results-title') !== null,
          failed: document.getElementById('generation-failed-title')?.parentElement?.textContent,
        }));
      const seen: number[] = [];
      let progressShot = false;
      const deadline = Date.now() + 120_000;
      for (let state = await readPage(); !state.done; state = await readPage()) {
        if (state.failed) throw new Error(`generation failed: ${state.failed}\n${app.logs()}`);
        if (Date.now() > deadline) throw new Error(`no headshots came\n${app.logs()}`);
        if (state.value !== null) {
          seen.push(Number(state.value));
          if (!progressShot && Number(state.value) > 0) {
            await screenshot(page, '71-generate-studio-progress');
            progressShot = true;
          }
        }
        await page.waitForTimeout(25);
      }
      // The bar showed the worker's progress before the images came.
      expect(seen.length).toBeGreaterThan(0);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));

      const results = page.getByRole('region', { name: 'Your AI Headshots' });
      expect(await results.getByRole('article').count()).toBe(4);
      await results.getByText(/4 headshots from Warm Walnut Boardroom \(Dramatic\)/).waitFor();
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>('[aria-labelledby="results-title"] img'),
        ).every((img) => img.complete && img.naturalWidth === 1024),
      );
      // One credit spent.
      await page.getByText('19', { exact: true }).waitFor();
      await checkAxe(page);
      await screenshot(page, '72-generate-studio-results');
      await checkMobile(page, '72-generate-studio-results-mobile');

      // The server rendered the template and variant chosen.
      const listed = await api<{ images: { template_id: string; variant: number }[] }>(
        session,
        '/models/generated-images?limit=10&offset=0',
        undefined,
        'GET',
      );
      expect(listed.body.images).toHaveLength(4);
      for (const image of listed.body.images) {
        expect(image).toMatchObject({ template_id: 'prof_33', variant: 1 });
      }

      await results.getByRole('button', { name: 'Download Headshot 1' }).click();
      await page.getByText('Headshot saved.').waitFor();
      const saved = await page.evaluate(
        () => (window as unknown as { __saved: SavedFile[] }).__saved,
      );
      expect(saved).toHaveLength(1);
      expect(saved[0]).toMatchObject({ type: 'image/jpeg', head: [0xff, 0xd8] });
      expect(saved[0]!.name).toMatch(/^headshot-[0-9a-f]{8}-1\.jpg$/);

      await page.getByRole('button', { name: 'Generate More' }).click();
      await results.waitFor({ state: 'detached' });
      expect(await generate.isEnabled()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
