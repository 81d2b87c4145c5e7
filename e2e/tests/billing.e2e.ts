// Billing in the browser: the card form's field checks, an upgrade walked from /pricing through
// the prorated checkout, the billing history with a printable receipt, and a plan bought billed
// yearly.
import { createDb, type Db } from '@studioshot/db';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedModel, uniqueEmail } from '../fixtures.js';
import {
  DESKTOP,
  launchBrowser,
  screenshot as saveScreenshot,
  signedInPage,
  startApp,
  type RunningApp,
  type Session,
} from '../harness.js';

let app: RunningApp;
let browser: Browser;
let db: Db;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  db = createDb(app.databaseUrl, { max: 1 });
});
afterAll(async () => {
  await db?.destroy();
  await browser?.close();
  await app?.stop();
});

const MOBILE = { width: 375, height: 800 };
const DAY = 86_400_000;
const url = (path: string) => `${app.baseUrl}${path}`;

async function register(name: string): Promise<Session> {
  const res = await fetch(url('/api/v1/auth/register'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: uniqueEmail(name.split(' ')[0]!.toLowerCase()),
      password: 'studio-portrait-1',
      name,
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Session;
}

async function profileOf(session: Session) {
  const res = await fetch(url('/api/v1/users/profile'), {
    headers: { Authorization: `Bearer ${session.access_token}` },
  });
  return (await res.json()) as {
    credits_balance: number;
    plan_type: string;
    subscription_interval: string | null;
  };
}

/** A full-page shot from the top, so the sticky header does not sit over the middle of it. */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, name);
}

async function shotsAtBothWidths(page: Page, name: string) {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(MOBILE);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
}

/** Fills the test-mode card form; Enter in the last field pays. */
async function payByEnter(page: Page, amount: string) {
  const form = page.getByRole('form', { name: 'Card details' });
  const pay = form.getByRole('button', { name: `Pay ${amount}` });
  expect(await pay.isDisabled()).toBe(true);
  await form.getByLabel('Name on card').fill('Ada Lovelace');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry (MM/YY)').fill('1234');
  await form.getByLabel('CVC').fill('123');
  expect(await pay.isEnabled()).toBe(true);
  await form.getByLabel('CVC').press('Enter');
}

describe('billing in the browser', () => {
  it('the card form marks each wrong field, says why Pay waits, and pays on Enter', async () => {
    const session = await register('Grace Hopper');
    const { context, page } = await signedInPage(browser, session);
    try {
      await page.goto(url('/payment?type=credits&pack=starter_pack'));
      const form = page.getByRole('form', { name: 'Card details' });
      await form.waitFor();
      const pay = form.getByRole('button', { name: 'Pay $9.99' });
      await form.getByText('Enter your card details to pay.').waitFor();

      const expiry = form.getByLabel('Expiry (MM/YY)');
      await expiry.fill('1399');
      expect(await expiry.inputValue()).toBe('13/99');
      expect(await expiry.getAttribute('aria-invalid')).toBe('true');
      await form.getByText('The expiry month must be 01 to 12.').waitFor();
      const number = form.getByLabel('Card number');
      await number.fill('4242 4242 4242 4241');
      expect(await number.getAttribute('aria-invalid')).toBe('true');
      // The message is what describes the field to assistive technology.
      const describedBy = (await number.getAttribute('aria-describedby')) ?? '';
      expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(
        'This card number is not valid: check the digits.',
      );
      expect(await pay.isDisabled()).toBe(true);
      await form
        .getByText(
          'Please complete card information: name on card, card number, expiry date and CVC.',
        )
        .waitFor();
      await screenshot(page, 'billing-10-card-form-invalid');

      await number.fill('');
      await expiry.fill('');
      await payByEnter(page, '$9.99');
      await page.getByText('20 credits have been added to your account.').waitFor();
      expect((await profileOf(session)).credits_balance).toBe(20);
    } finally {
      await context.close();
    }
  });

  it('walks an upgrade: a plan, then Upgrade on /pricing shows the proration, pays, and the plan moves up', async () => {
    const session = await register('Katherine Johnson');
    const { context, page } = await signedInPage(browser, session);
    try {
      await page.goto(url('/pricing'));
      await page
        .getByRole('article', { name: 'Starter' })
        .getByRole('button', { name: 'Subscribe Monthly' })
        .click();
      await page.waitForURL((u) => u.pathname === '/payment');
      await payByEnter(page, '$9.99');
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      expect((await profileOf(session)).plan_type).toBe('starter');

      // A third of the month has gone by: two thirds of it are left to prorate.
      const now = Date.now();
      const period = { start: new Date(now - 10 * DAY), end: new Date(now + 20 * DAY) };
      await db
        .updateTable('subscriptions')
        .set({
          current_period_start: period.start,
          current_period_end: period.end,
          allowance_period_start: period.start,
          allowance_period_end: period.end,
        })
        .where('user_id', '=', session.user.id)
        .execute();

      await page.goto(url('/pricing'));
      await page.getByRole('heading', { name: 'Upgrade your plan' }).waitFor();
      await page
        .getByRole('article', { name: 'Professional' })
        .getByRole('button', { name: 'Upgrade to Professional' })
        .click();
      await page.waitForURL((u) => u.pathname === '/payment');
      const address = new URL(page.url());
      expect(address.searchParams.get('type')).toBe('upgrade');
      expect(address.searchParams.get('from')).toBe('starter');
      const summary = page.getByRole('region', { name: 'Order summary' });
      await summary.getByText('Upgrade to Professional').waitFor();
      await summary.getByText('Credit for unused Starter time').waitFor();
      await summary.getByText('−$6.66').waitFor();
      await summary.getByText('$13.33').waitFor();
      await summary.getByText('2 extra credits now, for the rest of this month').waitFor();
      // The address names the intent: a reload resumes it rather than making another.
      await page.waitForURL((u) => u.searchParams.has('payment_intent'));
      const intentId = new URL(page.url()).searchParams.get('payment_intent');
      await page.reload();
      await summary.getByText('−$6.66').waitFor();
      expect(new URL(page.url()).searchParams.get('payment_intent')).toBe(intentId);
      await shotsAtBothWidths(page, 'billing-20-upgrade-proration');

      await payByEnter(page, '$6.67');
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      await page.getByText(/Your professional plan is active/).waitFor();
      expect(await profileOf(session)).toMatchObject({
        plan_type: 'professional',
        credits_balance: 4 + 2,
      });

      // The billing history: the plan, then the upgrade; each with a receipt.
      await page.goto(url('/dashboard'));
      await page.getByRole('link', { name: 'Billing and Receipts' }).click();
      await page.waitForURL((u) => u.pathname === '/billing');
      const upgrade = page.getByRole('article', { name: 'Upgrade from Starter to Professional' });
      await upgrade.getByText('$6.67').waitFor();
      await upgrade.getByText('Professional plan and 2 credits').waitFor();
      await upgrade.getByText('Paid').waitFor();
      const plan = page.getByRole('article', { name: 'Starter plan subscription' });
      await plan.getByText('Starter plan and 4 credits').waitFor();
      await shotsAtBothWidths(page, 'billing-30-history');

      await upgrade.getByRole('link', { name: /^Receipt SS-/ }).click();
      await page.waitForURL((u) => u.pathname.startsWith('/billing/receipts/'));
      const receipt = page.getByRole('article', { name: 'Receipt' });
      await receipt.getByText('Studioshot', { exact: true }).waitFor();
      await receipt.getByText(/^SS-\d{8}-[0-9A-F]{8}$/).waitFor();
      await receipt.getByText('Upgrade from Starter to Professional').waitFor();
      await receipt.getByText('Credit for unused Starter time: −$6.66').waitFor();
      await receipt.getByText('$6.67').waitFor();
      await shotsAtBothWidths(page, 'billing-40-receipt');

      // Printed: the receipt alone, without the site's header and footer or the page's buttons.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('header').first().isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Print receipt' }).isVisible()).toBe(false);
      expect(await receipt.isVisible()).toBe(true);
      await screenshot(page, 'billing-41-receipt-print');
      await page.emulateMedia({ media: 'screen' });
    } finally {
      await context.close();
    }
  });

  it('buys Premium billed yearly from /pricing: the dashboard shows the annual plan, /generate the custom prompt', async () => {
    const session = await register('Hedy Lamarr');
    const { context, page } = await signedInPage(browser, session);
    try {
      await page.goto(url('/pricing'));
      const toggle = page.getByRole('group', { name: 'Billing period' });
      const option = (name: RegExp, pressed: boolean) =>
        toggle.getByRole('button', { name, pressed });
      await option(/^Monthly$/, true).waitFor();
      // The toggle is a pair of buttons: the keyboard chooses as well as the pointer.
      await option(/^Annual/, false).focus();
      await page.keyboard.press('Space');
      await option(/^Annual/, true).waitFor();
      await option(/^Monthly$/, false).waitFor();
      expect(new URL(page.url()).searchParams.get('billing')).toBe('annual');
      const premium = page.getByRole('article', { name: 'Premium' });
      await premium.getByText('$399.90').waitFor();
      await premium.getByText('$33.33/month billed yearly').waitFor();
      await premium.getByText('Two months free: save $79.98').waitFor();
      await premium.getByText('16 headshots/month').waitFor();
      await shotsAtBothWidths(page, 'billing-50-pricing-annual');

      await premium.getByRole('button', { name: 'Subscribe Annually' }).click();
      await page.waitForURL((u) => u.pathname === '/payment');
      expect(new URL(page.url()).searchParams.get('billing')).toBe('annual');
      const summary = page.getByRole('region', { name: 'Order summary' });
      await summary.getByText('Premium plan').waitFor();
      await summary.getByText('Annual subscription, renews yearly, cancel any time').waitFor();
      await summary.getByText('16 headshot credits every month, all year').waitFor();
      await summary.getByText('Custom prompts on the Generate page').waitFor();
      await shotsAtBothWidths(page, 'billing-51-payment-annual');
      await payByEnter(page, '$399.90');
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      expect(await profileOf(session)).toMatchObject({
        plan_type: 'premium',
        subscription_interval: 'annual',
        credits_balance: 16,
      });

      await page.goto(url('/dashboard'));
      const subscription = page.getByRole('region', { name: 'Subscription' });
      await subscription.getByText('$399.90/year').waitFor();
      await subscription.getByText('Annual', { exact: true }).waitFor();
      await subscription.getByText('Premium', { exact: true }).waitFor();

      // A finished model, so /generate opens its studio (seeded now: its ready notice stays out
      // of the shots above).
      await seedModel(db, session.user.id, 'completed');
      await db
        .updateTable('users')
        .set({ models_trained: 1, gender: 'female', age: 40 })
        .where('id', '=', session.user.id)
        .execute();
      await page.goto(url('/generate'));
      await page.getByRole('button', { name: 'Generate AI Headshot' }).waitFor();
      await page.getByLabel('Premium: Custom Prompt').waitFor();
    } finally {
      await context.close();
    }
  });
});
