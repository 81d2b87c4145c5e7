import type { RequestHandler } from 'express';
import { AppError } from '../errors.js';

/**
 * Refuses a JSON body or query string holding a NUL character (U+0000) anywhere, in a value or a
 * property name: no Postgres text column can store one, so it would otherwise fail deep inside a
 * query. Answered 422 naming the field, before any route runs.
 */
export const refuseNulCharacters: RequestHandler = (req, _res, next) => {
  // Express parses the query string on every read of req.query: only where there is one.
  next(
    nulCharacterError(req.body) ??
      (req.url.includes('?') ? nulCharacterError(req.query) : undefined),
  );
};

/** The 422 for the first NUL character in `value` (a parsed body or query), if it holds one. */
export function nulCharacterError(value: unknown): AppError | undefined {
  const field = fieldWithNul(value);
  if (field === undefined) return undefined;
  return new AppError(
    'validation_error',
    `${field ? `${field}: ` : ''}Text must not contain NUL characters (\\u0000).`,
  );
}

/**
 * The path ('params.tags.1') of the first string or property name holding a NUL, '' for the root
 * itself; undefined when there is none. Iterative: a deeply nested body cannot exhaust the stack.
 */
export function fieldWithNul(value: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value === 'string') {
      if (next.value.includes('\u0000')) return next.path;
    } else if (typeof next.value === 'object' && next.value !== null) {
      for (const [key, child] of Object.entries(next.value)) {
        const path = next.path ? `${next.path}.${key}` : key;
        if (key.includes('\u0000')) return path.replaceAll('\u0000', '\\u0000');
        pending.push({ value: child, path });
      }
    }
  }
  return undefined;
}
