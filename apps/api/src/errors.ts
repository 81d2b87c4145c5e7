import { ERROR_STATUS, MESSAGES, type ErrorCode } from '@studioshot/contracts';

/**
 * Retry-After of a conflict that waiting does not resolve (an address already registered, a
 * payment already refunded): asking again unchanged is not worthwhile within a day; what must
 * change first is in the detail.
 */
export const NOT_BY_WAITING_RETRY_AFTER_S = 86_400;

/**
 * Retry-After of a conflict a running training resolves (a model or photo set still training):
 * the contract's refresh interval of a model's status.
 */
export const TRAINING_RETRY_AFTER_S = 30;

/** Statuses that always carry Retry-After: a conflict (409) and a limit (429). */
const RETRY_AFTER_STATUSES = new Set([409, 429]);

export interface AppErrorOptions {
  /** Further response headers (e.g. WWW-Authenticate). */
  headers?: Record<string, string>;
  /**
   * For a 409 or 429: when asking again is worthwhile, in seconds. A limit says when its window
   * frees, a conflict that waiting resolves its expected wait; unset on a 409, waiting does not
   * resolve it (NOT_BY_WAITING_RETRY_AFTER_S).
   */
  retryAfterSeconds?: number;
}

/** The one error class: a code (which fixes the HTTP status) and the user-facing detail. */
export class AppError extends Error {
  readonly status: number;
  /** Every response header of the error, Retry-After included for a 409 or 429. */
  readonly headers: Record<string, string>;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    options: AppErrorOptions = {},
  ) {
    super(detail);
    this.status = ERROR_STATUS[code];
    this.headers = { ...options.headers };
    if (RETRY_AFTER_STATUSES.has(this.status)) {
      const seconds = options.retryAfterSeconds ?? NOT_BY_WAITING_RETRY_AFTER_S;
      this.headers['Retry-After'] = String(Math.max(0, Math.ceil(seconds)));
    }
  }
}

export const unauthorized = (detail: string = MESSAGES.authRequired) =>
  new AppError('unauthorized', detail, { headers: { 'WWW-Authenticate': 'Bearer' } });
