import { appStorage, type KeyValueStorage } from '../../lib/storage';

/** Client-stored values of the payment flows (product spec, section 3). */
export const PAYMENT_STORAGE_KEYS = {
  selectedPlan: 'selectedPlan',
  trainingPurchaseIntent: 'trainingPurchaseIntent',
} as const;

export interface SelectedPlan {
  planId: string;
  type: 'onetime' | 'subscription';
  planName: string;
  /** In cents, as the pricing call gives it. */
  price: number;
  credits: number;
}

export interface TrainingPurchaseIntent {
  type: 'additional_training' | 'upgrade';
  currentPlan: string;
  timestamp: number;
}

function readJson(storage: KeyValueStorage, key: string): Record<string, unknown> | null {
  const raw = storage.getItem(key);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The plan chosen on /pricing or in the training-limit modal; null when absent or corrupt. */
export function readSelectedPlan(storage: KeyValueStorage = appStorage): SelectedPlan | null {
  const value = readJson(storage, PAYMENT_STORAGE_KEYS.selectedPlan);
  if (
    !value ||
    typeof value.planId !== 'string' ||
    !value.planId ||
    (value.type !== 'onetime' && value.type !== 'subscription') ||
    typeof value.price !== 'number' ||
    !Number.isFinite(value.price)
  ) {
    return null;
  }
  return {
    planId: value.planId,
    type: value.type,
    planName: typeof value.planName === 'string' ? value.planName : value.planId,
    price: value.price,
    credits: typeof value.credits === 'number' ? value.credits : 0,
  };
}

export function storeSelectedPlan(plan: SelectedPlan, storage: KeyValueStorage = appStorage): void {
  storage.setItem(PAYMENT_STORAGE_KEYS.selectedPlan, JSON.stringify(plan));
}

export function readTrainingPurchaseIntent(
  storage: KeyValueStorage = appStorage,
): TrainingPurchaseIntent | null {
  const value = readJson(storage, PAYMENT_STORAGE_KEYS.trainingPurchaseIntent);
  if (
    !value ||
    (value.type !== 'additional_training' && value.type !== 'upgrade') ||
    typeof value.currentPlan !== 'string'
  ) {
    return null;
  }
  return {
    type: value.type,
    currentPlan: value.currentPlan,
    timestamp: typeof value.timestamp === 'number' ? value.timestamp : 0,
  };
}

export function storeTrainingPurchaseIntent(
  intent: Omit<TrainingPurchaseIntent, 'timestamp'>,
  storage: KeyValueStorage = appStorage,
  now: number = Date.now(),
): void {
  storage.setItem(
    PAYMENT_STORAGE_KEYS.trainingPurchaseIntent,
    JSON.stringify({ ...intent, timestamp: now }),
  );
}

/** A finished purchase leaves nothing behind for the next visit to /payment. */
export function clearPurchaseSelection(storage: KeyValueStorage = appStorage): void {
  storage.removeItem(PAYMENT_STORAGE_KEYS.selectedPlan);
  storage.removeItem(PAYMENT_STORAGE_KEYS.trainingPurchaseIntent);
}
