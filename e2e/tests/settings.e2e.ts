// The account settings page, 'Download my data', the privacy page and account deletion, in
// Chromium against the built product: a person signed in on this browser and, through the API,
// on a phone; every step is checked in the page and against the API, with screenshots at 1280
// and 375 px.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  makeTrainingPhotos,
  pageShots,
  setProfile,
  startProduct,
  userWithTrainingSlot,
  type Product,
  uploadPhoto,
} from '../fixtures.js';
import { DESKTOP, type Session } from '../harness.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIRST_PASSWORD = 'studio-portrait-1';
const NEW_PASSWORD = 'a-much-better-secret';

let product: Product;
let page: Page;
let person: Session;
let email: string;
let photoNames: string[];

/** The entry names of a zip file, read with yauzl. */
function zipEntries(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Signs in on the /auth page of this browser. */
async function signInHere(password: string): Promise<void> {
  await page.goto(product.url('/auth'));
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((u) => u.pathname !== '/auth');
}

/** A sign-in made elsewhere: the API, as a phone's browser would. */
async function signInOnPhone(password: string): Promise<Session> {
  const res = await fetch(product.url('/api/v1/auth/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'User-Agent': IPHONE },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Session;
}

const profileStatus = async (session: Session) =>
  (await product.api(session, '/api/v1/users/profile', undefined, 'GET')).status;

beforeAll(async () => {
  product = await startProduct();
  person = await userWithTrainingSlot(product.api, 'Grace');
  email = person.user.email;
  await setProfile(product.api, person, { gender: 'female', age: 34 });
  // Two photos uploaded, so the export has photos to carry.
  const created = await product.api<{ session_id: string }>(
    person,
    '/api/v1/upload/create-session',
    { expected_files: 2, session_type: 'training' },
  );
  expect(created.status).toBe(201);
  const dir = await mkdtemp(path.join(tmpdir(), 'settings-e2e-photos-'));
  photoNames = [];
  try {
    for (const file of (await makeTrainingPhotos(dir)).slice(0, 2))
      photoNames.push(
        (await uploadPhoto(product.app.baseUrl, person, created.body.session_id, file)).id,
      );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const context = await product.browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  page = await context.newPage();
});

afterAll(async () => {
  await product?.stop();
});

describe('account settings in the browser', () => {
  let phone: Session;

  it('opens from the account menu and lists the sign-ins, this browser marked', async () => {
    phone = await signInOnPhone(FIRST_PASSWORD);
    await signInHere(FIRST_PASSWORD);
    await page.getByRole('link', { name: 'Account settings' }).click();
    await page.waitForURL((u) => u.pathname === '/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'Active sign-ins' });
    await list.getByText('This device').waitFor();
    // This browser, the phone, and the API sign-up that bought the training slot.
    await expect(list.getByRole('listitem').count()).resolves.toBe(3);
    await list.getByText('Safari on iOS').waitFor();
    const mine = list.getByRole('listitem').filter({ hasText: 'This device' });
    await mine.getByText(/Chrome/).waitFor();
    await pageShots(page, 'settings');
  });

  it('renames the account', async () => {
    const form = page.getByRole('form', { name: 'Profile' });
    await form.getByLabel('Full name').fill('Settings Person Renamed');
    await form.getByRole('button', { name: 'Save name' }).click();
    await form.getByText('Name saved').waitFor();
    await page.goto(product.url('/dashboard'));
    await page.getByRole('heading', { name: 'Welcome, Settings Person Renamed' }).waitFor();
  });

  it('changes the password: the phone is signed out, this browser stays', async () => {
    expect(await profileStatus(phone)).toBe(200);
    await page.goto(product.url('/settings'));
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not-the-password');
    await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Your current password is not correct.').waitFor();
    expect(await profileStatus(phone)).toBe(200);

    await form.getByLabel('Current password').fill(FIRST_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Password changed. Every other sign-in has been signed out.').waitFor();
    expect(await profileStatus(phone)).toBe(401);
    const list = page.getByRole('list', { name: 'Active sign-ins' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await pageShots(page, 'settings-password-changed');
  });

  it('prepares the data download with progress, and the zip holds the account and the photos', async () => {
    await page.getByRole('button', { name: 'Download my data' }).click();
    await page.getByRole('progressbar', { name: 'Preparing your download' }).waitFor();
    const link = page.getByRole('link', { name: 'Download zip' });
    await link.waitFor({ timeout: 60_000 });
    await page.getByRole('region', { name: 'Your data' }).scrollIntoViewIfNeeded();
    await pageShots(page, 'settings-export-ready');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^studioshot-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const file = await download.path();
    const entries = await zipEntries(file);
    const names = [...entries.keys()];
    expect(names).toContain('README.txt');
    expect(names).toContain('account.json');
    const photos = names.filter((n) => n.startsWith('photos/'));
    expect(photos).toHaveLength(2);
    for (const id of photoNames) expect(photos.some((n) => n.includes(id))).toBe(true);
    // Each photo is a real image (JPEG or PNG magic bytes).
    for (const name of photos) expect(entries.get(name)!.length).toBeGreaterThan(1000);
    const account = JSON.parse(entries.get('account.json')!.toString('utf8')) as {
      account: { email: string; name: string };
      payments: { kind: string }[];
    };
    expect(account.account).toMatchObject({ email, name: 'Settings Person Renamed' });
    expect(account.payments.map((p) => p.kind)).toEqual(['training_slots']);
  });

  it('signs out everywhere, this browser included', async () => {
    const other = await signInOnPhone(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await dialog.waitFor();
    await pageShots(page, 'settings-sign-out-everywhere');
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL((u) => u.pathname === '/auth');
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    expect(await profileStatus(other)).toBe(401);
  });
});

describe('privacy in the browser', () => {
  it('states the retention numbers on the privacy page, linked from the footer', async () => {
    await page.goto(product.url('/'));
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'Privacy' })
      .click();
    await page.waitForURL((u) => u.pathname === '/privacy');
    await page.getByRole('heading', { name: 'Your face, your data', level: 1 }).waitFor();
    await page.getByText('Training photos: 30 days', { exact: true }).waitFor();
    await page.getByText('Headshots: until you delete them', { exact: true }).waitFor();
    await pageShots(page, 'privacy');
  });

  it('states it on the upload page too', async () => {
    await signInHere(NEW_PASSWORD);
    await page.goto(product.url('/upload'));
    await page.getByText('30 days after your training finishes').waitFor();
    const note = page.getByRole('link', { name: 'Privacy', exact: true }).first();
    await note.waitFor();
  });
});

describe('account deletion in the browser', () => {
  it('lists what goes and what stays, needs the password, then follows the deletion to its end', async () => {
    await page.goto(product.url('/settings'));
    const section = page.getByRole('region', { name: 'Delete account' });
    await section.getByText('Every headshot you generated').waitFor();
    await section.getByText(/kept for accounting/).waitFor();
    const form = page.getByRole('form', { name: 'Delete account' });
    await form.getByLabel('Your password, to confirm').fill('not-the-password');
    await form.getByRole('button', { name: 'Delete my account permanently' }).click();
    await form.getByRole('alert').waitFor();
    await section.scrollIntoViewIfNeeded();
    await pageShots(page, 'settings-delete-account');
    expect(
      await profileStatus({
        ...person,
        access_token: await page.evaluate(() => localStorage.getItem('accessToken') ?? ''),
      }),
    ).toBe(200);

    await form.getByLabel('Your password, to confirm').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Delete my account permanently' }).click();
    await page.waitForURL((u) => u.pathname === '/account-deleted');
    await page
      .getByRole('heading', { name: 'Your account has been deleted' })
      .waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    await pageShots(page, 'account-deleted');

    const login = await product.api(null, '/api/v1/auth/login', { email, password: NEW_PASSWORD });
    expect(login.status).toBe(401);
  });
});
