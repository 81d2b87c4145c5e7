import { mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCaller,
  makeTrainingPhotos,
  userWithTrainingSlot,
  waitForChecks,
  type ApiCaller,
} from '../fixtures.js';
import {
  DESKTOP,
  launchBrowser,
  screenshot as saveScreenshot,
  startApp,
  type RunningApp,
  type Session,
} from '../harness.js';

/**
 * Keyboard only, against the real product: no click, no fill, nothing but Tab, Shift+Tab, Enter,
 * Space and the arrow keys (and typing into the focused field). One person signs in, goes to
 * /upload, opens the file chooser from the keyboard, reads why two files were not taken (one
 * refused by the page, one by the server, each with its reason beside it), uploads, starts a
 * training; then buys credits with the test card in the /credits dialog; then picks a template on
 * /generate with the arrow keys, generates with Enter and downloads a headshot. Every control
 * reached shows a visible focus (:focus-visible).
 */
const SHOTS = '/tmp/shots';
const MOBILE = { width: 375, height: 800 };
const PASSWORD = 'studio-portrait-1';

let app: RunningApp;
let api: ApiCaller;
let browser: Browser;
let photoDir: string;
let session: Session;
let context: BrowserContext;
let page: Page;
const pointerPresses: string[] = [];

const url = (p: string) => `${app.baseUrl}${p}`;

async function until<T>(read: () => Promise<T | undefined>, what: string, ms = 120_000) {
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
  photoDir = await mkdtemp(path.join(tmpdir(), 'studioshot-keyboard-e2e-'));
  app = await startApp();
  api = apiCaller(app.baseUrl);
  browser = await launchBrowser();
  // A person who bought a training and set up their profile; they sign in in the browser.
  session = await userWithTrainingSlot(api, 'Alan');
  const patched = await api(session, '/api/v1/users/profile', { gender: 'male', age: 41 }, 'PATCH');
  expect(patched.status).toBe(200);
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  // Chromium's save-file picker would open a real dialog: record what it would write instead.
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
  // Nothing in these walks may use the mouse: any pointer press on any page is recorded (a key
  // that activates a control fires a click, but never a pointer or mouse press).
  await page.exposeFunction('__pointerPressed', (what: string) => pointerPresses.push(what));
  await page.addInitScript(() => {
    for (const type of ['pointerdown', 'mousedown'])
      window.addEventListener(
        type,
        (event) => {
          if (!event.isTrusted) return;
          const target = event.target as Element | null;
          void (window as unknown as { __pointerPressed: (what: string) => void }).__pointerPressed(
            `${type} on ${target?.tagName ?? '?'} at ${location.pathname}`,
          );
        },
        true,
      );
  });
}, 240_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  if (photoDir) await rm(photoDir, { recursive: true, force: true });
});

/** A full-page shot from the top (scrolling moves no focus), in /tmp/shots and e2e/screenshots. */
async function screenshot(p: Page, name: string) {
  await p.evaluate(() => window.scrollTo(0, 0));
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  await saveScreenshot(p, name);
}

/** What has the focus, in words: for a failing walk's message. */
const focusedName = (p: Page) =>
  p.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '<body>';
    const label =
      el.getAttribute('aria-label') ??
      (el as HTMLInputElement).labels?.[0]?.textContent ??
      el.textContent ??
      '';
    return `${el.tagName.toLowerCase()} "${label.trim().slice(0, 60)}"`;
  });

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, and checks the focus is
 * visible there; fails after `max` presses, naming the stops on the way.
 */
async function tabTo(p: Page, target: Locator, { back = false, max = 80 } = {}) {
  const element = await target.elementHandle();
  if (!element) throw new Error('no such element');
  const stops: string[] = [];
  for (let i = 0; i < max; i++) {
    await p.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await element.evaluate((el) => el === document.activeElement)) {
      expect(
        await element.evaluate((el) => el.matches(':focus-visible')),
        `focus visible on ${await focusedName(p)}`,
      ).toBe(true);
      return;
    }
    stops.push(await focusedName(p));
  }
  throw new Error(`Tab never reached the target; stops: ${stops.join(' > ')}`);
}

const focusIs = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** After a route change the new page's heading has the focus (the route announcer). */
async function headingFocused(p: Page) {
  await p.waitForFunction(() => document.activeElement?.tagName === 'H1');
}

describe('keyboard only', () => {
  it('signs in with Tab, typing and Enter, and lands on the dashboard', async () => {
    await page.goto(url('/auth'));
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.waitFor();
    await tabTo(page, form.getByLabel('Email'));
    await page.keyboard.type(session.user.email);
    await tabTo(page, form.getByLabel('Password', { exact: true }));
    await page.keyboard.type(PASSWORD);
    // Space on the eye shows the password, and again hides it.
    await tabTo(page, form.getByRole('button', { name: 'Show password' }));
    await page.keyboard.press('Space');
    expect(await form.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.keyboard.press('Space');
    expect(await form.getByLabel('Password', { exact: true }).getAttribute('type')).toBe(
      'password',
    );
    await screenshot(page, 'kbd-10-sign-in');
    // Enter in a field submits the form.
    await tabTo(page, form.getByLabel('Password', { exact: true }), { back: true });
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await headingFocused(page);
    await page.getByRole('heading', { name: /^Welcome, Alan/ }).waitFor();
  });

  it('uploads from the keyboard: file chooser, refusals listed with their reasons, then training', async () => {
    // From the dashboard: Train New Model.
    await tabTo(page, page.getByRole('button', { name: '+ Train New Model' }));
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/upload');
    await headingFocused(page);

    const photos = await makeTrainingPhotos(photoDir);
    // Not a picture: refused by the page. A JPEG name over bytes that are no image: refused by the
    // server for good.
    const notes = path.join(photoDir, 'notes.txt');
    await writeFile(notes, 'shopping list\n');
    const broken = path.join(photoDir, 'broken.jpg');
    await writeFile(broken, Buffer.alloc(4096, 'not a picture '));

    const picker = page.getByLabel('Choose photos');
    // Listen before the Tab presses: the browser intercepts file choosers only once the listener's
    // request has reached it, and a Space sent straight after it can open the chooser first (the
    // event then never comes).
    const chooserOpened = page.waitForEvent('filechooser');
    await tabTo(page, picker);
    await page.keyboard.press('Space');
    const chooser = await chooserOpened;
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles([...photos, notes, broken]);

    // The page's refusal stays beside the drop zone, with the file's name and reason.
    const notAdded = page.getByRole('region', { name: '1 file was not added' });
    await notAdded.getByText('notes.txt').waitFor();
    expect(await notAdded.getByRole('listitem').innerText()).toBe(
      'notes.txt: Please only upload image files',
    );
    const queue = page.getByRole('region', { name: 'Ready to upload' });
    const upload = queue.getByRole('button', { name: 'Upload 13 photos' });
    await upload.waitFor();
    await screenshot(page, 'kbd-20-upload-picked');

    // Dismiss puts the focus back on the picker.
    await tabTo(page, notAdded.getByRole('button', { name: 'Dismiss' }));
    await page.keyboard.press('Enter');
    await notAdded.waitFor({ state: 'detached' });
    expect(await focusIs(picker)).toBe(true);

    await tabTo(page, upload);
    await page.keyboard.press('Enter');
    await waitForChecks(page, 12);
    // The server refused broken.jpg: its reason stays on its card, with Remove and no Retry.
    const refused = page.getByRole('article', { name: 'broken.jpg' });
    await refused.getByText(/^Refused:/).waitFor();
    expect(await refused.getAttribute('data-upload-state')).toBe('rejected');
    expect(await page.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    expect(await refused.getByRole('img').count()).toBe(0);
    const complete = page.getByRole('region', { name: 'Upload Complete' });
    await complete.waitFor();
    await screenshot(page, 'kbd-21-upload-refused');
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'kbd-21-upload-refused-mobile');
    await page.setViewportSize(DESKTOP);

    await tabTo(page, refused.getByRole('button', { name: 'Remove broken.jpg' }));
    await page.keyboard.press('Enter');
    await refused.waitFor({ state: 'detached' });
    // The button went with its card: the focus did not fall to the page.
    expect(await focusedName(page)).not.toBe('<body>');

    // Start Training is above: Shift+Tab back to it.
    await tabTo(page, complete.getByRole('button', { name: 'Start Training' }), { back: true });
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/training/start');
    await headingFocused(page);
    const startForm = page.getByRole('form', { name: 'Start training' });
    await tabTo(page, startForm.getByRole('textbox', { name: 'Model name' }));
    expect(await startForm.getByRole('textbox', { name: 'Model name' }).inputValue()).not.toBe('');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Training started' }).waitFor();
    await screenshot(page, 'kbd-22-training-started');

    const jobs = await until(async () => {
      const read = await api<{ jobs: { status: string }[] }>(
        session,
        '/api/v1/training/jobs',
        undefined,
        'GET',
      );
      const job = read.body.jobs[0];
      return job && ['completed', 'failed'].includes(job.status) ? read.body.jobs : undefined;
    }, 'the training');
    expect(jobs[0]).toMatchObject({ status: 'completed' });
  });

  it('buys credits in the /credits dialog with the test card', async () => {
    await page.goto(url('/credits'));
    await page.getByRole('heading', { name: 'Buy Credits' }).waitFor();
    const starter = page.getByRole('article', { name: 'Starter Pack' });
    await tabTo(page, starter.getByRole('button', { name: 'Buy Now' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Buy the Starter Pack' });
    await dialog.waitFor();
    const card = dialog.getByRole('form', { name: 'Card details' });
    await tabTo(page, card.getByLabel('Name on card'));
    await page.keyboard.type('Alan Turing');
    await tabTo(page, card.getByLabel('Card number'));
    await page.keyboard.type('4242424242424242');
    await tabTo(page, card.getByLabel('Expiry (MM/YY)'));
    await page.keyboard.type('1234');
    await tabTo(page, card.getByLabel('CVC'));
    await page.keyboard.type('123');
    expect(await card.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    expect(await card.getByLabel('Expiry (MM/YY)').inputValue()).toBe('12/34');
    const pay = dialog.getByRole('button', { name: 'Pay $9.99' });
    await tabTo(page, pay);
    await screenshot(page, 'kbd-30-credits-card');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/generate-trained', { timeout: 20_000 });
    await page.getByText('Purchase successful! 20 credits have been added.').waitFor();
    const profile = await api<{ credits_balance: number }>(
      session,
      '/api/v1/users/profile',
      undefined,
      'GET',
    );
    expect(profile.body.credits_balance).toBe(20);
  });

  it('generates on /generate with the arrow keys and Enter, and downloads a headshot', async () => {
    await page.goto(url('/generate'));
    const generate = page.getByRole('button', { name: 'Generate AI Headshot' });
    await generate.waitFor();
    await page.getByText('20 credits', { exact: true }).waitFor();
    const counter = page.getByText(/^Template \d+ of \d+$/);
    const total = (await counter.innerText()).replace(/^Template 1 of /, '');

    /**
     * One arrow press; then the slide it started ends and the carousel's 300 ms lock (Date.now()
     * from the key press) has passed, so the next press is a move.
     */
    const move = async (key: 'ArrowLeft' | 'ArrowRight', expected: number) => {
      await page.evaluate(() => {
        const w = window as unknown as { __moved: Promise<void>; __pressedAt: number };
        const stage = document.querySelector('[data-testid="carousel-stage"]')!;
        w.__moved = new Promise((resolve) =>
          stage.addEventListener('transitionend', () => resolve(), { once: true }),
        );
        window.addEventListener('keydown', () => (w.__pressedAt = Date.now()), {
          capture: true,
          once: true,
        });
      });
      await page.keyboard.press(key);
      await page.getByText(`Template ${expected} of ${total}`, { exact: true }).waitFor();
      await page.evaluate(() => (window as unknown as { __moved: Promise<void> }).__moved);
      await page.waitForFunction(
        (lockMs) =>
          Date.now() >= (window as unknown as { __pressedAt: number }).__pressedAt + lockMs + 5,
        300,
      );
    };
    await move('ArrowRight', 2);
    await move('ArrowRight', 3);
    await move('ArrowLeft', 2);
    // Wrap-around from the first to the last.
    await move('ArrowLeft', 1);
    await move('ArrowLeft', Number(total));
    const chosen = await page.locator('#template-title').innerText();

    // Enter generates (focus is on the page, not on a control that has its own use for Enter).
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Generating...' }).waitFor();
    await page.waitForFunction(
      () =>
        document.getElementById('results-title') !== null ||
        document.getElementById('generation-failed-title') !== null,
      undefined,
      { timeout: 120_000 },
    );
    const results = page.getByRole('region', { name: 'Your AI Headshots' });
    expect(await results.count(), app.logs()).toBe(1);
    await results
      .getByText(new RegExp(`4 headshots from ${chosen.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
      .waitFor();
    await page.waitForFunction(() =>
      Array.from(
        document.querySelectorAll<HTMLImageElement>('[aria-labelledby="results-title"] img'),
      ).every((img) => img.complete && img.naturalWidth === 1024),
    );

    await tabTo(page, results.getByRole('button', { name: 'Download Headshot 1' }));
    await screenshot(page, 'kbd-40-generate-results');
    await page.keyboard.press('Enter');
    await page.getByText('Headshot saved.').waitFor();
    const saved = await page.evaluate(
      () => (window as unknown as { __saved: { type: string; head: number[] }[] }).__saved,
    );
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ type: 'image/jpeg', head: [0xff, 0xd8] });
  });

  it('used no mouse in any of the walks', () => {
    expect(pointerPresses).toEqual([]);
  });
});
