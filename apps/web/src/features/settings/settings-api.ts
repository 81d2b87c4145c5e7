import {
  MESSAGES,
  ZAccountDeletionSchema,
  ZDataExportListSchema,
  ZDataExportSchema,
  ZPhotoSetDeletionSchema,
  ZPhotoSetListSchema,
  ZPrivacyFactsSchema,
  ZSignInSessionListSchema,
  ZSignOutResponseSchema,
  ZUserSchema,
  type AccountDeletion,
  type DataExport,
  type PhotoSet,
  type PhotoSetDeletion,
  type PrivacyFacts,
  type SignInSession,
  type SignOutResponse,
  type User,
} from '@studioshot/contracts';
import { api } from '../../lib/api';

export async function fetchSessions(): Promise<SignInSession[]> {
  const answer = await api.get('/api/v1/users/sessions', {
    schema: ZSignInSessionListSchema,
    invalid: MESSAGES.settingsLoadFailed,
  });
  return answer.sessions;
}

export function signOutSession(id: string): Promise<SignOutResponse> {
  return api.delete(`/api/v1/users/sessions/${encodeURIComponent(id)}`, {
    schema: ZSignOutResponseSchema,
  });
}

export function signOutEverywhere(): Promise<SignOutResponse> {
  return api.delete('/api/v1/users/sessions', { schema: ZSignOutResponseSchema });
}

export function changePassword(input: {
  currentPassword: string;
  newPassword: string;
}): Promise<SignOutResponse> {
  return api.post(
    '/api/v1/users/change-password',
    { current_password: input.currentPassword, new_password: input.newPassword },
    { schema: ZSignOutResponseSchema },
  );
}

export function rename(name: string): Promise<User> {
  return api.patch(
    '/api/v1/users/profile',
    { name },
    { schema: ZUserSchema, invalid: MESSAGES.profileUpdateFailed },
  );
}

export async function fetchExports(): Promise<DataExport[]> {
  const answer = await api.get('/api/v1/users/exports', { schema: ZDataExportListSchema });
  return answer.exports;
}

export function requestExport(): Promise<DataExport> {
  return api.post('/api/v1/users/exports', undefined, { schema: ZDataExportSchema });
}

/** The photo sets: what each holds, the model trained from it, when its photos are purged. */
export async function fetchPhotoSets(): Promise<PhotoSet[]> {
  const answer = await api.get('/api/v1/upload/sessions', {
    schema: ZPhotoSetListSchema,
    invalid: MESSAGES.photoSetsLoadFailed,
  });
  return answer.photo_sets;
}

/**
 * Deletes a photo set: its photos and every copy. `deleted` once gone, `deleting` while it is
 * still going; refused (409) while a training from it has not finished.
 */
export function deletePhotoSet(id: string): Promise<PhotoSetDeletion> {
  return api.delete(`/api/v1/upload/sessions/${encodeURIComponent(id)}`, {
    schema: ZPhotoSetDeletionSchema,
    invalid: MESSAGES.photoSetDeleteFailed,
  });
}

/** The privacy page's numbers: public, from the server's configuration. */
export function fetchPrivacyFacts(): Promise<PrivacyFacts> {
  return api.get('/api/v1/privacy', { anonymous: true, schema: ZPrivacyFactsSchema });
}

/**
 * Deletes the account (its password confirms it); every sign-in ends at once. Sent with the token
 * of a session this tab has already let go of (see DeleteAccountSection), never refreshed.
 */
export function deleteAccount(password: string, token: string): Promise<AccountDeletion> {
  return api.request('/api/v1/users/me', {
    method: 'DELETE',
    body: { password },
    token,
    skipAuthRefresh: true,
    schema: ZAccountDeletionSchema,
  });
}

/** Followed without a token: the deletion has signed every session out. */
export function fetchAccountDeletion(id: string): Promise<AccountDeletion> {
  return api.get(`/api/v1/users/deletions/${encodeURIComponent(id)}`, {
    anonymous: true,
    schema: ZAccountDeletionSchema,
  });
}
