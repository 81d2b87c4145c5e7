import { applyLedgerEntry } from '@studioshot/db';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageShots, register, seedModel, startProduct, type Product } from '../fixtures.js';
import { signedInPage, type Session } from '../harness.js';

/**
 * The low-credit banner (product spec: 'Low-credit banner') walked through its four thresholds on
 * the premium page, the studio and the dashboard: none above 5 credits, 'Running Low on Credits'
 * at 3-5, 'Almost Out of Credits!' at 1-2, 'Out of Credits!' at 0 (no Dismiss), each linking to
 * /credits; and the 'Premium: Custom Prompt' box of /generate, shown only to a premium annual
 * user. The product sells plans monthly only (every plan payment sets the interval to
 * 'monthly'), so premium monthly is bought through the API with the test card, and the spec's
 * premium annual user is written to the database as a subscription sweep or an operator would.
 */
let product: Product;

const url = (p: string) => product.url(p);

beforeAll(async () => {
  product = await startProduct();
}, 120_000);
afterAll(async () => {
  await product?.stop();
});

/** A completed model and its training task, as a finished training leaves them; a profile. */
async function seedTrainedUser(userId: string, gender: 'female' | 'male' = 'female') {
  await seedModel(product.db, userId, 'completed');
  await product.db
    .updateTable('users')
    .set({ models_trained: 1, gender, age: 38 })
    .where('id', '=', userId)
    .execute();
}

/** Moves the balance to `target` through the ledger (its one writer), as grants and uses do. */
async function setCredits(userId: string, target: number) {
  const { credits_balance: current } = await product.db
    .selectFrom('users')
    .select('credits_balance')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (current === target) return;
  const applied = await applyLedgerEntry(product.db, {
    userId,
    delta: target - current,
    reason: 'test_grant',
    idempotencyKey: `e2e-low-credit:${userId}:${target}:${crypto.randomUUID()}`,
  });
  expect(applied.outcome).toBe('applied');
}

const THRESHOLDS = [
  { credits: 6, title: null, action: null },
  { credits: 5, title: 'Running Low on Credits', action: 'View Credit Packages' },
  { credits: 3, title: 'Running Low on Credits', action: 'View Credit Packages' },
  { credits: 2, title: 'Almost Out of Credits!', action: 'Get More Credits' },
  { credits: 1, title: 'Almost Out of Credits!', action: 'Get More Credits' },
  { credits: 0, title: 'Out of Credits!', action: 'Buy Credits Now' },
] as const;

const credits = (n: number) => `${n} ${n === 1 ? 'credit' : 'credits'}`;

/** The banner on the page now: its heading, its link to /credits, and whether it offers Dismiss. */
async function readBanner(page: Page) {
  const banner = page.getByRole('region', { name: 'Credit balance' });
  if ((await banner.count()) === 0) return null;
  const link = banner.getByRole('link');
  return {
    title: await banner.getByRole('heading').innerText(),
    action: await link.innerText(),
    href: await link.getAttribute('href'),
    dismiss: (await banner.getByRole('button', { name: 'Dismiss' }).count()) === 1,
  };
}

describe('the low-credit banner', () => {
  it('walks the four thresholds on /generate-trained, /generate and /dashboard (1280 and 375 px)', async () => {
    const session = await register(product.api, 'Lise');
    await seedTrainedUser(session.user.id);
    const { context, page } = await signedInPage(product.browser, session);
    try {
      for (const level of THRESHOLDS) {
        await setCredits(session.user.id, level.credits);
        const expected = level.title
          ? {
              title: level.title,
              action: level.action,
              href: '/credits',
              // Dismiss only while some credits are left (spec).
              dismiss: level.credits > 0,
            }
          : null;

        await page.goto(url('/generate-trained'));
        await page.getByRole('button', { name: 'Generate Premium Headshots' }).waitFor();
        await page.getByText(credits(level.credits), { exact: true }).first().waitFor();
        expect(await readBanner(page), `/generate-trained at ${level.credits}`).toEqual(expected);
        // The four thresholds (none, 3-5, 1-2, 0) each get their pair of screenshots.
        if ([6, 5, 2, 0].includes(level.credits)) {
          await pageShots(page, `low-credit-${level.credits}-generate-trained`);
        }

        await page.goto(url('/generate'));
        await page.getByRole('button', { name: 'Generate AI Headshot' }).waitFor();
        await page.getByText(credits(level.credits), { exact: true }).first().waitFor();
        expect(await readBanner(page), `/generate at ${level.credits}`).toEqual(expected);

        await page.goto(url('/dashboard'));
        await page
          .getByText('Credits Available')
          .locator('..')
          .getByText(String(level.credits), { exact: true })
          .waitFor();
        expect(await readBanner(page), `/dashboard at ${level.credits}`).toEqual(expected);
      }

      // At 0 every generate action is blocked, and the banner's action leads to /credits.
      await page.goto(url('/generate-trained'));
      const banner = page.getByRole('region', { name: 'Credit balance' });
      await banner.getByRole('link', { name: 'Buy Credits Now' }).click();
      await page.waitForURL((u) => u.pathname === '/credits');
      await page.getByRole('heading', { name: 'Buy Credits' }).waitFor();

      // Dismiss hides it for the visit (at 2 credits).
      await setCredits(session.user.id, 2);
      await page.goto(url('/generate-trained'));
      await banner.getByRole('heading', { name: 'Almost Out of Credits!' }).waitFor();
      await banner.getByRole('button', { name: 'Dismiss' }).click();
      await banner.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});

/** Buys the Premium plan through the API as /payment does (test card 4242): premium, monthly. */
async function buyPremium(session: Session) {
  const intent = await product.api<{ payment_intent_id: string; client_secret: string }>(
    session,
    '/api/v1/payments/create-training-payment',
    { plan_name: 'premium' },
  );
  expect(intent.status, JSON.stringify(intent.body)).toBeLessThan(300);
  const card = await product.api(session, '/api/v1/payments/test/confirm-card', {
    payment_intent_id: intent.body.payment_intent_id,
    client_secret: intent.body.client_secret,
    card: { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Test User' },
  });
  expect(card.status).toBeLessThan(300);
  const confirmed = await product.api<{ plan_type: string }>(
    session,
    '/api/v1/payments/confirm-plan-subscription',
    { payment_intent_id: intent.body.payment_intent_id },
  );
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBeLessThan(300);
  const profile = await product.api<{ plan_type: string; subscription_interval: string | null }>(
    session,
    '/api/v1/users/profile',
    undefined,
    'GET',
  );
  expect(profile.body).toMatchObject({ plan_type: 'premium', subscription_interval: 'monthly' });
}

/**
 * Opens /generate and says whether the premium prompt box is there once the studio shows the
 * fresh profile: each user has a balance of their own, which the stored user (from sign-up, 0
 * credits, free plan) does not have, so the credits pill showing it means plan and interval
 * arrived too.
 */
async function customPromptShown(page: Page, credits: number): Promise<boolean> {
  await page.goto(url('/generate'));
  await page.getByRole('button', { name: 'Generate AI Headshot' }).waitFor();
  await page.getByText(`${credits} credits`, { exact: true }).first().waitFor();
  return (await page.getByLabel('Premium: Custom Prompt').count()) === 1;
}

describe("the 'Premium: Custom Prompt' box on /generate", () => {
  it('shows only for a premium annual user', async () => {
    // Free, and starter annual: no box.
    const free = await register(product.api, 'Emmy');
    await seedTrainedUser(free.user.id);
    await setCredits(free.user.id, 7);
    // Premium monthly, bought with the test card: still no box (annual only,
    // docs/spec/screens.md#6-roles).
    const monthly = await register(product.api, 'Sofia');
    await seedTrainedUser(monthly.user.id);
    await buyPremium(monthly);
    await setCredits(monthly.user.id, 8);
    // Starter annual: the interval alone is not enough.
    const starterAnnual = await register(product.api, 'Maryam');
    await seedTrainedUser(starterAnnual.user.id);
    await product.db
      .updateTable('users')
      .set({ plan_type: 'starter', subscription_interval: 'annual', training_limit: 1 })
      .where('id', '=', starterAnnual.user.id)
      .execute();
    await setCredits(starterAnnual.user.id, 9);
    // Premium annual: the product has no annual checkout yet, so the plan is written as the
    // spec defines it (plan_type premium, subscription_interval annual).
    const annual = await register(product.api, 'Ada');
    await seedTrainedUser(annual.user.id);
    await setCredits(annual.user.id, 10);
    await product.db
      .updateTable('users')
      .set({ plan_type: 'premium', subscription_interval: 'annual', training_limit: 10 })
      .where('id', '=', annual.user.id)
      .execute();

    for (const [who, session, credits, shown] of [
      ['free', free, 7, false],
      ['premium monthly', monthly, 8, false],
      ['starter annual', starterAnnual, 9, false],
      ['premium annual', annual, 10, true],
    ] as const) {
      const { context, page } = await signedInPage(product.browser, session);
      try {
        expect(await customPromptShown(page, credits), who).toBe(shown);
        if (!shown) continue;
        const box = page.getByLabel('Premium: Custom Prompt');
        await box.fill('person in a navy suit on a rooftop at dusk');
        await pageShots(page, '80-generate-premium-custom-prompt');
        // Choosing another template clears it (spec: selecting a template resets the prompt).
        await page.getByRole('button', { name: 'Next template' }).click();
        await page.waitForFunction(
          () =>
            (document.getElementById('custom-prompt') as HTMLTextAreaElement | null)?.value === '',
        );
      } finally {
        await context.close();
      }
    }
  });
});
