import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../fixtures.js';
import {
  DESKTOP,
  launchBrowser,
  screenshot,
  signedInPage,
  startApp,
  type RunningApp,
  type Session,
} from '../harness.js';

// Renewals in test payment mode, end to end: the test clock brings a subscription to its period
// end, a card on file that declines makes the renewal fail, and the web app says so on every
// signed-in page until the dashboard's card form pays it.

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const MOBILE = { width: 375, height: 800 };
const CARD = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Ada Lovelace' };
const DECLINES_ON_RENEWAL = { ...CARD, number: '4000 0000 0000 0341' };

async function call(session: Session | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(session ? { Authorization: `Bearer ${session.access_token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** A Starter subscriber whose card on file declines, with the renewal already failed once. */
async function subscriberWithFailedRenewal(name: string): Promise<Session> {
  const session = (await call(null, 'POST', '/api/v1/auth/register', {
    email: uniqueEmail(name.split(' ')[1]!.toLowerCase()),
    password: 'studio-portrait-1',
    name,
  })) as unknown as Session;
  const intent = await call(session, 'POST', '/api/v1/payments/create-training-payment', {
    plan_name: 'starter',
  });
  await call(session, 'POST', '/api/v1/payments/test/confirm-card', {
    payment_intent_id: intent.payment_intent_id,
    client_secret: intent.client_secret,
    card: CARD,
  });
  await call(session, 'POST', '/api/v1/payments/confirm-plan-subscription', {
    payment_intent_id: intent.payment_intent_id,
  });
  await call(session, 'POST', '/api/v1/payments/test/card-on-file', { card: DECLINES_ON_RENEWAL });
  const advanced = await call(session, 'POST', '/api/v1/payments/test/advance-clock');
  expect(advanced.steps).toEqual(['renewal_failed']);
  return session;
}

async function shots(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(MOBILE);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
}

describe('renewals in the browser', () => {
  it('a failed renewal: a banner on every signed-in page, and the dashboard pays it with a new card', async () => {
    const session = await subscriberWithFailedRenewal('Renewal Failed');
    const { context, page } = await signedInPage(browser, session);
    try {
      await page.goto(`${app.baseUrl}/credits`);
      const banner = page.getByRole('complementary', { name: 'Subscription renewal' });
      await banner.getByText('The renewal payment for your Starter plan failed.').waitFor();
      await shots(page, 'renewal-failed-banner-credits');

      await banner.getByRole('link', { name: 'Update card' }).click();
      await page.waitForURL(`${app.baseUrl}/dashboard`);
      const card = page.getByRole('region', { name: 'Subscription' });
      await card.getByText('Payment failed').waitFor();
      await card.getByText('Next try').waitFor();
      await card.getByText(/^\$9\.99 on /).waitFor();
      await card.getByRole('button', { name: 'Update card and pay $9.99' }).click();
      await shots(page, 'renewal-failed-dashboard');

      const form = card.getByRole('form', { name: 'Card details' });
      await form.getByLabel('Name on card').fill(CARD.name);
      await form.getByLabel('Card number').fill(CARD.number);
      await form.getByLabel('Expiry (MM/YY)').fill('1234');
      await form.getByLabel('CVC').fill(CARD.cvc);
      await form.getByRole('button', { name: /Pay \$9\.99/ }).click();
      await card.getByText('Active', { exact: true }).waitFor();
      await card.getByText('Next charge').waitFor();
      await card.getByText('4 credits and trainings renew').waitFor();
      await banner.waitFor({ state: 'detached' });
      const profile = await call(session, 'GET', '/api/v1/users/profile');
      expect(profile).toMatchObject({ plan_type: 'starter', credits_balance: 8 });
      await shots(page, 'renewal-paid-dashboard');
    } finally {
      await context.close();
    }
  });

  it('retries that all fail: the plan lapses to free and the banner leads to the plans', async () => {
    const session = await subscriberWithFailedRenewal('Renewal Lapsed');
    for (const expected of [['renewal_failed'], ['renewal_failed'], ['lapsed']]) {
      const advanced = await call(session, 'POST', '/api/v1/payments/test/advance-clock');
      expect(advanced.steps).toEqual(expected);
    }
    const { context, page } = await signedInPage(browser, session);
    try {
      await page.goto(`${app.baseUrl}/dashboard`);
      const banner = page.getByRole('complementary', { name: 'Subscription renewal' });
      await banner.getByText('Your Starter plan has ended: its renewal payment failed.').waitFor();
      const card = page.getByRole('region', { name: 'Subscription' });
      await card
        .getByText(/Your Starter plan ended on .* because its renewal payment failed:/)
        .waitFor();
      await shots(page, 'renewal-lapsed-dashboard');
      await banner.getByRole('link', { name: 'Choose a plan' }).click();
      await page.waitForURL(`${app.baseUrl}/pricing`);
    } finally {
      await context.close();
    }
  });
});
