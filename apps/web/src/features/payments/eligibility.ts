/** Training and generate eligibility (product spec, section 4). */

interface EligibilityProfile {
  plan_type?: string | null;
  training_limit?: number | null;
  models_trained?: number | null;
  credits_balance?: number | null;
}

/** Navigation state /pricing reads to show its Need Credits or upgrade banner. */
export interface PricingNavigationState {
  reason: 'credits' | 'upgrade' | 'plan';
  message: string;
}

export const NEED_CREDITS_STATE: PricingNavigationState = {
  reason: 'credits',
  message: 'You need credits to generate headshots. Purchase credit packs below:',
};

export const NEED_UPGRADE_STATE: PricingNavigationState = {
  reason: 'upgrade',
  message: 'Upgrade your plan to train more models:',
};

/** A free account on its way to its first model: training comes with a plan. */
export const NEED_PLAN_STATE: PricingNavigationState = {
  reason: 'plan',
  message:
    'Your headshots come from a model trained on your photos, and training comes with a plan. Choose one below:',
};

const DEFAULT_MESSAGES: Record<PricingNavigationState['reason'], string> = {
  credits: NEED_CREDITS_STATE.message,
  upgrade: NEED_UPGRADE_STATE.message,
  plan: NEED_PLAN_STATE.message,
};

export type TrainingEligibility =
  /** No profile, or no trainings (the free plan has none): choose a plan. */
  | { kind: 'pricing' }
  /** models_trained >= training_limit: more trainings or a higher plan (training-limit modal). */
  | { kind: 'limit'; limit: number }
  | { kind: 'upload' };

export function trainingEligibility(
  profile: EligibilityProfile | null | undefined,
): TrainingEligibility {
  const limit = profile?.training_limit ?? 0;
  // The spec's "free plan or training_limit 0": the free plan comes with no trainings, so the
  // limit decides. A free account that bought a training (the training-limit modal and
  // /payment?type=training sell them) can use it, as the upload page and the API allow.
  if (!profile || limit <= 0) return { kind: 'pricing' };
  if ((profile.models_trained ?? 0) >= limit) return { kind: 'limit', limit };
  return { kind: 'upload' };
}

export type GenerateEligibility =
  | { to: '/pricing'; state: PricingNavigationState }
  | { to: '/generate'; state: { modelId?: string } };

export function generateEligibility(
  profile: EligibilityProfile | null | undefined,
  modelId?: string,
): GenerateEligibility {
  const credits = profile?.credits_balance;
  if (credits === undefined || credits === null || credits <= 0) {
    return { to: '/pricing', state: NEED_CREDITS_STATE };
  }
  return { to: '/generate', state: modelId ? { modelId } : {} };
}

/** Reads /pricing's navigation state defensively (it may come from anywhere). */
export function readPricingState(state: unknown): PricingNavigationState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { reason, message } = state as Record<string, unknown>;
  if (reason !== 'credits' && reason !== 'upgrade' && reason !== 'plan') return null;
  return {
    reason,
    message: typeof message === 'string' && message.trim() ? message : DEFAULT_MESSAGES[reason],
  };
}
