// Deleting in Chromium against the built product: a model from the dashboard (the dialog says
// the training slot is not given back before confirming, keyboard focus stays where it makes
// sense, no serious or critical axe violation), a trained photo set from Settings (the model
// trained from it keeps working; a set still in training is refused with the server's reason),
// and the whole account from Settings, after which the old password signs nobody in and the
// e-mail signs up again as a new person. Screenshots at 1280 and 375 px.
import AxeBuilder from '@axe-core/playwright';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeTrainingPhotos,
  pageShots,
  register,
  seedModel,
  startProduct,
  type Product,
  uploadPhoto,
} from '../fixtures.js';
import { DESKTOP, signedInPage, type Session } from '../harness.js';

const SLOT_NOT_RETURNED =
  'The training slot this model used is not given back: deleting it does not let you train another model on your plan.';

let product: Product;

beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => {
  await product?.stop();
});

/** No serious or critical axe violation on the page as it is now (an open dialog included). */
async function expectAccessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
}

/** Which control has the keyboard focus, by its accessible name or text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return element?.getAttribute('aria-label') ?? element?.textContent?.trim() ?? null;
  });

describe('deleting a model from the dashboard', () => {
  it('asks first, saying the slot is not given back; Cancel keeps it; Delete removes it', async () => {
    const person = await register(product.api, 'Mary');
    await product.db
      .updateTable('users')
      .set({ training_limit: 3, models_trained: 2, plan_type: 'professional' })
      .where('id', '=', person.user.id)
      .execute();
    const kept = await seedModel(product.db, person.user.id, 'completed');
    const doomed = await seedModel(product.db, person.user.id, 'running');
    await product.db
      .updateTable('models')
      .set({ name: 'Portraits in training' })
      .where('id', '=', doomed)
      .execute();
    const { context, page } = await signedInPage(product.browser, person);
    await page.goto(product.url('/dashboard'));
    const models = page.getByRole('region', { name: /Trained Models/ });
    const doomedItem = models.getByRole('article', { name: 'Portraits in training' });
    await doomedItem.waitFor();

    const deleteButton = doomedItem.getByRole('button', {
      name: 'Delete model Portraits in training',
    });
    await deleteButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete Portraits in training?' });
    await dialog.getByText(SLOT_NOT_RETURNED).waitFor();
    await dialog.getByText('its training, which is stopped now').waitFor();
    expect(await focused(page)).toBe('Cancel');
    await expectAccessible(page);
    await pageShots(page, 'dashboard-delete-model-dialog');

    // Escape cancels: nothing deleted, focus back on the Delete button.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(page)).toBe('Delete model Portraits in training');
    const still = await product.db
      .selectFrom('models')
      .select('id')
      .where('id', '=', doomed)
      .executeTakeFirst();
    expect(still?.id).toBe(doomed);

    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Delete model' }).click();
    await page
      .getByText('Model deleted, with its files and every headshot made with it.')
      .first()
      .waitFor();
    await doomedItem.waitFor({ state: 'detached' });
    // Stopping its training was asked for: no "training failed" alarm.
    expect(await page.getByText(/training failed/i).count()).toBe(0);
    expect(await focused(page)).toMatch(/^Trained Models/);
    await models.getByRole('article', { name: 'Seeded portraits' }).waitFor();
    await pageShots(page, 'dashboard-after-model-deleted');

    const left = await product.db
      .selectFrom('models')
      .select('id')
      .where('user_id', '=', person.user.id)
      .execute();
    expect(left.map((m) => m.id)).toEqual([kept]);
    // The slot stays used.
    const profile = await product.api<{ models_trained: number }>(
      person,
      '/api/v1/users/profile',
      undefined,
      'GET',
    );
    expect(profile.body.models_trained).toBe(2);
    await context.close();
  });
});

/**
 * `count` test photos uploaded through the API into a new set, checked by the worker, then the
 * set marked trained into a seeded model named `modelName` (its training at `training`).
 */
async function trainedPhotoSet(
  person: Session,
  count: number,
  modelName: string,
  training: 'completed' | 'running',
): Promise<{ sessionId: string; modelId: string; thumbnails: string[] }> {
  const created = await product.api<{ session_id: string }>(
    person,
    '/api/v1/upload/create-session',
    { expected_files: count, session_type: 'training' },
  );
  expect(created.status).toBe(201);
  const sessionId = created.body.session_id;
  const dir = await mkdtemp(path.join(tmpdir(), 'deletion-e2e-photos-'));
  const thumbnails: string[] = [];
  try {
    for (const file of (await makeTrainingPhotos(dir)).slice(0, count))
      thumbnails.push(
        (await uploadPhoto(product.app.baseUrl, person, sessionId, file)).thumbnail_url,
      );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await product.until(async () => {
    const status = await product.api<{ checks_pending: number }>(
      person,
      `/api/v1/upload/session/${sessionId}/status`,
      undefined,
      'GET',
    );
    return status.body.checks_pending === 0 ? true : undefined;
  }, 'the photo checks');
  const modelId = await seedModel(product.db, person.user.id, training);
  await product.db
    .updateTable('models')
    .set({ name: modelName, session_id: sessionId })
    .where('id', '=', modelId)
    .execute();
  await product.db
    .updateTable('upload_sessions')
    .set({ status: 'completed', completed_at: new Date(), training_id: modelId })
    .where('id', '=', sessionId)
    .execute();
  return { sessionId, modelId, thumbnails };
}

describe('deleting a photo set from Settings', () => {
  it('lists the sets, deletes a trained one after asking (its model stays), and refuses one in training', async () => {
    const person = await register(product.api, 'Photos');
    await product.db
      .updateTable('users')
      .set({ training_limit: 3, plan_type: 'professional' })
      .where('id', '=', person.user.id)
      .execute();
    const older = await trainedPhotoSet(person, 2, 'Office Portraits', 'completed');
    // Newer, so listed first: its training is still running.
    await product.db
      .updateTable('upload_sessions')
      .set({ created_at: new Date(Date.now() - 3 * 86_400_000) })
      .where('id', '=', older.sessionId)
      .execute();
    const inTraining = await trainedPhotoSet(person, 1, 'Weekend Look', 'running');
    expect((await fetch(product.url(older.thumbnails[0]!))).status).toBe(200);
    // A set the retention purge emptied: said so with its date, nothing left to delete.
    const purgedModel = await seedModel(product.db, person.user.id, 'completed');
    await product.db
      .insertInto('upload_sessions')
      .values({
        user_id: person.user.id,
        session_type: 'training',
        expected_files: 12,
        status: 'completed',
        expires_at: new Date(Date.now() - 40 * 86_400_000),
        created_at: new Date(Date.now() - 41 * 86_400_000),
        completed_at: new Date(Date.now() - 41 * 86_400_000),
        training_id: purgedModel,
        photos_purged_at: new Date(Date.now() - 10 * 86_400_000),
      })
      .execute();

    const { context, page } = await signedInPage(product.browser, person);
    await page.goto(product.url('/settings'));
    const list = page.getByRole('list', { name: 'Your photos' });
    await list.waitFor();
    const items = list.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(3);
    const trainedItem = items.filter({ hasText: 'Office Portraits' });
    const trainingItem = items.filter({ hasText: 'Weekend Look' });
    await trainedItem.getByText('2 photos held').waitFor();
    await trainedItem.getByText(/^Deleted automatically on \d{1,2} \w+ \d{4}$/).waitFor();
    await trainingItem.getByText('Kept while the model trains').waitFor();
    const purgedItem = items.filter({ hasText: 'Seeded portraits' });
    await purgedItem.getByText('Photos deleted', { exact: true }).waitFor();
    await purgedItem.getByText(/^Deleted automatically on /).waitFor();
    expect(await purgedItem.getByRole('button').count()).toBe(0);
    await page.getByRole('heading', { name: 'Your photos' }).scrollIntoViewIfNeeded();
    await pageShots(page, 'settings-photo-sets');

    // A training still reads the other set: the server's refusal, and nothing deleted.
    await trainingItem.getByRole('button', { name: /^Delete photos/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete these photos?' });
    await dialog.getByText('Weekend Look keeps working', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Delete photos' }).click();
    await dialog
      .getByRole('alert')
      .getByText(
        'These photos are being used by a training that has not finished. Wait for it to finish, or delete the model, then delete the photos.',
      )
      .waitFor();
    await pageShots(page, 'settings-photo-set-in-training');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(page)).toMatch(/^Delete photos uploaded/);

    // The trained set: the dialog says what goes and that the model stays; keyboard only.
    const deleteTrained = trainedItem.getByRole('button', { name: /^Delete photos/ });
    const trainedLabel = (await deleteTrained.getAttribute('aria-label'))!;
    await deleteTrained.focus();
    // The key goes to that button only once it holds the focus (not the one focus came back to).
    await expect.poll(() => focused(page)).toBe(trainedLabel);
    await deleteTrained.press('Enter');
    await dialog.getByText('2 photos, as you uploaded them').waitFor();
    await dialog.getByText('Office Portraits keeps working', { exact: false }).waitFor();
    expect(await focused(page)).toBe('Cancel');
    await expectAccessible(page);
    await pageShots(page, 'settings-delete-photo-set-dialog');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Delete photos');
    await page.keyboard.press('Enter');
    await page.getByText('Photos deleted, with every copy we made of them.').first().waitFor();
    await trainedItem.waitFor({ state: 'detached' });
    await expect.poll(() => items.count()).toBe(2);
    expect(await focused(page)).toBe('Your photos');
    await pageShots(page, 'settings-after-photo-set-deleted');

    // The set and its photos are gone (a thumbnail link no longer answers); the model stays.
    const sessions = await product.db
      .selectFrom('upload_sessions')
      .select('id')
      .where('user_id', '=', person.user.id)
      .execute();
    expect(sessions.map((row) => row.id)).not.toContain(older.sessionId);
    expect(sessions.map((row) => row.id)).toContain(inTraining.sessionId);
    const photos = await product.db
      .selectFrom('photos')
      .select('session_id')
      .where('user_id', '=', person.user.id)
      .execute();
    expect(photos.map((row) => row.session_id)).toEqual([inTraining.sessionId]);
    for (const thumbnail of older.thumbnails)
      expect((await fetch(product.url(thumbnail))).status).toBe(404);
    const model = await product.db
      .selectFrom('models')
      .select(['status', 'session_id'])
      .where('id', '=', older.modelId)
      .executeTakeFirstOrThrow();
    expect(model).toEqual({ status: 'completed', session_id: null });
    await context.close();
  });
});

describe('deleting the account from Settings, then signing up again', () => {
  it('the old password signs nobody in, and the e-mail starts a new account', async () => {
    // The password `register` signs up with.
    const password = 'studio-portrait-1';
    const person = await register(product.api, 'Leaving');
    const { email } = person.user;
    const { context, page } = await signedInPage(product.browser, person);
    await page.goto(product.url('/settings'));
    const form = page.getByRole('form', { name: 'Delete account' });
    await form.getByLabel('Your password, to confirm').fill(password);
    await form.getByRole('button', { name: 'Delete my account permanently' }).click();
    await page.waitForURL((u) => u.pathname === '/account-deleted');
    await page
      .getByRole('heading', { name: 'Your account has been deleted' })
      .waitFor({ timeout: 120_000 });
    await pageShots(page, 'account-deleted-then');
    await context.close();

    // Signing in with the old password, in a fresh browser: refused, as for any unknown address.
    const fresh = await product.browser.newContext({ viewport: DESKTOP });
    const stranger = await fresh.newPage();
    await stranger.goto(product.url('/auth'));
    const signIn = stranger.getByRole('form', { name: 'Sign in' });
    await signIn.getByLabel('Email').fill(email);
    await signIn.getByLabel('Password', { exact: true }).fill(password);
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await stranger.getByText('Invalid email or password').waitFor();
    await pageShots(stranger, 'sign-in-after-account-deleted');

    // The same e-mail signs up again, as somebody new.
    await stranger.getByRole('button', { name: 'Create one' }).click();
    const signUp = stranger.getByRole('form', { name: 'Create account' });
    await signUp.getByLabel('Full name').fill('Ada Returning');
    await signUp.getByLabel('Email').fill(email);
    await signUp.getByLabel('Password', { exact: true }).fill('a-fresh-start');
    await signUp.getByLabel('Confirm password').fill('a-fresh-start');
    await signUp.getByRole('button', { name: 'Create Account' }).click();
    await stranger.waitForURL((u) => u.pathname === '/dashboard');
    await stranger.getByRole('heading', { name: 'Welcome, Ada Returning' }).waitFor();
    const account = await product.db
      .selectFrom('users')
      .select(['id', 'name'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(account.id).not.toBe(person.user.id);
    expect(account.name).toBe('Ada Returning');
    await fresh.close();
  });
});
