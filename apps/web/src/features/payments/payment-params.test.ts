import { describe, expect, it } from 'vitest';
import type { SelectedPlan } from './client-storage';
import { MESSAGES } from '@studioshot/contracts/messages';
import { CREDIT_PACKAGES, PLANS } from './catalogue';
import {
  generationResultPath,
  orderFromIntent,
  orderKey,
  parsePaymentParams,
  paymentBackTarget,
  checkoutWording,
  readBillingCycle,
  trainingPaymentPath,
  type PaymentOrder,
} from './payment-params';

const professional: SelectedPlan = {
  planId: 'professional',
  type: 'subscription',
  planName: 'Professional',
  price: 1999,
  credits: 8,
};

const parse = (query: string, selectedPlan: SelectedPlan | null = null, currentPlan = 'starter') =>
  parsePaymentParams(new URLSearchParams(query), { selectedPlan, currentPlan });

describe('/payment query parameters', () => {
  it('defaults to generation, which needs a user_id', () => {
    expect(parse('')).toEqual({
      type: 'generation',
      error: 'Invalid payment type or missing parameters',
    });
    expect(parse('user_id=u1').order).toEqual({
      kind: 'generation',
      userId: 'u1',
      style: 'professional',
      prompt: 'professional person',
    });
    expect(parse('type=generation&user_id=u1&style=creative&prompt=on%20a%20beach').order).toEqual({
      kind: 'generation',
      userId: 'u1',
      style: 'creative',
      prompt: 'on a beach',
    });
  });

  it('training uses the stored plan, else one training at the default fee', () => {
    expect(parse('type=training', professional).order).toMatchObject({
      kind: 'training-plan',
      plan: { id: 'professional', price_cents: 1999 },
      cycle: 'monthly',
    });
    expect(parse('type=training').order).toMatchObject({
      kind: 'training-slot',
      pack: { id: 'training_1', price_cents: 2500 },
    });
  });

  it('billing=annual sells the stored plan billed yearly; another value is refused', () => {
    const annual = parse('type=training&billing=annual', professional);
    expect(annual.order).toMatchObject({
      kind: 'training-plan',
      plan: { id: 'professional' },
      cycle: 'annual',
    });
    expect(parse('type=training&billing=monthly', professional).order).toMatchObject({
      cycle: 'monthly',
    });
    // One visit, one intent per order: the two cycles are two orders.
    expect(orderKey(annual.order!)).not.toBe(orderKey(parse('type=training', professional).order!));
    for (const query of ['type=training&billing=weekly', 'type=training&billing=ANNUAL']) {
      expect(parse(query, professional)).toEqual({
        type: 'training',
        error: 'Invalid payment type or missing parameters',
      });
    }
    expect(readBillingCycle(new URLSearchParams(''))).toBe('monthly');
    expect(readBillingCycle(new URLSearchParams('billing=annual'))).toBe('annual');
    expect(readBillingCycle(new URLSearchParams('billing=yearly'))).toBeNull();
    expect(trainingPaymentPath('monthly')).toBe('/payment?type=training');
    expect(trainingPaymentPath('annual')).toBe('/payment?type=training&billing=annual');
  });

  it('training with quantity and price is the additional-training flow with pack training_N', () => {
    expect(parse('type=training&quantity=1&price=25', professional).order).toMatchObject({
      kind: 'training-pack',
      pack: { id: 'training_1' },
    });
    expect(parse('type=training&quantity=3&price=45').order).toMatchObject({
      kind: 'training-pack',
      pack: { id: 'training_3', price_cents: 4500 },
    });
    expect(parse('type=training&quantity=5&price=65.00').order).toMatchObject({
      pack: { id: 'training_5' },
    });
    for (const query of [
      'type=training&quantity=3',
      'type=training&price=45',
      'type=training&quantity=2&price=25',
      'type=training&quantity=3&price=abc',
      'type=training&quantity=abc&price=45',
    ]) {
      expect(parse(query).error).toBe('Invalid payment type or missing parameters');
    }
  });

  it("a price in the address that is not the pack's: the catalogue's is charged, and said", () => {
    expect(parse('type=training&quantity=3&price=1')).toMatchObject({
      order: { kind: 'training-pack', pack: { id: 'training_3', price_cents: 4500 } },
      notice: 'This link says $1.00; the current price is $45.00.',
    });
    expect(parse('type=training&quantity=3&price=45')).not.toHaveProperty('notice');
  });

  it('upgrade needs a target plan, and reads from=plan', () => {
    expect(parse('type=upgrade&from=starter')).toMatchObject({
      error: 'No target plan selected',
      recovery: { to: '/pricing' },
    });
    expect(parse('type=upgrade&from=starter', professional).order).toEqual({
      kind: 'upgrade',
      plan: expect.objectContaining({ id: 'professional', price_cents: 1999 }),
      from: 'starter',
    });
    expect(parse('type=upgrade', professional, 'free').order).toMatchObject({ from: 'free' });
  });

  it('credits needs one of the purchasable packages', () => {
    expect(parse('type=credits&pack=business_pack').order).toMatchObject({
      kind: 'credits',
      pack: { id: 'business_pack', credits: 150, price_cents: 4999 },
    });
    for (const query of ['type=credits', 'type=credits&pack=x']) {
      expect(parse(query)).toMatchObject({
        error: 'Invalid credit pack selected',
        recovery: { to: '/credits' },
      });
    }
    // Published by the pricing call, not for sale yet: said so.
    expect(parse('type=credits&pack=credits_10')).toMatchObject({
      error: MESSAGES.creditPackComingSoon,
      recovery: { to: '/credits', label: 'Choose a credit package' },
    });
  });

  it('reads the order of a resumed intent from the intent, and refuses one for another type', () => {
    const resume = (query: string, intent: { kind: string; item_id: string; from_plan?: string }) =>
      orderFromIntent({ from_plan: null, ...intent }, new URLSearchParams(query), { userId: 'u1' });
    expect(resume('payment_intent=pi', { kind: 'credits', item_id: 'starter_pack' })).toMatchObject(
      { type: 'credits', order: { kind: 'credits', pack: { id: 'starter_pack' } } },
    );
    expect(
      resume('type=upgrade', { kind: 'upgrade', item_id: 'premium', from_plan: 'starter' }),
    ).toMatchObject({ order: { kind: 'upgrade', plan: { id: 'premium' }, from: 'starter' } });
    // An upgrade from the free plan is bought as a subscription.
    expect(
      resume('type=upgrade', { kind: 'subscription', item_id: 'starter', from_plan: 'free' }),
    ).toMatchObject({ order: { kind: 'upgrade', plan: { id: 'starter' }, from: 'free' } });
    expect(resume('type=training', { kind: 'subscription', item_id: 'premium' })).toMatchObject({
      order: { kind: 'training-plan', plan: { id: 'premium' }, cycle: 'monthly' },
    });
    // The intent's item names the cycle, whatever the address says.
    expect(
      resume('type=training', { kind: 'subscription', item_id: 'premium_annual' }),
    ).toMatchObject({
      order: {
        kind: 'training-plan',
        plan: { id: 'premium' },
        cycle: 'annual',
        selected: { planId: 'premium', price: 3999 },
      },
    });
    expect(
      resume('type=training&quantity=3&price=45', {
        kind: 'training_slots',
        item_id: 'training_3',
      }),
    ).toMatchObject({ order: { kind: 'training-pack', pack: { quantity: 3 } } });
    expect(
      resume('style=creative', { kind: 'generation', item_id: 'generation_order' }),
    ).toMatchObject({
      type: 'generation',
      order: { kind: 'generation', userId: 'u1', style: 'creative' },
    });
    expect(resume('type=credits', { kind: 'upgrade', item_id: 'premium' }).error).toBe(
      MESSAGES.paymentIntentOtherOrder,
    );
  });

  it('rejects an unknown type', () => {
    expect(parse('type=refund')).toEqual({
      type: 'refund',
      error: 'Invalid payment type or missing parameters',
    });
  });

  it('words a subscription as one and a one-off purchase as one; has the back targets', () => {
    const plan = PLANS.find((p) => p.id === 'professional')!;
    const selected = professional;
    const monthly = checkoutWording(
      { kind: 'training-plan', plan, selected, cycle: 'monthly' },
      'training',
    );
    expect(monthly.heading).toBe('Start Your Subscription');
    expect(monthly.lead).toMatch(/renews every month until you cancel/);
    expect(monthly.lead).not.toMatch(/once/);
    expect(
      checkoutWording({ kind: 'training-plan', plan, selected, cycle: 'annual' }, 'training').lead,
    ).toMatch(/renews every year/);
    expect(checkoutWording({ kind: 'upgrade', plan, from: 'starter' }, 'upgrade').heading).toBe(
      'Upgrade Your Subscription',
    );
    const pack = CREDIT_PACKAGES[0]!;
    expect(checkoutWording({ kind: 'credits', pack }, 'credits')).toEqual({
      heading: 'Purchase Credits',
      lead: 'Secure checkout. A one-off purchase: you are charged once, when you pay.',
    });
    expect(checkoutWording(null, 'generation').heading).toBe('Complete Your Order');
    expect(checkoutWording(null, 'generation').lead).toMatch(/charged once/);
    expect(paymentBackTarget('training')).toBe('/pricing');
    expect(paymentBackTarget('credits')).toBe('/pricing');
    expect(paymentBackTarget('generation')).toBe('/generate');
    expect(paymentBackTarget('upgrade')).toBe('/dashboard');
    expect(paymentBackTarget('nonsense')).toBe('/dashboard');
  });

  it('sends a paid generation order to /results/{user_id} with intent, style and prompt', () => {
    const order = parse('user_id=u 1&style=executive&prompt=a&b').order as Extract<
      PaymentOrder,
      { kind: 'generation' }
    >;
    expect(generationResultPath(order, 'pi_1')).toBe(
      '/results/u%201?payment_intent=pi_1&style=executive&prompt=a',
    );
  });
});
