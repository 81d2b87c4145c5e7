// Stripe mode in a browser: the built product with PAYMENT_PROVIDER=stripe, its stripe SDK
// pointed at stripe-mock (`npm test` starts it: STRIPE_MOCK_URL), and the card step on Stripe
// Elements through the official React bindings. The page loads Stripe.js from Stripe's own
// address under our Content-Security-Policy; Playwright routing serves a stand-in for it there
// (e2e/stand-ins/stripe-js.js), and hands the calls it makes to https://api.stripe.com to
// stripe-mock. What Stripe then tells us by webhook, the test delivers, signed.
import { createDb } from '@studioshot/db';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../fixtures.js';
import {
  DESKTOP,
  launchBrowser,
  screenshot as saveScreenshot,
  signedInPage,
  startApp,
  type RunningApp,
  type Session,
} from '../harness.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const STAND_IN = readFileSync(path.join(HERE, '../stand-ins/stripe-js.js'), 'utf8');
// stripe-mock takes only secret test keys; these are made up, valid-looking test keys.
const SECRET_KEY = 'sk_test_StudioshotBrowserTests42';
const PUBLISHABLE_KEY = 'pk_test_StudioshotBrowserTests42';
const WEBHOOK_SECRET = 'whsec_studioshot_browser_tests_42';
const MOBILE = { width: 375, height: 800 };

function stripeMockUrl(): string {
  const url = process.env.STRIPE_MOCK_URL;
  if (!url) throw new Error('STRIPE_MOCK_URL is not set: run the browser tests with `npm test`.');
  return url;
}

let app: RunningApp;
let browser: Browser;
beforeAll(async () => {
  app = await startApp({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripeMockUrl(),
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const url = (p: string) => `${app.baseUrl}${p}`;

async function register(name: string): Promise<Session> {
  const res = await fetch(url('/api/v1/auth/register'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: uniqueEmail('stripe'), password: 'studio-portrait-1', name }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Session;
}

/** The user's stored payments, as their data export lists them (every row of theirs). */
async function paymentsOf(session: Session): Promise<{ status: string }[]> {
  const db = createDb(app.databaseUrl, { max: 1 });
  try {
    return await db
      .selectFrom('payments')
      .select(['status', 'provider_intent_id'])
      .where('user_id', '=', session.user.id)
      .execute();
  } finally {
    await db.destroy();
  }
}

async function creditsOf(session: Session): Promise<number> {
  const res = await fetch(url('/api/v1/users/profile'), {
    headers: { Authorization: `Bearer ${session.access_token}` },
  });
  return ((await res.json()) as { credits_balance: number }).credits_balance;
}

/** What Stripe's API and script hosts answer this page, and the calls they saw. */
interface StripeNetwork {
  scripts: string[];
  calls: { method: string; path: string; params: URLSearchParams }[];
}

/**
 * Stripe's hosts for this page. Stripe.js authenticates with the publishable key (the `key`
 * parameter); stripe-mock takes only secret keys, so this router checks the publishable key, as
 * Stripe does, and calls stripe-mock with a secret one.
 */
async function routeStripe(page: Page): Promise<StripeNetwork> {
  const network: StripeNetwork = { scripts: [], calls: [] };
  await page.route('https://js.stripe.com/**', (route: Route, request: Request) => {
    network.scripts.push(request.url());
    return route.fulfill({ contentType: 'application/javascript', body: STAND_IN });
  });
  await page.route('https://api.stripe.com/**', async (route: Route, request: Request) => {
    const target = new URL(request.url());
    const params = new URLSearchParams(
      request.method() === 'GET' ? target.search : (request.postData() ?? ''),
    );
    network.calls.push({ method: request.method(), path: target.pathname, params });
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (params.get('key') !== PUBLISHABLE_KEY) {
      return route.fulfill({
        status: 401,
        headers: cors,
        json: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
      });
    }
    params.delete('key');
    const forwarded = new URL(target.pathname, stripeMockUrl());
    if (request.method() === 'GET') forwarded.search = params.toString();
    const answer = await fetch(forwarded, {
      method: request.method(),
      headers: {
        Authorization: `Bearer ${SECRET_KEY}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: request.method() === 'GET' ? undefined : params.toString(),
    });
    return route.fulfill({
      status: answer.status,
      headers: { ...cors, 'Content-Type': 'application/json' },
      body: await answer.text(),
    });
  });
  return network;
}

/** Stripe telling us, signed, that a PaymentIntent succeeded. */
function deliverSucceeded(intent: { id: string; amount: number }) {
  return deliver('payment_intent.succeeded', {
    id: intent.id,
    object: 'payment_intent',
    amount: intent.amount,
    currency: 'usd',
    status: 'succeeded',
    metadata: {},
  });
}

/** Stripe telling us, signed, of an event about `object`. */
async function deliver(type: string, object: object) {
  const payload = JSON.stringify({
    id: `evt_browser_${randomUUID()}`,
    object: 'event',
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
  });
  // Stripe's signature scheme: HMAC-SHA256 of '{timestamp}.{payload}' with the webhook secret.
  const timestamp = Math.floor(Date.now() / 1000);
  const digest = createHmac('sha256', WEBHOOK_SECRET)
    .update(`${timestamp}.${payload}`)
    .digest('hex');
  const signature = `t=${timestamp},v1=${digest}`;
  const res = await fetch(url('/api/v1/payments/webhook'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: payload,
  });
  expect(res.status).toBe(200);
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A subscription's invoice for one period, as Stripe's `invoice.*` events carry it. */
function invoice(input: {
  id: string;
  subscription: string;
  period: { start: Date; end: Date };
  amount: number;
  reason: 'subscription_create' | 'subscription_cycle';
  paid: boolean;
  attempt: number;
  nextAttempt: Date | null;
  hostedUrl: string;
}) {
  return {
    id: input.id,
    object: 'invoice',
    billing_reason: input.reason,
    status: input.paid ? 'paid' : 'open',
    currency: 'usd',
    amount_due: input.amount,
    amount_paid: input.paid ? input.amount : 0,
    attempt_count: input.attempt,
    next_payment_attempt: input.nextAttempt ? seconds(input.nextAttempt) : null,
    hosted_invoice_url: input.hostedUrl,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: input.subscription, metadata: {} },
    },
    lines: {
      object: 'list',
      data: [
        {
          id: `il_${input.id}`,
          object: 'line_item',
          amount: input.amount,
          currency: 'usd',
          period: { start: seconds(input.period.start), end: seconds(input.period.end) },
        },
      ],
    },
  };
}

const monthAfter = (date: Date, months = 1) => {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
};

async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, name);
}

async function fillCard(page: Page, number: string) {
  const form = page.getByRole('form', { name: 'Card details' });
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiration date').fill('12 / 34');
  await form.getByLabel('Security code').fill('123');
}

describe('Stripe mode in the browser', () => {
  it('the landing page loads no Stripe.js', async () => {
    const { context, page } = await signedInPage(browser, await register('Lena Landing'));
    const network = await routeStripe(page);
    await page.goto(url('/'));
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(network.scripts).toEqual([]);
    await context.close();
  });

  it('buys a credit pack with Stripe Elements: declined, then paid; the webhook grants the credits', async () => {
    const session = await register('Stella Stripe');
    const { context, page } = await signedInPage(browser, session);
    const network = await routeStripe(page);
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    const creates: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/payments/create-credit-payment'))
        creates.push(request.headers()['idempotency-key'] ?? '');
    });
    await page.goto(url('/payment?type=credits&pack=starter_pack'));

    const form = page.getByRole('form', { name: 'Card details' });
    await form.getByLabel('Card number').waitFor();
    // The card form is set up from the amount alone (Stripe's deferred intent): opening the
    // checkout created no intent, so no payment is stored for this visit.
    expect(creates).toEqual([]);
    expect(await paymentsOf(session)).toEqual([]);
    // Stripe.js came from Stripe's address, under our policy.
    expect(network.scripts).toEqual([
      expect.stringMatching(/^https:\/\/js\.stripe\.com\/\w+\/stripe\.js/),
    ]);
    const pay = form.getByRole('button', { name: 'Pay $9.99' });
    expect(await pay.isDisabled()).toBe(true);
    await form.getByText('Enter your card details to pay.').waitFor();
    await screenshot(page, 'stripe-payment-1280');
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'stripe-payment-375');
    await page.setViewportSize(DESKTOP);

    // A declined card: Stripe's message, nothing granted. Pay made the intent.
    const created = page.waitForResponse(
      (res) => res.url().endsWith('/api/v1/payments/create-credit-payment') && res.ok(),
    );
    await fillCard(page, '4000000000000002');
    await pay.click();
    const intent = (await (await created).json()) as {
      payment_intent_id: string;
      client_secret: string;
      amount: number;
    };
    expect(intent.amount).toBe(999);
    await form.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    await screenshot(page, 'stripe-payment-declined-1280');
    expect(await creditsOf(session)).toBe(0);

    // 4242: Stripe.js confirms with Stripe, then the page waits for our server to hear of it.
    // stripe-mock's intents never change state, so our server reads this one as not paid (402)
    // until the webhook arrives; the page, told by Stripe.js that the card was taken, asks again.
    const waiting = page.waitForResponse(
      (res) => res.url().endsWith('/api/v1/payments/confirm-payment') && res.status() === 402,
    );
    await fillCard(page, '4242424242424242');
    await pay.click();
    await waiting;
    await form.getByRole('button', { name: 'Processing Secure Payment...' }).waitFor();
    // Stripe.js confirms the intent its client secret names (stripe-mock hands every intent the
    // same sample secret, so the id there is its sample's).
    const confirm = network.calls.find((c) => c.path.endsWith('/confirm'));
    expect(confirm).toMatchObject({
      method: 'POST',
      path: `/v1/payment_intents/${intent.client_secret.split('_secret_')[0]}/confirm`,
    });
    expect(confirm!.params.get('client_secret')).toBe(intent.client_secret);
    expect(confirm!.params.get('payment_method')).toMatch(/^pm_/);

    // Both presses paid the one intent the first made (the checkout's Idempotency-Key).
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatch(/^checkout-/);
    expect(await paymentsOf(session)).toHaveLength(1);

    await deliverSucceeded({ id: intent.payment_intent_id, amount: intent.amount });
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await page.getByText('20 credits have been added to your account.').waitFor();
    await screenshot(page, 'stripe-payment-success-1280');
    // The page moves on to the dashboard, which shows the balance.
    await page.waitForURL(url('/dashboard'));
    const stat = page.getByText('Credits Available', { exact: true }).locator('..');
    await stat.filter({ hasText: '20' }).waitFor();
    expect(await creditsOf(session)).toBe(20);
    expect(blocked).toEqual([]);
    await context.close();
  });

  it('3-D Secure: Stripe.js asks the bank first; a failed check is said, a passed one pays', async () => {
    const session = await register('Theo Secure');
    const { context, page } = await signedInPage(browser, session);
    await routeStripe(page);
    await page.goto(url('/payment?type=credits&pack=professional_pack'));
    const form = page.getByRole('form', { name: 'Card details' });
    await form.getByLabel('Card number').waitFor();
    await fillCard(page, '4000002500003155');
    const pay = form.getByRole('button', { name: 'Pay $24.99' });
    const bank = page.getByRole('dialog', { name: '3D Secure authentication' });
    // The customer fails the bank's check: Stripe's message, and they may try again.
    const created = page.waitForResponse(
      (res) => res.url().endsWith('/api/v1/payments/create-credit-payment') && res.ok(),
    );
    await pay.click();
    const intent = (await (await created).json()) as { payment_intent_id: string; amount: number };
    await bank.getByRole('button', { name: 'Fail authentication' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: 'We are unable to authenticate your payment method.' })
      .waitFor();
    expect(await creditsOf(session)).toBe(0);

    await pay.click();
    await bank.waitFor();
    await screenshot(page, 'stripe-3ds-1280');
    // Not paid as stripe-mock reads it (402) until the webhook, as in the card test above.
    const waiting = page.waitForResponse(
      (res) => res.url().endsWith('/api/v1/payments/confirm-payment') && res.status() === 402,
    );
    await bank.getByRole('button', { name: 'Complete authentication' }).click();
    await waiting;
    await deliverSucceeded({ id: intent.payment_intent_id, amount: intent.amount });
    await page.getByText('60 credits have been added to your account.').waitFor();
    expect(await creditsOf(session)).toBe(60);
    await context.close();
  });

  it("a failed renewal: the dashboard's Update card and pay opens the invoice's page at Stripe", async () => {
    const session = await register('Rita Renewal');
    const bought = await fetch(url('/api/v1/payments/create-training-payment'), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${session.access_token}`,
      },
      body: JSON.stringify({ plan_name: 'starter' }),
    });
    expect(bought.status).toBe(200);
    const db = createDb(app.databaseUrl, { max: 1 });
    const { id: subscription } = await db
      .selectFrom('stripe_subscriptions')
      .select('id')
      .where('user_id', '=', session.user.id)
      .executeTakeFirstOrThrow();
    await db.destroy();
    // Starter since a month and two days ago; Stripe's renewal charge two days ago was declined.
    const renewedAt = new Date(seconds(new Date(Date.now() - 2 * 24 * 3600_000)) * 1000);
    const first = { start: monthAfter(renewedAt, -1), end: renewedAt };
    const second = { start: renewedAt, end: monthAfter(renewedAt) };
    const common = { subscription, amount: 999, attempt: 1, nextAttempt: null };
    await deliver(
      'invoice.paid',
      invoice({
        ...common,
        id: 'in_browser_first',
        period: first,
        reason: 'subscription_create',
        paid: true,
        hostedUrl: 'https://invoice.stripe.com/i/acct_studioshot/test_in_browser_first',
      }),
    );
    const payPage = 'https://invoice.stripe.com/i/acct_studioshot/test_in_browser_renewal';
    const renewal = {
      ...common,
      id: 'in_browser_renewal',
      period: second,
      reason: 'subscription_cycle' as const,
      hostedUrl: payPage,
    };
    await deliver(
      'invoice.payment_failed',
      invoice({ ...renewal, paid: false, nextAttempt: new Date(Date.now() + 24 * 3600_000) }),
    );

    const { context, page } = await signedInPage(browser, session);
    // Stripe's invoice page, played by a stand-in: the address is what matters here.
    const opened: string[] = [];
    await context.route('https://invoice.stripe.com/**', (route: Route, request: Request) => {
      opened.push(request.url());
      return route.fulfill({
        contentType: 'text/html',
        body: '<title>Stripe invoice</title><h1>Pay your invoice</h1>',
      });
    });
    await page.goto(url('/dashboard'));
    const panel = page.getByRole('region', { name: 'Subscription' });
    const pay = panel.getByRole('link', { name: /^Update card and pay \$9\.99/ });
    await pay.waitFor();
    expect(await pay.getAttribute('href')).toBe(payPage);
    await page.getByRole('complementary', { name: 'Subscription renewal' }).waitFor();
    await screenshot(page, 'stripe-renewal-past-due-1280');
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'stripe-renewal-past-due-375');
    await page.setViewportSize(DESKTOP);

    // The link opens Stripe's page in a new tab; this one stays.
    const [stripeTab] = await Promise.all([context.waitForEvent('page'), pay.click()]);
    await stripeTab.getByRole('heading', { name: 'Pay your invoice' }).waitFor();
    expect(opened).toEqual([payPage]);
    await stripeTab.close();
    // Paid there: Stripe tells us, and the dashboard, asking again, shows the plan active.
    await deliver('invoice.paid', invoice({ ...renewal, paid: true, attempt: 2 }));
    await page.bringToFront();
    await panel.getByText('Active', { exact: true }).waitFor();
    expect(await pay.count()).toBe(0);
    expect(await page.getByRole('complementary', { name: 'Subscription renewal' }).count()).toBe(0);
    await context.close();
  });
});
