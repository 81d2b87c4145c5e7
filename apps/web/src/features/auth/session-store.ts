import type { User } from '@studioshot/contracts';
import { useSyncExternalStore } from 'react';
import { appStorage, STORAGE_KEYS, type KeyValueStorage } from '../../lib/storage';

/** The stored user: whatever the server last sent; only id and email are relied upon. */
export type SessionUser = Partial<User> & Pick<User, 'email'>;

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
}

let storage: KeyValueStorage = appStorage;
let state: SessionState = { status: 'loading', user: null };
const listeners = new Set<() => void>();

function publish(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function getSession(): SessionState {
  return state;
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeToSession, getSession, getSession);
}

export function readStoredUser(from: KeyValueStorage = storage): SessionUser | null {
  const raw = from.getItem(STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && 'email' in parsed) {
      const email = (parsed as { email: unknown }).email;
      if (typeof email === 'string') return parsed as SessionUser;
    }
  } catch {
    // A corrupt entry counts as no user.
  }
  return null;
}

/** Restores the session from the stored token and user (product spec, section 4). */
export function restoreSession(from: KeyValueStorage = appStorage): SessionState {
  storage = from;
  const token = storage.getItem(STORAGE_KEYS.accessToken);
  const user = readStoredUser();
  publish(
    token && user ? { status: 'authenticated', user } : { status: 'unauthenticated', user: null },
  );
  return state;
}

export function startSession(
  tokens: { access_token: string; refresh_token: string },
  user: SessionUser,
): void {
  storage.setItem(STORAGE_KEYS.accessToken, tokens.access_token);
  storage.setItem(STORAGE_KEYS.refreshToken, tokens.refresh_token);
  storage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  publish({ status: 'authenticated', user });
}

/** Replaces the stored user (profile refresh); ignored once signed out. */
export function replaceUser(user: SessionUser): void {
  if (state.status !== 'authenticated') return;
  storage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  publish({ status: 'authenticated', user });
}

/** Forgets the local session: stored tokens and user. */
export function clearSession(): void {
  storage.removeItem(STORAGE_KEYS.accessToken);
  storage.removeItem(STORAGE_KEYS.refreshToken);
  storage.removeItem(STORAGE_KEYS.user);
  publish({ status: 'unauthenticated', user: null });
}

export function getAuthRedirect(): string | null {
  return storage.getItem(STORAGE_KEYS.authRedirect);
}

export function setAuthRedirect(path: string): void {
  storage.setItem(STORAGE_KEYS.authRedirect, path);
}

export function clearAuthRedirect(): void {
  storage.removeItem(STORAGE_KEYS.authRedirect);
}
