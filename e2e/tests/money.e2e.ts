import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mobileShot,
  pageShot,
  profileOf,
  register,
  startProduct,
  uniqueEmail,
  type Product,
} from '../fixtures.js';
import { DESKTOP, signedInPage } from '../harness.js';

let product: Product;

beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => {
  await product?.stop();
});

const GOOD_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function fillCard(page: Page, number: string) {
  const form = page.getByRole('form', { name: 'Card details' });
  await form.getByLabel('Name on card').fill('Ada Lovelace');
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry (MM/YY)').fill('1234');
  await form.getByLabel('CVC').fill('123');
  expect(await form.getByLabel('Card number').inputValue()).toBe(number);
  expect(await form.getByLabel('Expiry (MM/YY)').inputValue()).toBe('12/34');
}

describe('money in the browser', () => {
  it('buys a credit pack on /credits: a declined card grants nothing, 4242 adds the credits', async () => {
    const session = await register(product.api, 'Grace Hopper');
    const { context, page } = await signedInPage(product.browser, session);
    try {
      await page.goto(product.url('/credits'));
      await page.getByRole('heading', { name: 'Buy Credits' }).waitFor();
      await page.getByText('$0.42 per credit').waitFor();
      await pageShot(page, '20-credits');
      await mobileShot(page, '21-credits-mobile');

      const starter = page.getByRole('article', { name: 'Starter Pack' });
      await starter.getByRole('button', { name: 'Buy Now' }).click();
      const dialog = page.getByRole('dialog', { name: 'Buy the Starter Pack' });
      await dialog.waitFor();
      expect(await starter.getByRole('button', { name: 'Processing...' }).isDisabled()).toBe(true);
      await dialog.getByText('Test Mode Active').waitFor();
      const pay = dialog.getByRole('button', { name: 'Pay $9.99' });
      expect(await pay.isDisabled()).toBe(true);
      await pageShot(page, '22-credits-checkout');

      await fillCard(page, DECLINED_CARD);
      await pay.click();
      await dialog.getByText('Processing Secure Payment...').waitFor();
      await dialog.getByText('Your card was declined.').waitFor();
      expect(await pay.isEnabled()).toBe(true);
      await pageShot(page, '23-credits-card-declined');
      expect((await profileOf(product.api, session)).credits_balance).toBe(0);

      await fillCard(page, GOOD_CARD);
      await pay.click();
      await dialog.getByText('Processing Secure Payment...').waitFor();
      await page.waitForURL((u) => u.pathname === '/generate-trained', { timeout: 15_000 });
      await page.getByText('Purchase successful! 20 credits have been added.').waitFor();
      await pageShot(page, '24-credits-purchased');
      expect((await profileOf(product.api, session)).credits_balance).toBe(20);

      await page.goto(product.url('/credits'));
      await page.getByText('credits remaining').waitFor();
      await expect(
        page.getByText('Current balance', { exact: true }).locator('..').innerText(),
      ).resolves.toMatch(/20\s*credits remaining/);

      // The combined payment page sells the same packages.
      await page.goto(product.url('/payment?type=credits&pack=professional_pack'));
      await page.getByRole('heading', { name: 'Purchase Credits' }).waitFor();
      await page.getByText('Professional Pack').first().waitFor();
      await fillCard(page, GOOD_CARD);
      await page.getByRole('button', { name: 'Pay $24.99' }).click();
      await page.getByText('60 credits have been added to your account.').waitFor();
      await page.getByRole('link', { name: 'Go to Dashboard' }).waitFor();
      await pageShot(page, '25-payment-credits-success');
      await page.waitForURL((u) => u.pathname === '/dashboard', { timeout: 10_000 });
      expect((await profileOf(product.api, session)).credits_balance).toBe(80);
      await page
        .getByText('Credits Available')
        .locator('..')
        .getByText('80', { exact: true })
        .waitFor();
    } finally {
      await context.close();
    }
  });

  it('subscribes to a plan from /pricing through sign-up and /payment?type=training', async () => {
    const context = await product.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await page.goto(product.url('/pricing?plan=professional'));
      const professional = page.getByRole('article', { name: 'Professional' });
      await professional.getByText('Most Popular').waitFor();
      await professional.getByText('8 credits (32 headshots) a month').waitFor();
      await pageShot(page, '26-pricing');
      await mobileShot(page, '27-pricing-mobile');

      await professional.getByRole('button', { name: 'Subscribe Monthly' }).click();
      await page.waitForURL((u) => u.pathname === '/auth');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/payment?type=training');
      expect(
        JSON.parse((await page.evaluate(() => localStorage.getItem('selectedPlan'))) ?? '{}'),
      ).toEqual({
        planId: 'professional',
        type: 'subscription',
        planName: 'Professional',
        price: 1999,
        credits: 8,
      });

      await page.getByRole('button', { name: 'Create one' }).click();
      const form = page.getByRole('form', { name: 'Create account' });
      await form.getByLabel('Full name').fill('Katherine Johnson');
      await form.getByLabel('Email').fill(uniqueEmail('katherine'));
      await form.getByLabel('Password', { exact: true }).fill('studio-portrait-1');
      await form.getByLabel('Confirm password').fill('studio-portrait-1');
      await form.getByRole('button', { name: 'Create Account' }).click();

      await page.waitForURL((u) => u.pathname === '/payment' && u.search === '?type=training');
      await page.getByRole('heading', { name: 'Start Your Subscription' }).waitFor();
      await page.getByText('Professional plan').waitFor();
      await page.getByText('Test Mode Active').waitFor();
      await pageShot(page, '28-payment-card-form');
      await mobileShot(page, '29-payment-card-form-mobile');

      await fillCard(page, GOOD_CARD);
      await page.getByRole('button', { name: 'Pay $19.99' }).click();
      await page.getByText('Processing Secure Payment...').waitFor();
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      await page.getByText(/Now upload photos to train your AI model\./).waitFor();
      await pageShot(page, '30-payment-training-success');
      await page.waitForURL((u) => u.pathname === '/upload', { timeout: 10_000 });
      expect(await page.evaluate(() => localStorage.getItem('selectedPlan'))).toBeNull();

      await page.goto(product.url('/dashboard'));
      const slots = page.getByText('Models Trained / Limit').locator('..');
      await slots.getByText('0 / 5').waitFor();
      await slots.getByText('5 slots remaining').waitFor();
      const panel = page.getByRole('region', { name: 'Subscription' });
      await panel.getByText('Active', { exact: true }).waitFor();
      await panel.getByText('Professional', { exact: true }).waitFor();
      await panel.getByText('5 models').waitFor();
      // The plan's 8 monthly credits are above the low-credit threshold of 5.
      expect(await page.getByRole('region', { name: 'Credit balance' }).count()).toBe(0);
      await pageShot(page, '31-dashboard-subscription-active');
    } finally {
      await context.close();
    }
  });

  it('cancels (with a confirm step) and reactivates on the dashboard', async () => {
    const session = await register(product.api, 'Dorothy Vaughan');
    const { context, page } = await signedInPage(product.browser, session);
    try {
      // Subscribe to Starter through the payment page.
      await page.goto(product.url('/pricing'));
      await page
        .getByRole('article', { name: 'Starter' })
        .getByRole('button', { name: 'Subscribe Monthly' })
        .click();
      await page.waitForURL((u) => u.pathname === '/payment');
      await fillCard(page, GOOD_CARD);
      await page.getByRole('button', { name: 'Pay $9.99' }).click();
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      expect(await profileOf(product.api, session)).toMatchObject({
        plan_type: 'starter',
        training_limit: 1,
      });

      await page.goto(product.url('/dashboard'));
      const panel = page.getByRole('region', { name: 'Subscription' });
      await panel.getByText('Starter', { exact: true }).waitFor();
      await panel.getByRole('button', { name: 'Cancel Subscription' }).click();
      await panel.getByText('Cancel your Starter subscription?').waitFor();
      await pageShot(page, '32-dashboard-cancel-confirm');
      await panel.getByRole('button', { name: 'Yes, Cancel Subscription' }).click();
      await page
        .getByText(/Your subscription is cancelled/)
        .first()
        .waitFor();
      await panel.getByText('Cancelling', { exact: true }).waitFor();
      await panel.getByText('Access until', { exact: true }).waitFor();
      await panel.getByText(/credits retained/).waitFor();
      await pageShot(page, '33-dashboard-subscription-cancelling');
      await mobileShot(page, '34-dashboard-cancelling-mobile');

      await panel.getByRole('button', { name: 'Reactivate Subscription' }).click();
      await page
        .getByText(/active again/)
        .first()
        .waitFor();
      await panel.getByText('Active', { exact: true }).waitFor();
      await panel.getByRole('button', { name: 'Cancel Subscription' }).waitFor();
      await pageShot(page, '35-dashboard-subscription-reactivated');

      // With every training used, Train leads to the plans (dashboard eligibility); the upload
      // page offers the training-limit modal, which also sells single trainings.
      await product.db
        .updateTable('users')
        .set({ models_trained: 1 })
        .where('id', '=', session.user.id)
        .execute();
      await page.reload();
      await page.getByText('Plan limit reached (1 model max)').waitFor();
      await page
        .getByRole('button', { name: 'Plan limit reached - upgrade for more models' })
        .click();
      await page.waitForURL((u) => u.pathname === '/pricing');
      await page.getByText('Upgrade your plan to train more models:').waitFor();
      await page.goto(product.url('/upload'));
      const modal = page.getByRole('dialog', { name: 'Train more models' });
      await modal.getByText('40% saving').waitFor();
      await modal.getByRole('button', { name: 'Upgrade to Premium' }).waitFor();
      await pageShot(page, '36-upload-training-limit-modal');
      await modal.getByRole('button', { name: 'Buy 1 Training' }).click();
      await page.waitForURL((u) => u.pathname === '/payment');
      expect(new URL(page.url()).search).toBe('?type=training&quantity=1&price=25');
      await fillCard(page, GOOD_CARD);
      await page.getByRole('button', { name: 'Pay $25.00' }).click();
      await page.getByText(/Training slots added/).waitFor();
      expect((await profileOf(product.api, session)).training_limit).toBe(2);
      expect(pathOf(page)).toBe('/payment');
    } finally {
      await context.close();
    }
  });
});
