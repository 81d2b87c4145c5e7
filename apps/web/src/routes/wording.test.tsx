import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CREDIT_PACKAGES,
  CREDITS_PER_GENERATION,
  GENERATION_ORDER,
  IMAGES_PER_GENERATION,
  PLANS,
  planPeriodPriceCents,
  pricePerCredit,
  TRAINING_PACKS,
  TRAINING_FEE_DOLLARS,
} from '../features/payments/catalogue';
import { formatDollars } from '../features/payments/format-dollars';
import { intentAnswer, pricingAnswer } from '../features/payments/testing';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

/*
 * The words of the pages that sell: every figure on the landing page, /pricing, /credits and the
 * checkout is one the catalogue (packages/pricing) holds, and a credit is always one generation
 * of 4 headshots.
 */

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Every price the catalogue can put on a page, as the pages write it. */
function cataloguePrices(): Set<string> {
  const cents = new Set<number>([GENERATION_ORDER.price_cents, TRAINING_FEE_DOLLARS * 100]);
  for (const plan of PLANS) {
    const annual = planPeriodPriceCents(plan, 'annual');
    cents
      .add(plan.price_cents)
      .add(annual)
      .add(Math.round(annual / 12));
    cents.add(plan.price_cents * 12 - annual);
  }
  for (const pack of CREDIT_PACKAGES) {
    cents.add(pack.price_cents);
    if (pack.original_price_cents !== null) cents.add(pack.original_price_cents);
  }
  for (const pack of TRAINING_PACKS) cents.add(pack.price_cents);
  const prices = new Set<string>();
  for (const value of cents) {
    prices.add(formatDollars(value)).add(formatDollars(value, { compact: true }));
  }
  for (const pack of CREDIT_PACKAGES) prices.add(`$${pricePerCredit(pack)}`);
  return prices;
}

const CREDIT_COUNTS = new Set([
  CREDITS_PER_GENERATION,
  ...PLANS.map((plan) => plan.credits),
  ...CREDIT_PACKAGES.map((pack) => pack.credits),
]);

/** The figures a page's text states, with what is wrong with each. */
function wrongFigures(text: string, extraCredits: readonly number[] = []): string[] {
  const problems: string[] = [];
  const prices = cataloguePrices();
  for (const [price] of text.matchAll(/\$\d[\d,]*(?:\.\d{2})?/g)) {
    if (!prices.has(price)) problems.push(`price ${price} is not in the catalogue`);
  }
  const credits = new Set([...CREDIT_COUNTS, ...extraCredits]);
  for (const match of text.matchAll(/(\d[\d,]*) credits? \((\d[\d,]*) headshots\)/g)) {
    const [phrase, count, headshots] = match;
    if (!credits.has(Number(count))) problems.push(`'${phrase}': no such credit amount`);
    if (Number(headshots) !== Number(count) * IMAGES_PER_GENERATION) {
      problems.push(`'${phrase}': a credit is ${IMAGES_PER_GENERATION} headshots`);
    }
  }
  // \b: a size such as 1024x1024 is not a count of headshots.
  const withoutPairs = text.replace(/\d[\d,]* credits? \(\d[\d,]* headshots\)/g, '');
  for (const [phrase, count] of withoutPairs.matchAll(/\b(\d[\d,]*) headshots?\b/g)) {
    const n = Number(count);
    if (n !== IMAGES_PER_GENERATION && !credits.has(n / IMAGES_PER_GENERATION)) {
      problems.push(`'${phrase}' does not count credits of ${IMAGES_PER_GENERATION} headshots`);
    }
  }
  for (const [phrase, count] of withoutPairs.matchAll(/(\d[\d,]*) credits?\b/g)) {
    if (!credits.has(Number(count))) problems.push(`'${phrase}': no such credit amount`);
  }
  // A credit is not one headshot, and a plan's credits are not its headshots.
  for (const phrase of ['headshot credit', 'headshots/month']) {
    if (text.toLowerCase().includes(phrase)) problems.push(`says '${phrase}'`);
  }
  return problems;
}

/**
 * The page's words as a reader sees them: text of different elements apart (textContent would
 * run '$29.' and '30-day' together), pieces of one element together ('$' and '9.99').
 */
function mainText(): string {
  const main = document.getElementById('main');
  if (!main) return '';
  const pieces: string[] = [];
  let parent: Node | null = null;
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    pieces.push(node.parentNode === parent ? '' : ' ', node.textContent ?? '');
    parent = node.parentNode;
  }
  return pieces.join('');
}

describe('the pages that sell agree with the catalogue', () => {
  it('the landing page: plans from the lowest plan price, the one-off order for a trained model', async () => {
    stubApi({});
    renderApp('/');
    await screen.findByRole('heading', { name: 'Executive' });
    const text = mainText();
    expect(wrongFigures(text)).toEqual([]);
    // What is sold is a plan; the one-off order needs a model trained on one.
    expect(text).not.toMatch(/pay once|no monthly commitments|no subscription/i);
    expect(text).toContain(
      `Plans from ${formatDollars(Math.min(...PLANS.map((p) => p.price_cents)))} a month`,
    );
    expect(text).toContain(
      `${GENERATION_ORDER.images} more headshots are a one-off ${formatDollars(GENERATION_ORDER.price_cents, { compact: true })}`,
    );
  });

  it('/pricing', async () => {
    stubApi({ 'GET /api/v1/payments/pricing': () => [200, pricingAnswer()] });
    renderApp('/pricing');
    await screen.findByRole('heading', { name: 'Premium' });
    expect(wrongFigures(mainText())).toEqual([]);
  });

  it('/credits: each credit is one generation of 4 headshots', async () => {
    signIn({ credits_balance: 3 });
    stubApi({
      'GET /api/v1/users/profile': () => [200, { ...TEST_USER, credits_balance: 3 }],
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
    });
    renderApp('/credits');
    await screen.findByRole('article', { name: 'Enterprise Pack' });
    const text = mainText();
    // The balance is the user's own figure.
    expect(wrongFigures(text, [3])).toEqual([]);
    expect(text).toContain(`Each credit runs one generation of ${IMAGES_PER_GENERATION} headshots`);
  });

  it('the checkout of a monthly plan speaks of a subscription, with its price', async () => {
    signIn();
    const plan = PLANS.find((p) => p.id === 'professional')!;
    window.localStorage.setItem(
      'selectedPlan',
      JSON.stringify({
        planId: plan.id,
        type: 'subscription',
        planName: plan.name,
        price: plan.price_cents,
        credits: plan.credits,
      }),
    );
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
      'POST /api/v1/payments/create-training-payment': () => [200, intentAnswer(plan.price_cents)],
    });
    renderApp('/payment?type=training');
    await screen.findByText(`${plan.name} plan`);
    const text = mainText();
    expect(wrongFigures(text)).toEqual([]);
    expect(text).toContain('Start Your Subscription');
    expect(text).toContain('renews every month');
    expect(text).not.toMatch(/charged once/i);
    expect(text).toContain(`Total due today ${formatDollars(plan.price_cents)} /month`);
  });

  it('the checkout of a credit package speaks of a one-off purchase', async () => {
    signIn();
    const pack = CREDIT_PACKAGES[1]!;
    stubApi({
      'GET /api/v1/users/profile': () => [200, TEST_USER],
      'GET /api/v1/payments/pricing': () => [200, pricingAnswer()],
      'POST /api/v1/payments/create-credit-payment': () => [200, intentAnswer(pack.price_cents)],
    });
    renderApp(`/payment?type=credits&pack=${pack.id}`);
    await screen.findByRole('region', { name: 'Order summary' });
    const text = mainText();
    expect(wrongFigures(text)).toEqual([]);
    expect(text).toContain('A one-off purchase');
    expect(text).not.toMatch(/subscription|renews/i);
  });

  it('catches a figure the catalogue does not hold', () => {
    expect(
      wrongFigures(
        'Only $7.77 for 5 credits (20 headshots); 4 credits (4 headshots); 8 headshots/month',
      ),
    ).toEqual([
      'price $7.77 is not in the catalogue',
      "'5 credits (20 headshots)': no such credit amount",
      "'4 credits (4 headshots)': a credit is 4 headshots",
      "'8 headshots' does not count credits of 4 headshots",
      "says 'headshots/month'",
    ]);
  });
});
