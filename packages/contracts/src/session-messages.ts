/**
 * The messages every page's API client may show (lost connection, session over), part of
 * MESSAGES. A module of their own so the client that every page loads, the landing included,
 * carries these three and not the whole catalogue.
 */
export const SESSION_MESSAGES = {
  authRequired: 'Authentication required',
  network: 'Connection error. Please check your internet connection and try again.',
  invalidRefreshToken: 'Your session has expired. Please sign in again.',
} as const;
