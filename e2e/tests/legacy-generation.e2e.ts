import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyCredits,
  followGeneration,
  pageShots,
  register,
  seedModel,
  setProfile,
  startProduct,
  trainModel,
  uploadCheckedPhotos,
  userWithTrainingSlot,
  type Product,
} from '../fixtures.js';
import { DESKTOP, signedInPage } from '../harness.js';

/**
 * The landing page's Get Started, followed in the browser for each of its cases (signed out, a
 * running or pending training, a completed one, trainings that all failed, a model without a
 * training job, nothing at all, and the jobs call failing); and the legacy pages against the real
 * API, worker and studio engine: /generate-simple makes four headshots from a style for a user
 * with photos and no model, with live progress; once that user has a model it sends them to
 * /generate-trained, and /generate-trained-old generates with the model.
 */
let product: Product;

const url = (p: string) => product.url(p);

beforeAll(async () => {
  product = await startProduct();
}, 120_000);
afterAll(async () => {
  await product?.stop();
});

/** Clicks the landing page's signed-in Get Started and waits for where it leads. */
async function followGetStarted(page: Page, expected: string, shot: string) {
  await page.goto(url('/'));
  const cta = page.getByRole('region', { name: 'Ready for your next set of headshots?' });
  await cta.getByRole('button', { name: 'Get Started' }).click();
  await page.waitForURL((u) => u.pathname === expected, { timeout: 15_000 });
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await pageShots(page, shot);
}

describe('Get Started on the landing page', () => {
  it('signed out: remembers /pricing and goes to /auth', async () => {
    const context = await product.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await page.goto(url('/'));
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: 'Get Started' })
        .click();
      await page.waitForURL((u) => u.pathname === '/auth');
      expect(await page.evaluate(() => localStorage.getItem('authRedirect'))).toBe('/pricing');
      await page.locator('h1').first().waitFor();
      await pageShots(page, 'get-started-signed-out');
    } finally {
      await context.close();
    }
  });

  const cases: {
    name: string;
    seed: (userId: string) => Promise<string | null>;
    to: (seeded: string | null) => string;
  }[] = [
    {
      name: 'a running training goes to its live status',
      seed: (user) => seedModel(product.db, user, 'running'),
      to: (id) => `/training/${id}`,
    },
    {
      name: 'a pending training goes to its live status',
      seed: (user) => seedModel(product.db, user, 'queued'),
      to: (id) => `/training/${id}`,
    },
    {
      name: 'a completed training goes to /generate',
      seed: (user) => seedModel(product.db, user, 'completed'),
      to: () => '/generate',
    },
    {
      name: 'trainings that all failed go to /pricing',
      seed: (user) => seedModel(product.db, user, 'failed'),
      to: () => '/pricing',
    },
    {
      name: 'no training job but a model goes to /generate',
      seed: (user) => seedModel(product.db, user, null),
      to: () => '/generate',
    },
    {
      name: 'no jobs and no models go to /dashboard',
      seed: async () => null,
      to: () => '/dashboard',
    },
  ];
  for (const [index, testCase] of cases.entries()) {
    it(`signed in: ${testCase.name}`, async () => {
      const session = await register(product.api, `Starter${index}`);
      const seeded = await testCase.seed(session.user.id);
      const { context, page } = await signedInPage(product.browser, session);
      try {
        const target = testCase.to(seeded);
        await followGetStarted(
          page,
          target,
          `get-started-${target.split('/')[1]}-${testCase.name.split(' ').slice(0, 3).join('-')}`,
        );
      } finally {
        await context.close();
      }
    });
  }

  it('signed in: the jobs call failing goes to /pricing', async () => {
    const session = await register(product.api, 'Starter-error');
    const { context, page } = await signedInPage(product.browser, session);
    try {
      await page.route('**/api/v1/training/jobs', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ detail: 'Internal error', code: 'internal' }),
        }),
      );
      await followGetStarted(page, '/pricing', 'get-started-pricing-error');
    } finally {
      await context.close();
    }
  });
});

async function expectFourLoadedImages(page: Page) {
  const results = page.getByRole('region', { name: 'Your Headshots' });
  expect(await results.getByRole('article').count()).toBe(4);
  await page.waitForFunction(() =>
    Array.from(
      document.querySelectorAll<HTMLImageElement>('[aria-labelledby="results-title"] img'),
    ).every((img) => img.complete && img.naturalWidth === 1024),
  );
  return results;
}

describe('the legacy generation pages', () => {
  it('/generate-simple generates from a style; with a model it leads to /generate-trained, and /generate-trained-old generates with it', async () => {
    const user = await userWithTrainingSlot(product.api, 'Grace');
    await setProfile(product.api, user, { gender: 'female', age: 38 });
    const sessionId = await uploadCheckedPhotos(product, user);
    await buyCredits(product.api, user, 'Grace Hopper');

    const { context, page } = await signedInPage(product.browser, user);
    try {
      // The style page: no model yet, so the headshots come from the best checked photo.
      await page.goto(url('/generate-simple'));
      await page.getByRole('heading', { level: 1, name: 'Generate Headshots' }).waitFor();
      await page.getByText('20', { exact: true }).waitFor();
      await page.getByText('Grace', { exact: true }).first().waitFor();
      const styles = page.getByRole('group', { name: 'Style' });
      await styles.getByText('Professional / Corporate').waitFor();
      expect(await styles.getByRole('radio').count()).toBe(3);
      expect(await page.getByLabel('Describe Your Ideal Shot').inputValue()).toBe(
        'professional headshot in business attire',
      );
      await page.waitForLoadState('networkidle');
      await pageShots(page, 'legacy-generate-simple-idle');

      await styles.getByText('Creative / Modern').click();
      const seen = (
        await followGeneration(
          page,
          page.getByRole('button', { name: 'Generate 4 Headshots (1 credit)' }),
          { progressShot: 'legacy-generate-simple-progress', logs: product.app.logs },
        )
      ).seen.map((s) => s.value);
      // Live progress from the worker before the images came, never going backwards.
      expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      const results = await expectFourLoadedImages(page);
      await results.getByText('Best likeness', { exact: true }).waitFor();
      expect(await results.getByRole('img').first().getAttribute('alt')).toBe(
        'Headshot 1, Creative / Modern style',
      );
      // One credit spent.
      await page.getByText('19', { exact: true }).waitFor();
      await pageShots(page, 'legacy-generate-simple-results');

      // Now train a model from the same photos: the style page is for users without one.
      await trainModel(product, user, sessionId, 'Grace, studio portraits');

      await page.goto(url('/generate-simple'));
      await page.waitForURL((u) => u.pathname === '/generate-trained');
      await page.getByRole('button', { name: 'Generate Premium Headshots' }).waitFor();

      // The classic trained-model page, on the same call as /generate-trained.
      await page.goto(url('/generate-trained-old'));
      await page.getByRole('heading', { level: 1, name: 'Generate with Your Model' }).waitFor();
      const model = page.getByRole('group', { name: 'Choose your model' });
      expect(await model.getByRole('radio').count()).toBe(1);
      expect(await model.getByRole('radio').isChecked()).toBe(true);
      await model.getByText('Grace, studio portraits').waitFor();
      await page.getByRole('group', { name: 'Choose a style' }).getByText('Executive').waitFor();
      await page.waitForLoadState('networkidle');
      await pageShots(page, 'legacy-generate-trained-old-idle');
      await page
        .getByRole('group', { name: 'Choose a style' })
        .getByText('Executive / Leadership')
        .click();
      const classicSeen = (
        await followGeneration(page, page.getByRole('button', { name: 'Generate Headshots' }), {
          progressShot: 'legacy-generate-trained-old-progress',
          logs: product.app.logs,
        })
      ).seen.map((s) => s.value);
      expect(classicSeen.length).toBeGreaterThan(0);
      await expectFourLoadedImages(page);
      await page.getByText('18', { exact: true }).waitFor();
      await pageShots(page, 'legacy-generate-trained-old-results');
    } finally {
      await context.close();
    }
  });
});
