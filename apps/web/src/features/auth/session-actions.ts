import { api } from '../../lib/api';
import { SESSION_MESSAGES } from '@studioshot/contracts/session-messages';
import { queryClient } from '../../lib/query-client';
import { appStorage, STORAGE_KEYS } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { clearSession, getSession, setAuthRedirect } from './session-store';

let navigateTo: (path: string) => void = (path) => window.location.assign(path);

/** Installed at start-up so session endings use client-side navigation. */
export function setSessionNavigator(navigate: (path: string) => void): void {
  navigateTo = navigate;
}

/**
 * Logout: forget the session locally, then tell the server (its failures are ignored). The
 * refresh token goes along, so the sign-in ends even when the access token has expired.
 */
export function signOut(): void {
  const token = appStorage.getItem(STORAGE_KEYS.accessToken);
  const refreshToken = appStorage.getItem(STORAGE_KEYS.refreshToken);
  clearSession();
  queryClient.clear();
  if (token || refreshToken) {
    api
      .post('/api/v1/auth/logout', refreshToken ? { refresh_token: refreshToken } : undefined, {
        token: token ?? undefined,
        skipAuthRefresh: true,
      })
      .catch(() => undefined);
  }
}

/** The session could not be renewed: back to /auth, returning here after sign-in. */
export function endExpiredSession(): void {
  const here = window.location.pathname + window.location.search;
  if (!here.startsWith('/auth') && here !== '/') setAuthRedirect(here);
  const wasSignedIn = getSession().status === 'authenticated';
  clearSession();
  queryClient.clear();
  if (wasSignedIn) toast.info(SESSION_MESSAGES.invalidRefreshToken);
  navigateTo('/auth');
}
