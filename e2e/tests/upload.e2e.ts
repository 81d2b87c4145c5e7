import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  launchBrowser,
  screenshot as saveScreenshot,
  SCREENSHOTS,
  startApp,
  signedInPage,
  type RunningApp,
} from '../harness.js';
import {
  apiCaller,
  makeTrainingPhotos,
  userWithTrainingSlot,
  waitForChecks,
  type ApiCaller,
} from '../fixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.join(ROOT, 'apps/worker/test/fixtures');
const TABLET = { width: 768, height: 1024 };
const MOBILE = { width: 375, height: 800 };

let app: RunningApp;
let api: ApiCaller;
let browser: Browser;
let photoDir: string;
let photos: string[];

const url = (p: string) => `${app.baseUrl}${p}`;

/** Two people: the single-face check must fail. */
const GROUP_SHOT = path.join(FIXTURES, 'two-faces.jpg');
/** Someone else's portrait: the same-person check flags it among the astronaut's. */
const SOMEONE_ELSE = path.join(FIXTURES, 'other-person.jpg');

beforeAll(async () => {
  photoDir = await mkdtemp(path.join(tmpdir(), 'studioshot-upload-e2e-'));
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

/** Full-page shots from the top, so the sticky header does not sit over the middle. */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, name);
}

async function shotAt(page: Page, viewport: { width: number; height: number }, name: string) {
  await page.setViewportSize(viewport);
  await screenshot(page, name);
  await page.setViewportSize(DESKTOP);
}

/** Each uploaded photo's name and check state, as its card shows them. */
function photoStates(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() =>
    Object.fromEntries(
      Array.from(document.querySelectorAll<HTMLElement>('article[data-state]')).map((card) => [
        document.getElementById(card.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
        card.dataset.state ?? '',
      ]),
    ),
  );
}

/** Drags a file from "the desktop" onto the drop zone. */
async function dropFile(page: Page, file: string, name: string) {
  const bytes = (await readFile(file)).toString('base64');
  const dataTransfer = await page.evaluateHandle(
    ({ b64, filename }) => {
      const binary = atob(b64);
      const data = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i);
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], filename, { type: 'image/jpeg' }));
      return transfer;
    },
    { b64: bytes, filename: name },
  );
  const zone = page.getByRole('region', { name: 'Add photos' });
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.getByText('Drop to add your photos').waitFor();
  await zone.dispatchEvent('drop', { dataTransfer });
}

describe('upload in the browser', () => {
  it('asks for the profile first: gender required, age optional 18-100', async () => {
    const session = await userWithTrainingSlot(api, 'Rosalind');
    const { context, page } = await signedInPage(browser, session);
    try {
      await page.goto(url('/upload'));
      const dialog = page.getByRole('dialog', { name: 'Set up your profile' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Save and continue' }).click();
      await dialog.getByText('Please choose male or female').waitFor();
      await dialog.getByLabel('Female').check();
      await dialog.getByLabel('Age (optional)').fill('120');
      await dialog.getByRole('button', { name: 'Save and continue' }).click();
      await dialog.getByText('Age must be between 18 and 100').waitFor();
      // The viewport only: a modal dims the screen, not the whole page.
      await page.screenshot({ path: path.join(SCREENSHOTS, '40-upload-profile-setup.png') });

      await dialog.getByLabel('Age (optional)').fill('37');
      await dialog.getByRole('button', { name: 'Save and continue' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const profile = await api<{ gender: string; age: number }>(
        session,
        '/api/v1/users/profile',
        undefined,
        'GET',
      );
      expect(profile.body).toMatchObject({ gender: 'female', age: 37 });
    } finally {
      await context.close();
    }
  });

  it('uploads 12 photos, shows every check, removes one, and reaches Upload Complete', async () => {
    const session = await userWithTrainingSlot(api, 'Dorothy');
    const patched = await api(
      session,
      '/api/v1/users/profile',
      { gender: 'female', age: 41 },
      'PATCH',
    );
    expect(patched.status).toBe(200);
    const { context, page } = await signedInPage(browser, session);
    try {
      await page.goto(url('/upload'));
      await page.getByRole('heading', { name: 'Upload your photos' }).waitFor();
      await page.getByRole('heading', { name: 'No photos yet' }).waitFor();
      await page.getByRole('region', { name: 'Your photo set' }).getByText('0/1').waitFor();
      await screenshot(page, '41-upload-empty');
      await shotAt(page, MOBILE, '42-upload-empty-mobile');

      // Keyboard: Tab to the picker, Enter opens it. The two large photos are optimised first.
      const chooser = page.waitForEvent('filechooser');
      await page.getByLabel('Choose photos').focus();
      await page.keyboard.press('Enter');
      await (await chooser).setFiles(photos);
      const queue = page.getByRole('region', { name: 'Ready to upload' });
      await queue.getByRole('article').nth(11).waitFor();
      expect(await queue.getByRole('article').count()).toBe(12);
      await queue
        .getByText(/optimized from/)
        .first()
        .waitFor();
      await screenshot(page, '43-upload-queue');
      await shotAt(page, TABLET, '44-upload-queue-tablet');

      await queue.getByRole('button', { name: 'Upload 12 photos' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
      await screenshot(page, '45-upload-progress');

      // Every photo goes up, then every check finishes (the worker runs them).
      const uploaded = page.getByRole('region', { name: 'Uploaded photos' });
      await uploaded.getByRole('article').nth(11).waitFor({ timeout: 60_000 });
      await queue.waitFor({ state: 'detached', timeout: 60_000 });
      await waitForChecks(page, 12);
      const states = await photoStates(page);
      expect(Object.keys(states).sort()).toEqual(
        Array.from({ length: 12 }, (_, i) => {
          const n = String(i + 1).padStart(2, '0');
          return n === '07' || n === '12' ? `portrait-${n}_optimized.jpg` : `portrait-${n}.jpg`;
        }),
      );
      expect(Object.values(states)).toEqual(Array.from({ length: 12 }, () => 'usable'));
      // The sideways JPEG arrived upright (landscape), scaled to fit 1024x1024.
      const sideways = uploaded.getByRole('article', { name: 'portrait-07_optimized.jpg' });
      await sideways.getByText('All checks passed · 1024×896 px').waitFor();
      // Each card shows its verdict and checks beside the thumbnail, which loads.
      const first = uploaded.getByRole('article', { name: 'portrait-01.jpg' });
      await first.getByText('Usable', { exact: true }).waitFor();
      await first.getByText('All checks', { exact: true }).focus();
      await page.keyboard.press('Enter');
      await first.getByText('Matches your other photos').waitFor();
      const thumbnail = first.getByRole('img', { name: 'Thumbnail of portrait-01.jpg' });
      expect(
        await thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      ).toBe(true);
      const complete = page.getByRole('region', { name: 'Upload Complete' });
      await complete.getByText(/12 of 12 photos are ready for training/).waitFor();
      await screenshot(page, '46-upload-checked');
      await shotAt(page, MOBILE, '47-upload-checked-mobile');

      // Upload More Photos opens the picker; this time the photo comes by drag and drop instead:
      // a group shot, which the checks flag.
      const picker = page.waitForEvent('filechooser');
      await complete.getByRole('button', { name: 'Upload More Photos' }).click();
      expect((await picker).isMultiple()).toBe(true);
      await dropFile(page, GROUP_SHOT, 'group-shot.jpg');
      await queue.getByRole('article', { name: 'group-shot.jpg' }).waitFor();
      await queue.getByRole('button', { name: 'Upload 1 photo' }).click();
      const group = uploaded.getByRole('article', { name: 'group-shot.jpg' });
      await group.waitFor({ timeout: 30_000 });
      await waitForChecks(page, 13);
      await group.getByText('Needs attention').waitFor();
      await group
        .getByRole('list', { name: 'Failed checks' })
        .getByText(/We found 2 faces/)
        .waitFor();
      await group.getByText(/There is more than one person in this photo/).waitFor();
      await complete.getByText(/12 of 13 photos are ready for training/).waitFor();
      await group.scrollIntoViewIfNeeded();
      await screenshot(page, '48-upload-needs-attention');

      // Remove it after upload: DELETE, and the set is back to 12 usable photos.
      await group.getByRole('button', { name: 'Remove group-shot.jpg' }).click();
      await group.waitFor({ state: 'detached' });
      await expect(uploaded.getByRole('article').count()).resolves.toBe(12);
      await page.getByRole('region', { name: 'Your photo set' }).getByText('12 / 20').waitFor();
      await complete.getByText(/12 of 12 photos are ready for training/).waitFor();

      // A face the same-person check does not recognise is a warning, never a silent drop: the
      // user answers "This is me" and the photo counts.
      await dropFile(page, SOMEONE_ELSE, 'me-at-the-lake.jpg');
      await queue.getByRole('button', { name: 'Upload 1 photo' }).click();
      const flagged = uploaded.getByRole('article', { name: 'me-at-the-lake.jpg' });
      await flagged.waitFor({ timeout: 30_000 });
      await waitForChecks(page, 13);
      await flagged.getByText('Needs attention').waitFor();
      const warning = flagged.getByRole('group', { name: 'Same-person check' });
      await warning.getByText(/Matches \d+ of your 12 other photos/).waitFor();
      await complete.getByText(/12 of 13 photos are ready for training/).waitFor();
      await warning.getByRole('button', { name: 'This is me' }).click();
      await warning.getByText('You confirmed this is you.').waitFor();
      await flagged.getByText('Usable', { exact: true }).waitFor();
      await complete.getByText(/13 of 13 photos are ready for training/).waitFor();
      await screenshot(page, '49-upload-complete');
      await shotAt(page, MOBILE, '50-upload-complete-mobile');

      const sessionId = new URL(page.url()).searchParams.get('session');
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      await complete.getByRole('button', { name: 'Start Training' }).click();
      await page.waitForURL((u) => u.pathname === '/training/start');
      expect(new URL(page.url()).searchParams.get('session')).toBe(sessionId);
      const summary = await api<{ status: string }>(
        session,
        `/api/v1/upload/sessions/${sessionId}`,
        undefined,
        'GET',
      );
      expect(summary.body.status).toBe('completed');
    } finally {
      await context.close();
    }
  });
});
