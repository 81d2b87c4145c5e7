import { ERROR_STATUS, MESSAGES, type ErrorCode } from '@studioshot/contracts';

/** The one error class: a code (which fixes the HTTP status) and the user-facing detail. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.status = ERROR_STATUS[code];
  }
}

export const unauthorized = (detail: string = MESSAGES.authRequired) =>
  new AppError('unauthorized', detail, { 'WWW-Authenticate': 'Bearer' });
