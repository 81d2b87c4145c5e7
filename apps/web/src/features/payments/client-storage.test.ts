import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../lib/storage';
import {
  clearPurchaseSelection,
  readSelectedPlan,
  readTrainingPurchaseIntent,
  storeSelectedPlan,
  storeTrainingPurchaseIntent,
} from './client-storage';

describe('client-stored payment values', () => {
  it('round-trips selectedPlan and trainingPurchaseIntent under their spec names', () => {
    const storage = createMemoryStorage();
    const plan = {
      planId: 'professional',
      type: 'subscription' as const,
      planName: 'Professional',
      price: 1999,
      credits: 8,
    };
    storeSelectedPlan(plan, storage);
    storeTrainingPurchaseIntent({ type: 'upgrade', currentPlan: 'starter' }, storage, 42);
    expect(JSON.parse(storage.getItem('selectedPlan') ?? '')).toEqual(plan);
    expect(readSelectedPlan(storage)).toEqual(plan);
    expect(readTrainingPurchaseIntent(storage)).toEqual({
      type: 'upgrade',
      currentPlan: 'starter',
      timestamp: 42,
    });
    clearPurchaseSelection(storage);
    expect(readSelectedPlan(storage)).toBeNull();
    expect(readTrainingPurchaseIntent(storage)).toBeNull();
  });

  it('treats corrupt or incomplete values as absent', () => {
    const storage = createMemoryStorage({
      selectedPlan: '{not json',
      trainingPurchaseIntent: JSON.stringify({ type: 'refund', currentPlan: 'free' }),
    });
    expect(readSelectedPlan(storage)).toBeNull();
    expect(readTrainingPurchaseIntent(storage)).toBeNull();
    storage.setItem('selectedPlan', JSON.stringify({ planId: 'starter', type: 'subscription' }));
    expect(readSelectedPlan(storage)).toBeNull();
  });
});
