import type { RequestHandler } from 'express';
import multer from 'multer';
import { unlink } from 'node:fs/promises';
import { AppError } from '../errors.js';
import { nulCharacterError } from './text.js';

/** What the multipart parser (busboy, through multer) says of a body it cannot read, in our words. */
const PARSER_PROBLEMS: [RegExp, string][] = [
  [/boundary not found/i, 'its Content-Type names no boundary'],
  [/malformed content type|missing content-type/i, 'its Content-Type header is malformed'],
  [/unsupported content type/i, 'only multipart/form-data is read, not another multipart type'],
  [
    /unexpected end of (form|file)/i,
    'the body ended before the end of the form (cut off, or a boundary that does not match)',
  ],
  [/malformed part header/i, 'a part header is malformed or too long'],
  [/request (aborted|closed|error)/i, 'the body ended before it was complete'],
];

/**
 * A body the parser could not read is the client's: a 400 saying why. Anything else (writing the
 * temp file fails: a system error) is left as it is, a 500.
 */
function unreadableForm(error: unknown): AppError | undefined {
  if (!(error instanceof Error) || 'syscall' in error) return undefined;
  const problem = PARSER_PROBLEMS.find(([pattern]) => pattern.test(error.message))?.[1];
  if (!problem) return undefined;
  return new AppError('bad_request', `The request is not valid multipart/form-data: ${problem}.`);
}

/**
 * Runs a multer parser and turns what a client can get wrong into a 4xx: a body busboy cannot
 * read, a limit multer enforces (`refuse` may answer those first, in the route's words), and a
 * NUL character in a field (the JSON body's check, applied to the form's fields).
 */
export function multipartBody(
  parser: RequestHandler,
  refuse: (error: multer.MulterError) => AppError | undefined = () => undefined,
): RequestHandler {
  return (req, res, next) => {
    parser(req, res, (error: unknown) => {
      if (error instanceof multer.MulterError) {
        return next(
          refuse(error) ??
            new AppError(
              'bad_request',
              `The form was refused: ${error.message}${error.field ? ` (field "${error.field}")` : ''}.`,
            ),
        );
      }
      if (error) return next(unreadableForm(error) ?? error);
      const refused = nulCharacterError(req.body);
      if (!refused) return next();
      // Refused after the parser wrote the file: nothing of the request is kept.
      const path = req.file?.path;
      void (path ? unlink(path).catch(() => undefined) : Promise.resolve()).then(() =>
        next(refused),
      );
    });
  };
}
