import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageShot, pageShots, startProduct, type Product } from '../fixtures.js';
import { DESKTOP } from '../harness.js';

/**
 * The two demos of the product spec, end to end in Chromium against the built product, signed
 * out: /demo (three styles, 'Try FREE Demo', its 2-second generating step, three real samples of
 * the style, the CTAs to /upload and /generate, 'Try Another Style') and /old-demo (Back to Home,
 * Get Started, 'Transform Now' showing 'Processing...' for 3 seconds and then the next sample,
 * the CTAs to /pricing, the count of professionals (the API's development default outside production)). Screenshots at 1280 and 375 px.
 */
let product: Product;

beforeAll(async () => {
  product = await startProduct();
}, 120_000);
afterAll(async () => {
  await product?.stop();
});

async function signedOutPage(): Promise<Page> {
  const context = await product.browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

/**
 * Waits until every image in `scope` has loaded, and answers each one's size and how much its
 * pixels vary (a flat placeholder box does not), read back through a canvas.
 */
async function loadedImages(scope: Locator) {
  await scope
    .locator('img')
    .evaluateAll((images) =>
      Promise.all(
        (images as HTMLImageElement[]).map((img) =>
          img.complete
            ? undefined
            : new Promise((resolve) => img.addEventListener('load', resolve)),
        ),
      ),
    );
  return scope.locator('img').evaluateAll((images) =>
    (images as HTMLImageElement[]).map((img) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const { data } =
        img.naturalWidth > 0
          ? context.getImageData(0, 0, img.naturalWidth, img.naturalHeight)
          : { data: new Uint8ClampedArray() };
      let sum = 0;
      let squares = 0;
      for (let i = 0; i < data.length; i += 4) {
        const grey = (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
        sum += grey;
        squares += grey * grey;
      }
      const n = data.length / 4 || 1;
      return {
        src: new URL(img.src).pathname,
        alt: img.alt,
        naturalWidth: img.naturalWidth,
        naturalHeight: img.naturalHeight,
        spread: Math.sqrt(Math.max(0, squares / n - (sum / n) ** 2)),
      };
    }),
  );
}

describe('/demo', () => {
  it('three styles, Try FREE Demo, the 2-second generating step, three real samples, the CTAs and Try Another Style', async () => {
    const page = await signedOutPage();
    try {
      await page.goto(product.url('/demo'));
      const picker = page.getByRole('group', { name: 'Choose a style' });
      await picker.waitFor();
      const styles = picker.getByRole('radio');
      expect(await styles.count()).toBe(3);
      for (const name of ['Professional Executive', 'Creative Professional', 'Smart Casual']) {
        await picker.locator('label', { hasText: name }).waitFor();
      }
      // The first style is chosen to begin with; each card shows a real cover picture.
      expect(await styles.first().isChecked()).toBe(true);
      const covers = await loadedImages(picker);
      expect(covers).toHaveLength(3);
      for (const cover of covers) expect(cover.naturalWidth).toBeGreaterThan(0);
      await pageShots(page, 'demo-10-choose');

      await picker.locator('label', { hasText: 'Creative Professional' }).click();
      expect(await picker.getByRole('radio', { checked: true }).inputValue()).toBe(
        await styles.nth(1).inputValue(),
      );

      const clickedAt = Date.now();
      await page.getByRole('button', { name: 'Try FREE Demo' }).click();
      // The generating step, with its progress bar...
      await page.getByRole('progressbar', { name: 'Demo generation' }).waitFor();
      await page.getByText('Generating your Creative Professional headshots...').waitFor();
      // A passing state: one shot, at 1280 px.
      await pageShot(page, 'demo-20-generating');
      // ...then the samples, once its 2 seconds are up.
      const samplesHeading = page.getByRole('heading', {
        name: 'Your Creative Professional samples',
      });
      await samplesHeading.waitFor();
      expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(2000);
      expect(await page.getByRole('progressbar', { name: 'Demo generation' }).count()).toBe(0);

      const samples = await loadedImages(samplesHeading.locator('xpath=following-sibling::ul'));
      expect(samples).toHaveLength(3);
      // Three different renders of the style by our engine, not placeholder boxes.
      expect(new Set(samples.map((s) => s.src)).size).toBe(3);
      for (const sample of samples) {
        expect(sample.alt).toMatch(/^Creative Professional sample [1-3]: /);
        expect(sample.naturalWidth).toBeGreaterThan(0);
        expect(sample).toMatchObject({ naturalWidth: 400, naturalHeight: 450 });
        expect(sample.spread).toBeGreaterThan(20);
      }

      const train = page.getByRole('link', { name: 'Train Your Personal Model' });
      const generate = page.getByRole('link', { name: 'Generate with Base Models' });
      expect(await train.getAttribute('href')).toBe('/upload');
      expect(await generate.getAttribute('href')).toBe('/generate');
      await pageShots(page, 'demo-30-samples');

      // Try Another Style: back to the choice, which is kept.
      await page.getByRole('button', { name: 'Try Another Style' }).click();
      await picker.waitFor();
      expect(await samplesHeading.count()).toBe(0);
      expect(await picker.getByRole('radio', { checked: true }).inputValue()).toBe(
        await styles.nth(1).inputValue(),
      );
      await page.getByRole('button', { name: 'Try FREE Demo' }).waitFor();

      // A CTA followed signed out: the upload page asks to sign in first.
      await page.getByRole('button', { name: 'Try FREE Demo' }).click();
      await samplesHeading.waitFor();
      await train.click();
      await page.waitForURL((u) => u.pathname === '/auth');
    } finally {
      await page.context().close();
    }
  });
});

describe('/old-demo', () => {
  it('Back to Home, Get Started, Transform Now with Processing... then the next sample, the CTAs to /pricing and the 2,847+ claim', async () => {
    const page = await signedOutPage();
    try {
      await page.goto(product.url('/old-demo'));
      await page
        .getByRole('heading', { level: 1, name: 'From everyday photo to professional headshot' })
        .waitFor();
      expect(await page.getByRole('link', { name: /Back to Home/ }).getAttribute('href')).toBe('/');
      expect(await page.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe(
        '/auth',
      );
      await page.getByText(/2,847\+ professionals/).waitFor();
      for (const cta of ['See Pricing', 'Transform My Photos']) {
        expect(await page.getByRole('link', { name: cta }).getAttribute('href')).toBe('/pricing');
      }

      const steps = page.getByRole('list', { name: 'Samples' }).getByRole('listitem');
      const current = () =>
        page.locator('ol[aria-label="Samples"] [aria-current="step"]').innerText();
      expect(await steps.allInnerTexts()).toEqual([
        'Professional Executive',
        'Creative Professional',
        'Corporate Headshot',
      ]);
      expect(await current()).toBe('Professional Executive');
      const pictures = page.locator('figure');
      const [before, after] = await loadedImages(pictures);
      expect(before!.naturalWidth).toBeGreaterThan(0);
      expect(after!.naturalWidth).toBeGreaterThan(0);
      expect(after!.alt).toMatch(/^After: Professional Executive/);
      expect(after!.spread).toBeGreaterThan(20);
      await pageShots(page, 'old-demo-10-first');

      // Transform Now: 'Processing...' for 3 seconds, then the next sample.
      const clickedAt = Date.now();
      await page.getByRole('button', { name: 'Transform Now' }).click();
      const busy = page.getByRole('button', { name: 'Processing...' });
      await busy.waitFor();
      expect(await busy.isDisabled()).toBe(true);
      await page.getByRole('status').filter({ hasText: 'Processing...' }).waitFor();
      // A passing state: one shot, at 1280 px.
      await pageShot(page, 'old-demo-20-processing');
      await page.getByRole('button', { name: 'Transform Now' }).waitFor();
      expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(3000);
      expect(await current()).toBe('Creative Professional');
      const next = await loadedImages(pictures);
      expect(next[1]!.alt).toMatch(/^After: Creative Professional/);
      expect(next[1]!.src).not.toBe(after!.src);
      expect(next[1]!.naturalWidth).toBeGreaterThan(0);
      await pageShots(page, 'old-demo-30-next');

      // The CTA leads to the plans; Back to Home to the landing page.
      await page.getByRole('link', { name: 'See Pricing' }).click();
      await page.waitForURL((u) => u.pathname === '/pricing');
      await page.goBack();
      await page.getByRole('link', { name: /Back to Home/ }).click();
      await page.waitForURL((u) => u.pathname === '/');
    } finally {
      await page.context().close();
    }
  });
});
