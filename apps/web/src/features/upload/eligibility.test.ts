import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_ERROR_CODES } from '../../lib/api-client';
import { slotsLeft, uploadGate } from './eligibility';

const paid = {
  plan_type: 'starter',
  training_limit: 1,
  models_trained: 0,
  gender: 'female',
  age: 34,
};
const signedIn = { hasToken: true, hasUser: true, profileError: null };

describe('upload eligibility', () => {
  it('sends a visitor without a user or token to /auth', () => {
    expect(uploadGate({ ...signedIn, hasToken: false, profile: paid })).toEqual({ kind: 'auth' });
    expect(uploadGate({ ...signedIn, hasUser: false, profile: paid })).toEqual({ kind: 'auth' });
  });

  it('waits for the profile, and goes to /pricing when it cannot be loaded', () => {
    expect(uploadGate({ ...signedIn, profile: undefined })).toEqual({ kind: 'loading' });
    expect(
      uploadGate({ ...signedIn, profile: undefined, profileError: new Error('boom') }),
    ).toEqual({ kind: 'pricing', reason: 'profile-error' });
    const expired = new ApiError({ status: 401, code: CLIENT_ERROR_CODES.sessionExpired });
    expect(uploadGate({ ...signedIn, profile: undefined, profileError: expired })).toEqual({
      kind: 'auth',
    });
  });

  it('sends the free plan or a zero training limit to /pricing', () => {
    expect(
      uploadGate({ ...signedIn, profile: { ...paid, plan_type: 'free', training_limit: 0 } }),
    ).toEqual({ kind: 'pricing', reason: 'plan' });
    expect(
      uploadGate({ ...signedIn, profile: { ...paid, plan_type: 'free', training_limit: null } }),
    ).toEqual({ kind: 'pricing', reason: 'plan' });
    expect(uploadGate({ ...signedIn, profile: { ...paid, training_limit: 0 } })).toEqual({
      kind: 'pricing',
      reason: 'plan',
    });
  });

  it('lets a free account that bought a training upload', () => {
    expect(
      uploadGate({ ...signedIn, profile: { ...paid, plan_type: 'free', training_limit: 1 } }),
    ).toEqual({ kind: 'ready' });
  });

  it('shows the training-limit modal at or over the limit', () => {
    expect(
      uploadGate({ ...signedIn, profile: { ...paid, training_limit: 2, models_trained: 2 } }),
    ).toEqual({ kind: 'limit', modelsTrained: 2, trainingLimit: 2 });
    expect(
      uploadGate({ ...signedIn, profile: { ...paid, training_limit: 1, models_trained: 3 } }),
    ).toMatchObject({ kind: 'limit' });
  });

  it('asks for the profile only while the gender is missing: the age is optional', () => {
    expect(uploadGate({ ...signedIn, profile: { ...paid, gender: null } })).toEqual({
      kind: 'profile',
      genderMissing: true,
    });
    expect(uploadGate({ ...signedIn, profile: { ...paid, age: null } })).toEqual({ kind: 'ready' });
    expect(uploadGate({ ...signedIn, profile: paid })).toEqual({ kind: 'ready' });
  });

  it('counts the training slots left', () => {
    expect(slotsLeft({ training_limit: 5, models_trained: 2 })).toBe(3);
    expect(slotsLeft({ training_limit: 1, models_trained: 3 })).toBe(0);
    expect(slotsLeft({})).toBe(0);
  });
});
