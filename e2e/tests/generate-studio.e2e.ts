import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  followGeneration,
  MOBILE,
  pageShot,
  savedFiles,
  startProduct,
  stubSavePicker,
  trainedUserWithCredits,
  type Product,
} from '../fixtures.js';
import { DESKTOP, signedInPage, type Session } from '../harness.js';

/**
 * The /generate template studio against the real product: a user whose model the worker trained
 * from real photos picks a template in the carousel (category chip, arrow key, Next, a variant),
 * generates with live progress, gets four headshots of that template, downloads one, and the
 * credit is spent. Screenshots at 1280 and 375 px, axe on both.
 */
let product: Product;
let session: Session;

const url = (p: string) => product.url(p);

beforeAll(async () => {
  product = await startProduct();
  // A woman's account with a model trained by the worker from 12 real photos, and 20 credits.
  session = await trainedUserWithCredits(product, {
    name: 'Grace',
    gender: 'female',
    age: 45,
    modelName: 'Grace, studio portraits',
    cardName: 'Grace Hopper',
  });
}, 240_000);
afterAll(async () => {
  await product?.stop();
});

/** At 375 px: a screenshot, no sideways scrolling, and no serious or critical axe violation. */
async function checkMobile(page: Page, name: string) {
  await page.setViewportSize(MOBILE);
  await page.waitForTimeout(350);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(MOBILE.width);
  await checkAxe(page);
  await pageShot(page, name);
  await page.setViewportSize(DESKTOP);
  await page.waitForTimeout(350);
}

async function checkAxe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
}

describe('the template studio in the browser', () => {
  it('picks a template on /generate, generates with live progress, and gets 4 headshots of it', async () => {
    const { context, page } = await signedInPage(product.browser, session);
    await stubSavePicker(page);
    const counter = page.getByText(/^Template \d+ of \d+$/);
    try {
      await page.goto(url('/generate'));
      const generate = page.getByRole('button', { name: 'Generate AI Headshot' });
      await generate.waitFor();
      await page.getByText('20', { exact: true }).waitFor();
      // The profile says female; one model, so no picker.
      expect(await page.getByRole('button', { name: 'Female' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      expect(await page.getByLabel('Trained model').count()).toBe(0);
      expect(await counter.innerText()).toBe('Template 1 of 30');
      // Every template picture on show really loaded, at 400x450.
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>('[data-testid="carousel-stage"] img'),
        )
          .filter((img) => img.closest('[data-offset="0"], [data-offset="1"], [data-offset="-1"]'))
          .every((img) => img.complete && img.naturalWidth === 400 && img.naturalHeight === 450),
      );
      await checkAxe(page);
      await pageShot(page, '70-generate-studio');
      await checkMobile(page, '70-generate-studio-mobile');

      await page.getByRole('button', { name: 'Executive / Leadership' }).click();
      await page.getByText('Template 1 of 10', { exact: true }).waitFor();
      // The arrow key moves the carousel; Next after the 300 ms lock.
      await page.locator('h1').click();
      await page.keyboard.press('ArrowRight');
      await page.getByText('Template 2 of 10', { exact: true }).waitFor();
      await page.waitForTimeout(350);
      await page.getByRole('button', { name: 'Next template' }).click();
      await page.getByText('Template 3 of 10', { exact: true }).waitFor();
      const variants = page.getByRole('group', { name: 'Variants of Warm Walnut Boardroom' });
      await variants.getByRole('button', { name: 'Dramatic' }).click();
      expect(
        await variants.getByRole('button', { name: 'Dramatic' }).getAttribute('aria-pressed'),
      ).toBe('true');

      const seen = (
        await followGeneration(page, generate, {
          progressShot: '71-generate-studio-progress',
          logs: product.app.logs,
        })
      ).seen.map((s) => s.value);
      // The bar showed the worker's progress before the images came.
      expect(seen.length).toBeGreaterThan(0);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));

      const results = page.getByRole('region', { name: 'Your AI Headshots' });
      expect(await results.getByRole('article').count()).toBe(4);
      await results.getByText(/4 headshots from Warm Walnut Boardroom \(Dramatic\)/).waitFor();
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>('[aria-labelledby="results-title"] img'),
        ).every((img) => img.complete && img.naturalWidth === 1024),
      );
      // One credit spent.
      await page.getByText('19', { exact: true }).waitFor();
      await checkAxe(page);
      await pageShot(page, '72-generate-studio-results');
      await checkMobile(page, '72-generate-studio-results-mobile');

      // The server rendered the template and variant chosen.
      const listed = await product.api<{ images: { template_id: string; variant: number }[] }>(
        session,
        '/models/generated-images?limit=10&offset=0',
        undefined,
        'GET',
      );
      expect(listed.body.images).toHaveLength(4);
      for (const image of listed.body.images) {
        expect(image).toMatchObject({ template_id: 'prof_33', variant: 1 });
      }

      await results.getByRole('button', { name: 'Download Headshot 1' }).click();
      await page.getByText('Headshot saved.').waitFor();
      const saved = await savedFiles(page);
      expect(saved).toHaveLength(1);
      expect(saved[0]).toMatchObject({ type: 'image/jpeg', head: [0xff, 0xd8] });
      expect(saved[0]!.name).toMatch(/^headshot-[0-9a-f]{8}-1\.jpg$/);

      await page.getByRole('button', { name: 'Generate More' }).click();
      await results.waitFor({ state: 'detached' });
      expect(await generate.isEnabled()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
