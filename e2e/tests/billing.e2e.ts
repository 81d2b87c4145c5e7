// Billing in the browser: the card form's field checks, an upgrade walked from /pricing through
// the prorated checkout, the billing history with a printable receipt, the money-back guarantee
// claimed, and a plan bought billed yearly.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pageShot,
  pageShots,
  profileOf,
  register,
  seedModel,
  startProduct,
  type Product,
} from '../fixtures.js';
import { signedInPage } from '../harness.js';

let product: Product;

beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => {
  await product?.stop();
});

const DAY = 86_400_000;

/** The kinds of a user's stored payments, oldest first: every row their data export lists. */
async function paymentKindsOf(userId: string): Promise<string[]> {
  const rows = await product.db
    .selectFrom('payments')
    .select('kind')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.kind);
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
    const session = await register(product.api, 'Grace Hopper');
    const { context, page } = await signedInPage(product.browser, session);
    try {
      await page.goto(product.url('/payment?type=credits&pack=starter_pack'));
      const form = page.getByRole('form', { name: 'Card details' });
      await form.waitFor();
      const pay = form.getByRole('button', { name: 'Pay $9.99' });
      await form.getByText('Enter your card details to pay.').waitFor();
      // Open, with its price and card form: no payment is stored until Pay.
      expect(await paymentKindsOf(session.user.id)).toEqual([]);

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
      await pageShot(page, 'billing-10-card-form-invalid');

      await number.fill('');
      await expiry.fill('');
      await payByEnter(page, '$9.99');
      await page.getByText('20 credits have been added to your account.').waitFor();
      expect((await profileOf(product.api, session)).credits_balance).toBe(20);
      expect(await paymentKindsOf(session.user.id)).toEqual(['credits']);
    } finally {
      await context.close();
    }
  });

  it('walks an upgrade: a plan, then Upgrade on /pricing shows the proration, pays, and the plan moves up', async () => {
    const session = await register(product.api, 'Katherine Johnson');
    const { context, page } = await signedInPage(product.browser, session);
    try {
      await page.goto(product.url('/pricing'));
      await page
        .getByRole('article', { name: 'Starter' })
        .getByRole('button', { name: 'Subscribe Monthly' })
        .click();
      await page.waitForURL((u) => u.pathname === '/payment');
      await payByEnter(page, '$9.99');
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      expect((await profileOf(product.api, session)).plan_type).toBe('starter');

      // A third of the month has gone by: two thirds of it are left to prorate.
      const now = Date.now();
      const period = { start: new Date(now - 10 * DAY), end: new Date(now + 20 * DAY) };
      await product.db
        .updateTable('subscriptions')
        .set({
          current_period_start: period.start,
          current_period_end: period.end,
          allowance_period_start: period.start,
          allowance_period_end: period.end,
        })
        .where('user_id', '=', session.user.id)
        .execute();

      await page.goto(product.url('/pricing'));
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
      // The proration is the server's quote: opening (and reloading) the checkout stores no
      // payment, only the plan bought above is there.
      await page.reload();
      await summary.getByText('−$6.66').waitFor();
      expect(new URL(page.url()).searchParams.has('payment_intent')).toBe(false);
      expect(await paymentKindsOf(session.user.id)).toEqual(['subscription']);
      await pageShots(page, 'billing-20-upgrade-proration');

      await payByEnter(page, '$6.67');
      // Pay made the intent, and the address names it: a reload now resumes it.
      await page.waitForURL((u) => u.searchParams.has('payment_intent'));
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      expect(await paymentKindsOf(session.user.id)).toEqual(['subscription', 'upgrade']);
      await page.getByText(/Your professional plan is active/).waitFor();
      expect(await profileOf(product.api, session)).toMatchObject({
        plan_type: 'professional',
        credits_balance: 4 + 2,
      });

      // The billing history: the plan, then the upgrade; each with a receipt.
      await page.goto(product.url('/dashboard'));
      await page.getByRole('link', { name: 'Billing and Receipts' }).click();
      await page.waitForURL((u) => u.pathname === '/billing');
      const upgrade = page.getByRole('article', { name: 'Upgrade from Starter to Professional' });
      await upgrade.getByText('$6.67').waitFor();
      await upgrade.getByText('Professional plan and 2 credits').waitFor();
      await upgrade.getByText('Paid').waitFor();
      const plan = page.getByRole('article', { name: 'Starter plan subscription' });
      await plan.getByText('Starter plan and 4 credits').waitFor();
      await pageShots(page, 'billing-30-history');

      await upgrade.getByRole('link', { name: /^View receipt SS-/ }).click();
      await page.waitForURL((u) => u.pathname.startsWith('/billing/receipts/'));
      const receipt = page.getByRole('article', { name: 'Receipt' });
      await receipt.getByText('Studioshot', { exact: true }).waitFor();
      await receipt.getByText(/^SS-\d{8}-[0-9A-F]{8}$/).waitFor();
      await receipt.getByText('Upgrade from Starter to Professional').waitFor();
      await receipt.getByText('Credit for unused Starter time: −$6.66').waitFor();
      await receipt.getByText('$6.67').waitFor();
      await pageShots(page, 'billing-40-receipt');

      // Printed: the receipt alone, without the site's header and footer or the page's buttons.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('header').first().isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Print receipt' }).isVisible()).toBe(false);
      expect(await receipt.isVisible()).toBe(true);
      await pageShot(page, 'billing-41-receipt-print');
      await page.emulateMedia({ media: 'screen' });
    } finally {
      await context.close();
    }
  });

  it('claims the money-back guarantee: from the footer to /billing, a reason, and the credits go back', async () => {
    const session = await register(product.api, 'Mary Jackson');
    const { context, page } = await signedInPage(product.browser, session);
    try {
      await page.goto(product.url('/payment?type=credits&pack=starter_pack'));
      await payByEnter(page, '$9.99');
      await page.getByText('20 credits have been added to your account.').waitFor();

      // The guarantee the footer states links to how to claim it.
      await page.goto(product.url('/pricing'));
      await page
        .getByRole('contentinfo')
        .getByRole('link', { name: '30-day money-back guarantee' })
        .click();
      await page.waitForURL((u) => u.pathname === '/refunds');
      await page.getByRole('heading', { name: '30 days to change your mind' }).waitFor();
      await page.getByRole('link', { name: 'Go to Billing' }).click();
      await page.waitForURL((u) => u.pathname === '/billing');

      const row = page.getByRole('article', { name: /\(20 credits\)$/ });
      await row.getByText('Paid').waitFor();
      await row.getByRole('button', { name: /^Request a refund of SS-/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Request a refund' });
      await dialog
        .getByText('The credits this payment gave you that are not spent yet go (up to 20).')
        .waitFor();
      // No reason chosen: the dialog asks for one and nothing is refunded.
      await dialog.getByRole('button', { name: 'Refund $9.99' }).click();
      await dialog.getByText('Choose a reason to continue.').waitFor();
      expect((await profileOf(product.api, session)).credits_balance).toBe(20);
      await dialog.getByLabel('I bought it by mistake').check();
      await pageShots(page, 'billing-50-refund-request');
      await dialog.getByRole('button', { name: 'Refund $9.99' }).click();

      await page
        .getByText('Your refund is on its way: it reaches your card in 5 to 10 business days.')
        .waitFor();
      await row.getByText('Refunded', { exact: true }).waitFor();
      await row.getByText('Refund: 20 unspent credits taken back').waitFor();
      // Once per payment: the action is gone.
      expect(await row.getByRole('button', { name: /^Request a refund/ }).count()).toBe(0);
      expect((await profileOf(product.api, session)).credits_balance).toBe(0);
      await pageShots(page, 'billing-51-refunded');

      await row.getByRole('link', { name: /^View receipt SS-/ }).click();
      const receipt = page.getByRole('article', { name: 'Receipt' });
      await receipt.getByText(/I bought it by mistake/).waitFor();
    } finally {
      await context.close();
    }
  });

  it('buys Premium billed yearly from /pricing: the dashboard shows the annual plan, /generate the custom prompt', async () => {
    const session = await register(product.api, 'Hedy Lamarr');
    const { context, page } = await signedInPage(product.browser, session);
    try {
      await page.goto(product.url('/pricing'));
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
      await premium.getByText('16 credits (64 headshots) a month').waitFor();
      await pageShots(page, 'billing-50-pricing-annual');

      await premium.getByRole('button', { name: 'Subscribe Annually' }).click();
      await page.waitForURL((u) => u.pathname === '/payment');
      expect(new URL(page.url()).searchParams.get('billing')).toBe('annual');
      const summary = page.getByRole('region', { name: 'Order summary' });
      await summary.getByText('Premium plan').waitFor();
      await summary.getByText('Annual subscription, renews yearly, cancel any time').waitFor();
      await summary.getByText('16 credits (64 headshots) every month, all year').waitFor();
      await summary.getByText('Custom prompts on the Generate page').waitFor();
      await pageShots(page, 'billing-51-payment-annual');
      await payByEnter(page, '$399.90');
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      expect(await profileOf(product.api, session)).toMatchObject({
        plan_type: 'premium',
        subscription_interval: 'annual',
        credits_balance: 16,
      });

      await page.goto(product.url('/dashboard'));
      const subscription = page.getByRole('region', { name: 'Subscription' });
      await subscription.getByText('$399.90/year').waitFor();
      await subscription.getByText('Annual', { exact: true }).waitFor();
      await subscription.getByText('Premium', { exact: true }).waitFor();

      // A finished model, so /generate opens its studio (seeded now: its ready notice stays out
      // of the shots above).
      await seedModel(product.db, session.user.id, 'completed');
      await product.db
        .updateTable('users')
        .set({ models_trained: 1, gender: 'female', age: 40 })
        .where('id', '=', session.user.id)
        .execute();
      await page.goto(product.url('/generate'));
      await page.getByRole('button', { name: 'Generate AI Headshot' }).waitFor();
      await page.getByLabel('Premium: Custom Prompt').waitFor();
    } finally {
      await context.close();
    }
  });
});
