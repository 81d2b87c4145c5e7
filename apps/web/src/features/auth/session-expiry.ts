/** Session widget timing (api spec, section 9). */
export const SESSION_CHECK_INTERVAL_MS = 30_000;
export const SESSION_WARN_SECONDS = 5 * 60;
export const SESSION_REFRESH_SECONDS = 2 * 60;

export type ExpiryAction = 'none' | 'warn' | 'refresh' | 'logout';

/** What the session widget does with this many seconds left (null: token without exp). */
export function expiryAction(secondsLeft: number | null): ExpiryAction {
  if (secondsLeft === null) return 'none';
  if (secondsLeft <= 0) return 'logout';
  if (secondsLeft <= SESSION_REFRESH_SECONDS) return 'refresh';
  if (secondsLeft <= SESSION_WARN_SECONDS) return 'warn';
  return 'none';
}
