import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startApp, type RunningApp } from '../harness.js';

let app: RunningApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startApp({ APP_VERSION: 'e2e1234567890abcdef' });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const account = {
  name: 'Ada Lovelace',
  email: `ada-${Date.now()}@example.com`,
  password: 'analytical-engine',
};
const url = (path: string) => `${app.baseUrl}${path}`;
const path = () => new URL(page.url()).pathname;

describe('accounts in the browser', () => {
  it("serves React's production build, whatever NODE_ENV the build ran under", async () => {
    const html = await (await fetch(url('/'))).text();
    const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const js = await (await fetch(url(entry!))).text();
    expect(js).toContain('react.dev/errors/');
    // A sentence only React's development build carries (its production build has error codes).
    expect(js).not.toContain('This error is likely caused by a bug in React');
  });

  it('shows the signed-out landing page with the build label and version', async () => {
    await page.goto(url('/'));
    await page.getByRole('button', { name: 'Start Creating' }).first().waitFor();
    await expect(page.getByText("v0.3.0 'CI/CD Automation'").count()).resolves.toBeGreaterThan(0);
    await page.getByText('git-e2e1234').first().waitFor();
    await screenshot(page, '01-landing-signed-out');
  });

  it('sends a signed-out visitor of a protected page to /auth', async () => {
    await page.goto(url('/upload'));
    await page.waitForURL((u) => u.pathname === '/auth');
    expect(await page.evaluate(() => localStorage.getItem('authRedirect'))).toBe('/upload');
    await screenshot(page, '02-auth-sign-in');
  });

  it('signs up with validation, continues to the page asked for before, and is welcomed on the dashboard', async () => {
    await page.getByRole('button', { name: 'Create one' }).click();
    const form = page.getByRole('form', { name: 'Create account' });
    await form.getByLabel('Full name').fill(account.name);
    await form.getByLabel('Email').fill(account.email);
    await form.getByLabel('Password', { exact: true }).fill(account.password);
    await form.getByLabel('Confirm password').fill('something-else');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await screenshot(page, '03-signup-validation');

    await form.getByLabel('Confirm password').fill(account.password);
    await form.getByRole('button', { name: 'Create Account' }).click();
    // The stored next page wins after sign-up: /upload, asked for above, which sends a new
    // account without a plan on to /pricing.
    await page.waitForURL((u) => u.pathname === '/pricing');
    expect(await page.evaluate(() => localStorage.getItem('authRedirect'))).toBeNull();
    await page.goto(url('/dashboard'));
    await page.getByRole('heading', { name: `Welcome, ${account.name}` }).waitFor();
    await screenshot(page, '04-dashboard-after-signup');
  });

  it('greets the user on the landing page and stays signed in across a reload', async () => {
    await page.goto(url('/'));
    await page.getByRole('heading', { name: `Welcome back, ${account.name}!` }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: `Welcome back, ${account.name}!` }).waitFor();
    await page.getByText(account.email).first().waitFor();
    await screenshot(page, '05-landing-signed-in');
    await page.goto(url('/test'));
    await page.getByText(account.email).first().waitFor();
    await screenshot(page, '06-auth-test-page');
  });

  it('logs out from the dashboard to the signed-out landing page', async () => {
    await page.goto(url('/dashboard'));
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('button', { name: 'Start Creating' }).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  });

  it('refuses a wrong password with the server message, then signs in and returns to the saved page', async () => {
    await page.goto(url('/upload'));
    await page.waitForURL((u) => u.pathname === '/auth');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(account.email);
    await form.getByLabel('Password', { exact: true }).fill('wrong-password');
    await form.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Invalid email or password').waitFor();
    await screenshot(page, '07-sign-in-error');

    await form.getByLabel('Password', { exact: true }).fill(account.password);
    await form.getByRole('button', { name: 'Sign In' }).click();
    // After login with no trained models: the stored redirect wins over /dashboard.
    await page.waitForURL((u) => u.pathname === '/upload');
    expect(path()).toBe('/upload');
    await screenshot(page, '08-after-sign-in-redirect');
  });

  it('resets the password in the two-step modal and signs in with the new one', async () => {
    await page.goto(url('/dashboard'));
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto(url('/auth'));
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await screenshot(page, '09-reset-modal');
    await dialog.getByLabel('Email').fill(account.email);
    await dialog.getByRole('button', { name: 'Send Reset Code' }).click();
    // Outbox mail transport: the code comes back and is prefilled.
    const code = dialog.getByLabel('Reset code');
    await code.waitFor();
    expect((await code.inputValue()).length).toBeGreaterThan(20);
    await dialog.getByLabel('New password', { exact: true }).fill('a-brand-new-secret');
    await dialog.getByLabel('Confirm new password').fill('a-brand-new-secret');
    await screenshot(page, '10-reset-step-two');
    await dialog.getByRole('button', { name: 'Reset Password' }).click();
    await dialog.waitFor({ state: 'detached' });

    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(account.email);
    await form.getByLabel('Password', { exact: true }).fill('a-brand-new-secret');
    await form.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
  });
});
