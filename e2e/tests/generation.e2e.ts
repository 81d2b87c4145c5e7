import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  followGeneration,
  mobileShot,
  pageShot,
  savedFiles,
  startProduct,
  stubSavePicker,
  trainedUserWithCredits,
  type Product,
} from '../fixtures.js';
import { signedInPage, type Session } from '../harness.js';

/**
 * Generation in the browser against the real product: the API, the worker and the studio engine
 * train a model from real photos, then /generate-trained makes four headshots with live progress,
 * they are saved (picker and plain downloads), found in /gallery and favourited; and the paid
 * $29 order of /payment lands on /results, where a reload shows the same four images.
 */
let product: Product;
let session: Session;

const url = (p: string) => product.url(p);

beforeAll(async () => {
  product = await startProduct();
  // A user with a model trained by the worker from 12 real photos, and 20 bought credits.
  session = await trainedUserWithCredits(product, {
    name: 'Hedy',
    gender: 'female',
    age: 41,
    modelName: 'Hedy, studio portraits',
    cardName: 'Hedy Lamarr',
  });
}, 240_000);
afterAll(async () => {
  await product?.stop();
});

const imageIds = (page: Page, region: string) =>
  page
    .getByRole('region', { name: region })
    .getByRole('img')
    .evaluateAll((imgs) =>
      imgs.map((img) => new URL((img as HTMLImageElement).src).pathname.split('/')[3]),
    );

describe('generating headshots in the browser', () => {
  it('generates on /generate-trained with live progress, saves them, and favourites one in /gallery', async () => {
    const { context, page } = await signedInPage(product.browser, session);
    await stubSavePicker(page);
    try {
      await page.goto(url('/generate-trained'));
      const generate = page.getByRole('button', { name: 'Generate Premium Headshots' });
      await generate.waitFor();
      await page.getByText('20', { exact: true }).waitFor();
      expect(await page.getByLabel('Trained model').inputValue()).toMatch(/^[0-9a-f-]{36}$/);
      await page.getByText('Executive / Leadership').click();
      await page.getByRole('button', { name: 'Leadership Style' }).click();
      const sample = page
        .getByRole('list', { name: 'Leadership Style prompts' })
        .getByRole('button');
      await sample.first().click();
      expect(await page.getByLabel('Custom prompt').inputValue()).toBe(
        await sample.first().innerText(),
      );
      await pageShot(page, '60-generate-trained-idle');

      const { seen, progressShot } = await followGeneration(page, generate, {
        progressShot: '61-generate-trained-progress',
        logs: product.app.logs,
      });
      // The bar showed the worker's own progress and message before the images came.
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.some((s) => s.value > 0 && s.value < 100)).toBe(true);
      expect(seen.map((s) => s.value)).toEqual([...seen.map((s) => s.value)].sort((a, b) => a - b));
      expect(progressShot).toBe(true);

      const results = page.getByRole('region', { name: 'Your Premium Headshots' });
      const cards = results.getByRole('article');
      expect(await cards.count()).toBe(4);
      await results.getByText('Best likeness', { exact: true }).waitFor();
      // Every image really loaded.
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>('[aria-labelledby="results-title"] img'),
        ).every((img) => img.complete && img.naturalWidth === 1024),
      );
      // One credit spent: 20 -> 19, in the pill.
      await page.getByText('19', { exact: true }).waitFor();
      await pageShot(page, '62-generate-trained-results');
      await mobileShot(page, '62-generate-trained-results-mobile');

      // Download one: Chromium's save-file picker (stubbed) gets the JPEG.
      await results.getByRole('button', { name: 'Download Headshot 1' }).click();
      await page.getByText('Headshot saved.').waitFor();
      const saved = await savedFiles(page);
      expect(saved).toHaveLength(1);
      expect(saved[0]).toMatchObject({ type: 'image/jpeg', head: [0xff, 0xd8] });
      expect(saved[0]!.name).toMatch(/^headshot-[0-9a-f]{8}-1\.jpg$/);
      expect(saved[0]!.size).toBeGreaterThan(10_000);

      // Download All: four plain downloads, spaced apart.
      const downloads: string[] = [];
      const allSaved = new Promise<void>((resolve) => {
        page.on('download', (download) => {
          downloads.push(download.suggestedFilename());
          if (downloads.length === 4) resolve();
        });
      });
      await results.getByRole('button', { name: 'Download All' }).click();
      await allSaved;
      expect(downloads).toEqual(
        [1, 2, 3, 4].map((n) => saved[0]!.name.replace(/-1\.jpg$/, `-${n}.jpg`)),
      );
      const generatedIds = await imageIds(page, 'Your Premium Headshots');

      // The gallery, from the dashboard.
      await page.getByRole('link', { name: 'Back to Dashboard' }).click();
      const total = page.getByText('Total Generations').locator('..');
      await total.getByText('1', { exact: true }).waitFor();
      await total.getByRole('link', { name: 'View Gallery' }).click();
      await page.waitForURL((u) => u.pathname === '/gallery');
      await page.getByText('4 headshots, newest first.').waitFor();
      const list = page.getByRole('list', { name: 'Headshots' });
      expect(
        await list
          .getByRole('img')
          .evaluateAll((imgs) =>
            imgs.map((img) => new URL((img as HTMLImageElement).src).pathname.split('/')[3]),
          ),
      ).toEqual(generatedIds);
      // The second headshot's heart, found by place; it is named by template, date and take.
      const heart = list.getByRole('button', { name: /^Favourite / }).nth(1);
      const label = (await heart.getAttribute('aria-label'))!;
      expect(label).toMatch(/^Favourite .+/);
      expect(await heart.getAttribute('aria-pressed')).toBe('false');
      await heart.click();
      await page.waitForFunction(
        (name) =>
          Array.from(document.querySelectorAll('button[aria-label]')).some(
            (b) =>
              b.getAttribute('aria-label') === name && b.getAttribute('aria-pressed') === 'true',
          ),
        label,
      );
      // Kept by the server: still a favourite after a reload.
      await page.reload();
      const again = list.getByRole('button', { name: label, exact: true });
      await again.waitFor();
      expect(await again.getAttribute('aria-pressed')).toBe('true');
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>('ul[aria-label="Headshots"] img'),
        ).every((img) => img.complete && img.naturalWidth > 0),
      );
      await pageShot(page, '63-gallery');
      await mobileShot(page, '63-gallery-mobile');
    } finally {
      await context.close();
    }
  });

  it('pays $29 on /payment, lands on /results with four headshots, and a reload shows the same four', async () => {
    const { context, page } = await signedInPage(product.browser, session);
    try {
      const before = await product.api<{ total: number }>(
        session,
        '/models/generated-images?limit=1&offset=0',
        undefined,
        'GET',
      );
      await page.goto(
        url(`/payment?type=generation&user_id=${session.user.id}&style=professional`),
      );
      await page.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
      const form = page.getByRole('form', { name: 'Card details' });
      await form.getByLabel('Name on card').fill('Hedy Lamarr');
      await form.getByLabel('Card number').fill('4242 4242 4242 4242');
      await form.getByLabel('Expiry (MM/YY)').fill('1234');
      await form.getByLabel('CVC').fill('123');
      await page.getByRole('button', { name: 'Pay $29.00' }).click();

      await page.waitForURL((u) => u.pathname.startsWith('/results/'), { timeout: 15_000 });
      const address = new URL(page.url());
      expect(address.pathname).toBe(`/results/${session.user.id}`);
      expect(address.searchParams.get('payment_intent')).toBeTruthy();
      await page.getByRole('heading', { name: 'Preparing your headshots' }).waitFor();
      await pageShot(page, '64-results-preparing');
      await page.getByRole('progressbar', { name: 'Generation progress' }).waitFor();
      await pageShot(page, '65-results-generating');
      const ready = page.getByRole('heading', { name: 'Your Professional Headshots Are Ready!' });
      await ready.waitFor({ timeout: 120_000 });
      const gallery = page.getByRole('region', { name: 'Your Headshots' });
      expect(await gallery.getByRole('article').count()).toBe(4);
      await page.getByText('Cost', { exact: true }).locator('..').getByText('$29.00').waitFor();
      await page.waitForFunction(() =>
        Array.from(
          document.querySelectorAll<HTMLImageElement>(
            '[aria-labelledby="results-gallery-title"] img',
          ),
        ).every((img) => img.complete && img.naturalWidth === 1024),
      );
      await pageShot(page, '66-results-ready');
      await mobileShot(page, '66-results-ready-mobile');
      const first = await imageIds(page, 'Your Headshots');
      expect(first).toHaveLength(4);

      await page.reload();
      await ready.waitFor({ timeout: 120_000 });
      expect(await imageIds(page, 'Your Headshots')).toEqual(first);

      // The payment paid for one generation only: four new images, not eight.
      const after = await product.api<{ total: number }>(
        session,
        '/models/generated-images?limit=1&offset=0',
        undefined,
        'GET',
      );
      expect(after.body.total).toBe(before.body.total + 4);
    } finally {
      await context.close();
    }
  });
});
