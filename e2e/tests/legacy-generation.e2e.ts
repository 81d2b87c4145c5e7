import { createDb, type Db } from '@studioshot/db';
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCaller,
  makeTrainingPhotos,
  uniqueEmail,
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
 * The landing page's Get Started, followed in the browser for each of its cases (signed out, a
 * running or pending training, a completed one, trainings that all failed, a model without a
 * training job, nothing at all, and the jobs call failing); and the legacy pages against the real
 * API, worker and studio engine: /generate-simple makes four headshots from a style for a user
 * with photos and no model, with live progress; once that user has a model it sends them to
 * /generate-trained, and /generate-trained-old generates with the model.
 */
const SHOTS = '/tmp/shots';
const MOBILE = { width: 375, height: 800 };

let app: RunningApp;
let api: ApiCaller;
let browser: Browser;
let db: Db;
let photoDir: string;

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

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  photoDir = await mkdtemp(path.join(tmpdir(), 'studioshot-legacy-e2e-'));
  app = await startApp();
  api = apiCaller(app.baseUrl);
  browser = await launchBrowser();
  db = createDb(app.databaseUrl, { max: 2 });
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await browser?.close();
  await app?.stop();
  if (photoDir) await rm(photoDir, { recursive: true, force: true });
});

/** Full-page shots at 1280 and 375 px: in /tmp/shots to look at, and in e2e/screenshots. */
async function shots(page: Page, name: string) {
  for (const [viewport, suffix] of [
    [DESKTOP, ''],
    [MOBILE, '-mobile'],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `${name}${suffix}.png`), fullPage: true });
    await saveScreenshot(page, `${name}${suffix}`);
  }
  await page.setViewportSize(DESKTOP);
}

async function register(name: string): Promise<Session> {
  const registered = await api<Session>(null, '/api/v1/auth/register', {
    email: uniqueEmail(name.toLowerCase()),
    password: 'studio-portrait-1',
    name,
  });
  expect(registered.status).toBe(201);
  return registered.body;
}

type TaskStatus = 'queued' | 'running' | 'completed' | 'failed';

/** A model row, and (unless `task` is null) its training task, as a training leaves them. */
async function seedModel(userId: string, task: TaskStatus | null): Promise<string> {
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
      message: task === 'failed' ? 'Training failed' : null,
      error_message: task === 'failed' ? 'No usable face in the photos' : null,
      model_id: id,
      params: JSON.stringify({ model_id: id }),
      started_at: task === 'queued' ? null : new Date(),
      completed_at: task === 'completed' || task === 'failed' ? new Date() : null,
    })
    .execute();
  return id;
}

/** Clicks the landing page's signed-in Get Started and waits for where it leads. */
async function followGetStarted(page: Page, expected: string, shot: string) {
  await page.goto(url('/'));
  const cta = page.getByRole('region', { name: 'Ready for your next set of headshots?' });
  await cta.getByRole('button', { name: 'Get Started' }).click();
  await page.waitForURL((u) => u.pathname === expected, { timeout: 15_000 });
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await shots(page, shot);
}

describe('Get Started on the landing page', () => {
  it('signed out: remembers /pricing and goes to /auth', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await page.goto(url('/'));
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: 'Get Started' })
        .click();
      await page.waitForURL((u) => u.pathname === '/auth');
      expect(await page.evaluate(() => localStorage.getItem('authRedirect'))).toBe('/pricing');
      await page.locator('h1').first().waitFor();
      await shots(page, 'get-started-signed-out');
    } finally {
      await context.close();
    }
  });

  const cases: {
    name: string;
    seed: (userId: string) => Promise<string | null>;
    to: (seeded: string | null) => string;
  }[] = [
    {
      name: 'a running training goes to its live status',
      seed: (user) => seedModel(user, 'running'),
      to: (id) => `/training/${id}`,
    },
    {
      name: 'a pending training goes to its live status',
      seed: (user) => seedModel(user, 'queued'),
      to: (id) => `/training/${id}`,
    },
    {
      name: 'a completed training goes to /generate',
      seed: (user) => seedModel(user, 'completed'),
      to: () => '/generate',
    },
    {
      name: 'trainings that all failed go to /pricing',
      seed: (user) => seedModel(user, 'failed'),
      to: () => '/pricing',
    },
    {
      name: 'no training job but a model goes to /generate',
      seed: (user) => seedModel(user, null),
      to: () => '/generate',
    },
    {
      name: 'no jobs and no models go to /dashboard',
      seed: async () => null,
      to: () => '/dashboard',
    },
  ];
  for (const [index, testCase] of cases.entries()) {
    it(`signed in: ${testCase.name}`, async () => {
      const session = await register(`Starter${index}`);
      const seeded = await testCase.seed(session.user.id);
      const { context, page } = await signedInPage(browser, session);
      try {
        const target = testCase.to(seeded);
        await followGetStarted(
          page,
          target,
          `get-started-${target.split('/')[1]}-${testCase.name.split(' ').slice(0, 3).join('-')}`,
        );
      } finally {
        await context.close();
      }
    });
  }

  it('signed in: the jobs call failing goes to /pricing', async () => {
    const session = await register('Starter-error');
    const { context, page } = await signedInPage(browser, session);
    try {
      await page.route('**/api/v1/training/jobs', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ detail: 'Internal error', code: 'internal' }),
        }),
      );
      await followGetStarted(page, '/pricing', 'get-started-pricing-error');
    } finally {
      await context.close();
    }
  });
});

/** Photos uploaded and checked through the API; returns the still open upload session. */
async function uploadPhotos(user: Session): Promise<string> {
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
  return sessionId;
}

async function buyCredits(user: Session) {
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
}

/**
 * Clicks Generate and follows the page until the results heading shows, reading the progress
 * bar as it goes; fails with the page's failure text and the app's logs.
 */
async function generateAndWatch(page: Page, button: string, progressShot: string) {
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('button', { name: 'Generating...' }).waitFor();
  const readPage = () =>
    page.evaluate(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Generation progress"]');
      return {
        value: bar?.getAttribute('aria-valuenow') ?? null,
        done: document.getElementById('results-title') !== null,
        failed: document.getElementById('generation-failed-title')?.parentElement?.textContent,
      };
    });
  const seen: number[] = [];
  let shot = false;
  const deadline = Date.now() + 120_000;
  for (let state = await readPage(); !state.done; state = await readPage()) {
    if (state.failed) throw new Error(`generation failed: ${state.failed}\n${app.logs()}`);
    if (Date.now() > deadline) throw new Error(`no headshots came\n${app.logs()}`);
    if (state.value !== null) {
      seen.push(Number(state.value));
      if (!shot && Number(state.value) > 0) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(SHOTS, `${progressShot}.png`), fullPage: true });
        await saveScreenshot(page, progressShot);
        shot = true;
      }
    }
    await page.waitForTimeout(25);
  }
  return seen;
}

async function expectFourLoadedImages(page: Page) {
  const results = page.getByRole('region', { name: 'Your Headshots' });
  expect(await results.getByRole('article').count()).toBe(4);
  await page.waitForFunction(() =>
    Array.from(
      document.querySelectorAll<HTMLImageElement>('[aria-labelledby="results-title"] img'),
    ).every((img) => img.complete && img.naturalWidth === 1024),
  );
  return results;
}

describe('the legacy generation pages', () => {
  it('/generate-simple generates from a style; with a model it leads to /generate-trained, and /generate-trained-old generates with it', async () => {
    const user = await userWithTrainingSlot(api, 'Grace');
    const patched = await api(
      user,
      '/api/v1/users/profile',
      { gender: 'female', age: 38 },
      'PATCH',
    );
    expect(patched.status).toBe(200);
    const sessionId = await uploadPhotos(user);
    await buyCredits(user);

    const { context, page } = await signedInPage(browser, user);
    try {
      // The style page: no model yet, so the headshots come from the best checked photo.
      await page.goto(url('/generate-simple'));
      await page.getByRole('heading', { level: 1, name: 'Generate Headshots' }).waitFor();
      await page.getByText('20', { exact: true }).waitFor();
      await page.getByText('Grace', { exact: true }).first().waitFor();
      const styles = page.getByRole('group', { name: 'Style' });
      await styles.getByText('Professional / Corporate').waitFor();
      expect(await styles.getByRole('radio').count()).toBe(3);
      expect(await page.getByLabel('Describe Your Ideal Shot').inputValue()).toBe(
        'professional headshot in business attire',
      );
      await page.waitForLoadState('networkidle');
      await shots(page, 'legacy-generate-simple-idle');

      await styles.getByText('Creative / Modern').click();
      const seen = await generateAndWatch(
        page,
        'Generate 4 Headshots (1 credit)',
        'legacy-generate-simple-progress',
      );
      // Live progress from the worker before the images came, never going backwards.
      expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      const results = await expectFourLoadedImages(page);
      await results.getByText('Best likeness', { exact: true }).waitFor();
      expect(await results.getByRole('img').first().getAttribute('alt')).toBe(
        'Headshot 1, Creative / Modern style',
      );
      // One credit spent.
      await page.getByText('19', { exact: true }).waitFor();
      await shots(page, 'legacy-generate-simple-results');

      // Now train a model from the same photos: the style page is for users without one.
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

      await page.goto(url('/generate-simple'));
      await page.waitForURL((u) => u.pathname === '/generate-trained');
      await page.getByRole('button', { name: 'Generate Premium Headshots' }).waitFor();

      // The classic trained-model page, on the same call as /generate-trained.
      await page.goto(url('/generate-trained-old'));
      await page.getByRole('heading', { level: 1, name: 'Generate with Your Model' }).waitFor();
      const model = page.getByRole('group', { name: 'Choose your model' });
      expect(await model.getByRole('radio').count()).toBe(1);
      expect(await model.getByRole('radio').isChecked()).toBe(true);
      await model.getByText('Grace, studio portraits').waitFor();
      await page.getByRole('group', { name: 'Choose a style' }).getByText('Executive').waitFor();
      await page.waitForLoadState('networkidle');
      await shots(page, 'legacy-generate-trained-old-idle');
      await page
        .getByRole('group', { name: 'Choose a style' })
        .getByText('Executive / Leadership')
        .click();
      const classicSeen = await generateAndWatch(
        page,
        'Generate Headshots',
        'legacy-generate-trained-old-progress',
      );
      expect(classicSeen.length).toBeGreaterThan(0);
      await expectFourLoadedImages(page);
      await page.getByText('18', { exact: true }).waitFor();
      await shots(page, 'legacy-generate-trained-old-results');
    } finally {
      await context.close();
    }
  });
});
