import { MAX_PHOTO_BYTES, MESSAGES, type ErrorCode } from '@studioshot/contracts';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { AppError } from '../errors.js';

export const notFound: RequestHandler = () => {
  throw new AppError('not_found', MESSAGES.notFound);
};

/** The one place errors become responses: `{detail, code}`, or a generic 500 with the request id. */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const appError =
    (error instanceof AppError ? error : clientError(error, req)) ?? internalError(error, req);
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

function internalError(error: unknown, req: Request): AppError {
  req.log.error({ err: error, req: { id: req.id } }, 'unhandled error');
  return new AppError('internal_error', `${MESSAGES.internal} (request id ${String(req.id)})`);
}

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

/** Body encodings the JSON and raw body parsers inflate. */
const CONTENT_ENCODINGS = 'gzip, deflate or br';

/**
 * The client's own mistakes that reach us as library errors, as the 4xx they are: body-parser's
 * (charset, Content-Encoding, JSON syntax, size, a body cut short) and Postgres refusing text no
 * column can hold. A 500 is kept for our own bugs.
 */
function clientError(error: unknown, req: Request): AppError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status, expose, code } = error as Record<string, unknown>;
  switch (type) {
    case 'entity.parse.failed':
      return new AppError('invalid_json', MESSAGES.malformedJson);
    case 'entity.too.large':
      return new AppError('payload_too_large', MESSAGES.payloadTooLarge);
    case 'charset.unsupported': {
      const charset = String((error as { charset?: unknown }).charset ?? '');
      return new AppError(
        'unsupported_media_type',
        `Unsupported charset "${charset}": send JSON encoded as UTF-8.`,
      );
    }
    case 'encoding.unsupported': {
      const encoding = String((error as { encoding?: unknown }).encoding ?? '');
      return new AppError(
        'unsupported_media_type',
        `Unsupported Content-Encoding "${encoding}": send the body uncompressed, or as ${CONTENT_ENCODINGS}.`,
      );
    }
    case 'request.aborted':
    case 'request.size.invalid':
      return new AppError('bad_request', 'The request body ended before its Content-Length.');
  }
  // zlib failing on a body declared compressed (its errors carry a numeric errno; body-parser
  // marks them 400): what was sent is not what Content-Encoding says.
  const encoding = req.headers['content-encoding'];
  if (status === 400 && typeof (error as { errno?: unknown }).errno === 'number' && encoding) {
    return new AppError('bad_request', decompressionFailed(encoding.toLowerCase()));
  }
  // The router failing to percent-decode a path parameter.
  if (error instanceof URIError && status === 400) {
    return new AppError('bad_request', `${error.message}: the address is not valid UTF-8.`);
  }
  // Postgres: a NUL or an invalid byte sequence in text (checked earlier too; this is the net).
  if (code === '22021' || code === '22P05') {
    return new AppError('bad_request', 'The request contains characters that cannot be stored.');
  }
  // Any other error a body parser marked as safe to show, with a 4xx status (http-errors).
  if (expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError(CODE_BY_STATUS[status] ?? 'bad_request', (error as Error).message);
  }
  return undefined;
}

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
};

function decompressionFailed(encoding: string): string {
  return `The request body is not valid ${encoding} data, as its Content-Encoding says: send it compressed that way, or uncompressed without the header.`;
}
