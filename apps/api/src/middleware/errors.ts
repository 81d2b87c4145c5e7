import { MAX_PHOTO_BYTES, MESSAGES } from '@studioshot/contracts';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
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
  void drainBody(req).then((drained) => {
    if (res.headersSent) return;
    if (!drained) res.set('Connection', 'close');
    res
      .status(appError.status)
      .set(appError.headers)
      .json({ detail: appError.detail, code: appError.code });
  });
};

/** Past this many unread bytes a refused request is cut off rather than read to its end. */
const DRAIN_LIMIT_BYTES = MAX_PHOTO_BYTES + 1024 * 1024;

/**
 * Reads and discards a body the route refused before reading (an upload to a closed session), so
 * the client finishes sending before it gets the answer instead of hitting a reset connection
 * (EPIPE) halfway through its upload. Answers false when the body is too big to be worth reading.
 */
function drainBody(req: Request): Promise<boolean> {
  if (req.complete || !req.readable) return Promise.resolve(true);
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (drained: boolean) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onEnd);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_LIMIT_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onEnd);
    req.resume();
  });
}

function isBodyParserError(error: unknown): error is { type: string } {
  return (
    typeof error === 'object' && error !== null && 'type' in error && typeof error.type === 'string'
  );
}
