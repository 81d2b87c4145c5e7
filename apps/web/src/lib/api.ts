import { createApiClient } from './api-client';
import { appStorage } from './storage';

let sessionExpiredHandler: () => void = () => window.location.assign('/auth');
const tokenListeners = new Set<() => void>();

/** The app's one API client: same origin unless VITE_API_BASE says otherwise. */
export const api = createApiClient({
  baseUrl: import.meta.env.VITE_API_BASE ?? '',
  storage: appStorage,
  onSessionExpired: () => sessionExpiredHandler(),
  onTokensRefreshed: () => {
    for (const listener of tokenListeners) listener();
  },
});

/** Installed at start-up, once the router exists. */
export function setSessionExpiredHandler(handler: () => void): void {
  sessionExpiredHandler = handler;
}

export function subscribeToTokenRefresh(listener: () => void): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}
