import { describe, expect, it } from 'vitest';
import { generateEligibility, readPricingState, trainingEligibility } from './eligibility';

describe('training eligibility', () => {
  it('lets a free account that bought a training use it', () => {
    expect(
      trainingEligibility({ plan_type: 'free', training_limit: 1, models_trained: 0 }),
    ).toEqual({ kind: 'upload' });
  });

  it('sends no profile or a zero limit (the free plan) to /pricing', () => {
    expect(trainingEligibility(null)).toEqual({ kind: 'pricing' });
    expect(trainingEligibility({ plan_type: 'free', training_limit: 0 })).toEqual({
      kind: 'pricing',
    });
    expect(trainingEligibility({ plan_type: 'starter', training_limit: 0 })).toEqual({
      kind: 'pricing',
    });
  });

  it('reports the limit when models_trained >= training_limit, else /upload', () => {
    expect(
      trainingEligibility({ plan_type: 'starter', training_limit: 1, models_trained: 1 }),
    ).toEqual({ kind: 'limit', limit: 1 });
    expect(
      trainingEligibility({ plan_type: 'professional', training_limit: 5, models_trained: 2 }),
    ).toEqual({ kind: 'upload' });
  });
});

describe('generate eligibility', () => {
  it('without credits goes to /pricing with the credits reason and message', () => {
    for (const credits of [undefined, null, 0, -1]) {
      expect(generateEligibility({ credits_balance: credits })).toEqual({
        to: '/pricing',
        state: {
          reason: 'credits',
          message: 'You need credits to generate headshots. Purchase credit packs below:',
        },
      });
    }
  });

  it('with credits goes to /generate with the model id', () => {
    expect(generateEligibility({ credits_balance: 3 }, 'm1')).toEqual({
      to: '/generate',
      state: { modelId: 'm1' },
    });
  });
});

describe('pricing navigation state', () => {
  it('accepts credits and upgrade reasons only', () => {
    expect(readPricingState({ reason: 'credits', message: 'Hi' })).toEqual({
      reason: 'credits',
      message: 'Hi',
    });
    expect(readPricingState({ reason: 'upgrade' })?.message).toBe(
      'Upgrade your plan to train more models:',
    );
    expect(readPricingState({ reason: 'plan' })?.message).toMatch(/training comes with a plan/);
    expect(readPricingState({ reason: 'other', message: 'x' })).toBeNull();
    expect(readPricingState(null)).toBeNull();
  });
});
