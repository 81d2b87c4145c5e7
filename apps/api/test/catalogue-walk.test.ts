// Every id the pricing call publishes can be bought at the price it publishes, or is marked not
// for sale and refused with a clear message: each one is walked through its create call.
import { MESSAGES, ZPricingResponseSchema } from '@studioshot/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

let t: TestApp;
// A free-plan user; creating an intent changes nothing, so one user can start every purchase.
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t)).tokens.access_token;
});
afterAll(() => t.close());

const create = (path: string, body: object) => t.request.post(path).set(bearer(token)).send(body);

it('every published plan, package, pack and fee is sold at its published price', async () => {
  const pricing = ZPricingResponseSchema.parse(
    (await t.request.get('/api/v1/payments/pricing').expect(200)).body,
  );
  const sold: [string, number, number][] = [];
  const expectSold = async (id: string, price: number, path: string, body: object) => {
    const res = await create(path, body);
    expect(res.status, `${id} through ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    sold.push([id, res.body.amount as number, price]);
  };

  const plans = [...pricing.subscription_plans, ...pricing.pricing_options];
  for (const plan of plans) {
    await expectSold(plan.id, plan.price_cents, '/api/v1/payments/create-training-payment', {
      plan_name: plan.id,
      plan_price: plan.price_cents / 100,
      plan_credits: plan.credits,
    });
    await expectSold(plan.id, plan.price_cents, '/api/v1/payments/create-upgrade', {
      plan_id: plan.id,
      current_plan: 'free',
      upgrade_immediately: true,
    });
  }
  for (const pack of pricing.onetime_packages) {
    await expectSold(pack.id, pack.price_cents, '/api/v1/payments/create-credit-package', {
      package_id: pack.id,
    });
    await expectSold(pack.id, pack.price_cents, '/api/v1/payments/create-credit-payment', {
      credit_pack_id: pack.id,
    });
  }
  for (const pack of pricing.training_packs) {
    await expectSold(pack.id, pack.price_cents, '/api/v1/payments/create-training-purchase', {
      quantity: pack.quantity,
    });
  }
  await expectSold(
    'training_fee_dollars',
    pricing.training_fee_dollars * 100,
    '/api/v1/payments/create-training-payment',
    {},
  );
  for (const [id, charged, published] of sold) expect(charged, id).toBe(published);
  expect(sold.length).toBe(plans.length * 2 + pricing.onetime_packages.length * 2 + 4);

  // The Coming Soon packs are published as not for sale, and refused saying so.
  expect(pricing.credit_packs.length).toBeGreaterThan(0);
  for (const pack of pricing.credit_packs) {
    expect(pack.for_sale).toBe(false);
    for (const [path, body] of [
      ['/api/v1/payments/create-credit-package', { package_id: pack.id }],
      ['/api/v1/payments/create-credit-payment', { credit_pack_id: pack.id }],
    ] as const) {
      const res = await create(path, body);
      expect([res.status, res.body.detail], `${pack.id} through ${path}`).toEqual([
        409,
        MESSAGES.creditPackComingSoon,
      ]);
    }
  }
});
