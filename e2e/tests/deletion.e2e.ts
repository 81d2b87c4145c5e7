// Deleting in Chromium against the built product: a model from the dashboard (the dialog says
// the training slot is not given back before confirming, keyboard focus stays where it makes
// sense, no serious or critical axe violation), and the whole account from Settings, after
// which the old password signs nobody in and the e-mail signs up again as a new person.
// Screenshots at 1280 and 375 px.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageShots, register, seedModel, startProduct, type Product } from '../fixtures.js';
import { DESKTOP, signedInPage } from '../harness.js';

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
