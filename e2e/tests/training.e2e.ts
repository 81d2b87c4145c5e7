import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCaller,
  makeTrainingPhotos,
  userWithTrainingSlot,
  waitForChecks,
  type ApiCaller,
} from '../fixtures.js';
import {
  launchBrowser,
  screenshot as saveScreenshot,
  signedInPage,
  startApp,
  type RunningApp,
} from '../harness.js';

const MOBILE = { width: 375, height: 800 };

let app: RunningApp;
let api: ApiCaller;
let browser: Browser;
let photoDir: string;
let photos: string[];

const url = (p: string) => `${app.baseUrl}${p}`;

beforeAll(async () => {
  photoDir = await mkdtemp(path.join(tmpdir(), 'studioshot-training-e2e-'));
  photos = await makeTrainingPhotos(photoDir);
  app = await startApp();
  api = apiCaller(app.baseUrl);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (photoDir) await rm(photoDir, { recursive: true, force: true });
});

async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, name);
}

interface TrainingMessage {
  type: 'training';
  job: { id: string; status: string; progress: number };
}

/** Every /ws training message the page receives, in order. */
function recordTrainingMessages(page: Page): TrainingMessage[] {
  const messages: TrainingMessage[] = [];
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { type: string };
      if (message.type === 'training') messages.push(message as TrainingMessage);
    });
  });
  return messages;
}

describe('training a personal model in the browser', () => {
  it('uploads, starts training, follows it live, and finds the model Ready on the dashboard', async () => {
    const session = await userWithTrainingSlot(api, 'Grace');
    const patched = await api(
      session,
      '/api/v1/users/profile',
      { gender: 'female', age: 52 },
      'PATCH',
    );
    expect(patched.status).toBe(200);
    const { context, page } = await signedInPage(browser, session);
    const messages = recordTrainingMessages(page);
    try {
      // The dashboard before any model: the empty state and the queue panel.
      await page.goto(url('/dashboard'));
      await page.getByRole('heading', { name: 'No Trained Models Yet' }).waitFor();
      await screenshot(page, '51-dashboard-empty');

      // Upload 12 photos; the worker checks them.
      await page.goto(url('/upload'));
      await page.getByRole('heading', { name: 'No photos yet' }).waitFor();
      const chooser = page.waitForEvent('filechooser');
      await page.getByLabel('Choose photos').focus();
      await page.keyboard.press('Enter');
      await (await chooser).setFiles(photos);
      const queue = page.getByRole('region', { name: 'Ready to upload' });
      await queue.getByRole('button', { name: 'Upload 12 photos' }).click();
      await waitForChecks(page, 12);
      const complete = page.getByRole('region', { name: 'Upload Complete' });
      await complete.getByText(/12 of 12 photos are ready for training/).waitFor();
      await complete.getByRole('button', { name: 'Start Training' }).click();

      // Name the model and start.
      await page.waitForURL((u) => u.pathname === '/training/start');
      const form = page.getByRole('form', { name: 'Start training' });
      await form.getByLabel('Model name').fill('Grace, studio portraits');
      await screenshot(page, '52-training-start');
      await form.getByRole('button', { name: 'Start Training' }).click();
      const started = page.getByRole('status').filter({ hasText: 'Training started' });
      await started.waitFor();
      // How long it takes comes from the queue's estimate, not a fixed promise: this product has
      // timed no training yet, so it says so instead of quoting a figure.
      await started
        .getByText(
          /^We have not timed a training on this engine yet, so we cannot say how long yours will take\./,
        )
        .waitFor();
      await screenshot(page, '53-training-started');

      // Follow it live on /training/{id}.
      await started.getByRole('link', { name: 'Watch live progress' }).click();
      await page.waitForURL((u) => /^\/training\/[0-9a-f-]{36}$/.test(u.pathname));
      const trainingId = new URL(page.url()).pathname.split('/')[2]!;
      // Read the page in one go each time (no waiting locators: the page moves on by itself).
      const readPage = () =>
        page.evaluate(() => ({
          value: document
            .querySelector('[role="progressbar"][aria-label="Training progress"]')
            ?.getAttribute('aria-valuenow'),
          connection: document
            .querySelector('[aria-label^="Connection:"]')
            ?.getAttribute('data-state'),
          path: window.location.pathname,
          done: document.getElementById('training-complete-title') !== null,
          failed: document.getElementById('training-failed-title')?.parentElement?.textContent,
        }));
      const seen = new Set<number>();
      let liveShot = false;
      const deadline = Date.now() + 60_000;
      for (let state = await readPage(); !state.done; state = await readPage()) {
        if (state.failed) throw new Error(`training failed: ${state.failed}\n${app.logs()}`);
        if (state.path === '/dashboard') throw new Error('left for the dashboard unseen');
        if (Date.now() > deadline) {
          throw new Error(`training did not finish: ${JSON.stringify(state)}\n${app.logs()}`);
        }
        const value = Number(state.value);
        if (value > 0 && value < 100 && state.connection === 'connected') {
          seen.add(value);
          if (!liveShot) {
            await screenshot(page, '54-training-live');
            liveShot = true;
          }
        }
        await page.waitForTimeout(25);
      }
      // The bar moved through intermediate values, pushed over /ws as the engine reported them.
      expect(seen.size).toBeGreaterThan(1);
      const pushed = messages.filter((m) => m.job.id === trainingId).map((m) => m.job.progress);
      expect(pushed.filter((p) => p > 0 && p < 100).length).toBeGreaterThan(1);
      expect(pushed).toEqual([...pushed].sort((a, b) => a - b));
      await screenshot(page, '55-training-complete');

      // Two seconds later: the dashboard, with the model Ready.
      await page.waitForURL((u) => u.pathname === '/dashboard', { timeout: 10_000 });
      const models = page.getByRole('region', { name: 'Trained Models' });
      const model = models.getByRole('article', { name: 'Grace, studio portraits' });
      await model.getByText('Ready', { exact: true }).waitFor();
      await model.getByText(trainingId.slice(0, 8)).waitFor();
      await page.getByText('All models ready!').waitFor();
      await screenshot(page, '56-dashboard-ready');
      await page.setViewportSize(MOBILE);
      await screenshot(page, '57-dashboard-ready-mobile');

      const profile = await api<{ models_trained: number; training_limit: number }>(
        session,
        '/api/v1/users/profile',
        undefined,
        'GET',
      );
      expect(profile.body.models_trained).toBe(1);
      const job = await api<{ status: string; model_path: string }>(
        session,
        `/api/v1/training/jobs/${trainingId}`,
        undefined,
        'GET',
      );
      expect(job.body.status).toBe('completed');
      expect(job.body.model_path).toMatch(/model\.npz$/);
    } finally {
      await context.close();
    }
  });
});
