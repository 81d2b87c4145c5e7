import { MESSAGES } from '@studioshot/contracts';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from '../errors.js';

export const notFound: RequestHandler = () => {
  throw new AppError('not_found', MESSAGES.notFound);
};

/** The one place errors become responses: `{detail, code}`, or a generic 500 with the request id. */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  let appError: AppError;
  if (error instanceof AppError) {
    appError = error;
  } else if (isBodyParserError(error) && error.type === 'entity.parse.failed') {
    appError = new AppError('invalid_json', MESSAGES.malformedJson);
  } else if (isBodyParserError(error) && error.type === 'entity.too.large') {
    appError = new AppError('payload_too_large', MESSAGES.payloadTooLarge);
  } else if (isBodyParserError(error) && error.type === 'encoding.unsupported') {
    appError = new AppError('unsupported_media_type', 'Unsupported request encoding');
  } else {
    req.log.error({ err: error }, 'unhandled error');
    appError = new AppError(
      'internal_error',
      `${MESSAGES.internal} (request id ${String(req.id)})`,
    );
  }
  if (res.headersSent) return;
  res
    .status(appError.status)
    .set(appError.headers)
    .json({ detail: appError.detail, code: appError.code });
};

function isBodyParserError(error: unknown): error is { type: string } {
  return (
    typeof error === 'object' && error !== null && 'type' in error && typeof error.type === 'string'
  );
}
