import { describe, expect, it } from 'vitest';
import {
  creditsWithHeadshots,
  CREDIT_PACKAGES,
  GENERATION_ORDER,
  PLANS_FROM_CENTS,
  COMING_SOON_CREDIT_PACKS,
  findTrainingPack,
  planTrainingLimit,
  PLANS,
  PLAN_QUEUE_PRIORITY,
  queuePriority,
  pricePerCredit,
  tierRank,
  TRAINING_PACKS,
} from './index.js';

describe('pricing catalogue', () => {
  it('orders the plans free < starter < professional < premium', () => {
    expect(tierRank('free')).toBeLessThan(tierRank('starter'));
    expect(tierRank('starter')).toBeLessThan(tierRank('professional'));
    expect(tierRank('professional')).toBeLessThan(tierRank('premium'));
  });

  it('quotes the lowest plan price from the catalogue', () => {
    expect(PLANS_FROM_CENTS).toBe(Math.min(...PLANS.map((plan) => plan.price_cents)));
  });

  it('words credits one way: a credit is one generation of 4 headshots', () => {
    expect(GENERATION_ORDER.images).toBe(4);
    expect(creditsWithHeadshots(1)).toBe('1 credit (4 headshots)');
    expect(creditsWithHeadshots(20)).toBe('20 credits (80 headshots)');
    for (const plan of PLANS) {
      expect(plan.features).toContain(`${creditsWithHeadshots(plan.credits)} every month`);
    }
    for (const pack of CREDIT_PACKAGES) {
      expect(pack.features).toContain(creditsWithHeadshots(pack.credits));
    }
  });

  it('has the spec plan limits', () => {
    expect([
      planTrainingLimit('free'),
      planTrainingLimit('starter'),
      planTrainingLimit('professional'),
      planTrainingLimit('premium'),
    ]).toEqual([0, 1, 5, 10]);
  });

  it('has the credits page packages with the spec prices', () => {
    expect(
      CREDIT_PACKAGES.map((p) => [p.name, p.credits, p.price_cents, p.original_price_cents]),
    ).toEqual([
      ['Starter Pack', 20, 999, null],
      ['Professional Pack', 60, 2499, 2999],
      ['Business Pack', 150, 4999, 7499],
      ['Enterprise Pack', 350, 9999, 17499],
    ]);
    expect(CREDIT_PACKAGES.map(pricePerCredit)).toEqual(['0.50', '0.42', '0.33', '0.29']);
  });

  it('keeps the two credit price sets apart', () => {
    const ids = new Set(CREDIT_PACKAGES.map((p) => p.id));
    for (const pack of COMING_SOON_CREDIT_PACKS) expect(ids.has(pack.id)).toBe(false);
  });

  it('maps training quantities to training_N packs', () => {
    expect(TRAINING_PACKS.map((p) => p.id)).toEqual(['training_1', 'training_3', 'training_5']);
    expect(findTrainingPack(3)?.price_cents).toBe(4500);
    expect(findTrainingPack(2)).toBeUndefined();
  });

  it('queues each plan at the priority its card sells, never higher', () => {
    expect(queuePriority('starter', 'training', 'urgent')).toBe('normal');
    expect(queuePriority('free', 'generation', 'high')).toBe('normal');
    expect(queuePriority('professional', 'training', 'urgent')).toBe('high');
    expect(queuePriority('professional', 'generation', 'urgent')).toBe('normal');
    expect(queuePriority('premium', 'training', 'urgent')).toBe('urgent');
    // A lower request is honoured; none asked for gets the plan's best.
    expect(queuePriority('premium', 'generation', 'normal')).toBe('normal');
    expect(queuePriority('professional', 'training', undefined)).toBe('high');
    expect(queuePriority('starter', 'training', undefined)).toBe('normal');
  });

  it('sells a better queue only where the plan card says so', () => {
    for (const plan of PLANS) {
      const better = PLAN_QUEUE_PRIORITY[plan.id].training !== 'normal';
      expect(plan.features.some((f) => /queue/i.test(f))).toBe(better);
    }
  });
});
