import { z } from 'zod';

/**
 * Text fields of requests, written so that the JSON Schema the OpenAPI document shows for them
 * (zod's `io: 'input'`) accepts exactly what the API accepts: the API fuzz run (schemathesis)
 * fails both on a documented-valid request refused and on a documented-invalid one accepted.
 * So: every length limit applies to the text as sent (before any trim), a NUL character is
 * refused (no Postgres text column stores one; middleware/text.ts refuses it in JSON and query
 * strings first), and "must not be blank" is a pattern, not a check after trimming.
 */

/** What String.prototype.trim (and so zod's .trim()) removes: ECMAScript WhiteSpace and LineTerminator. */
export const TRIMMED_WHITESPACE =
  '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

export const NUL_REFUSED = 'Text must not contain NUL characters (\\u0000).';

/** Any text without a NUL character. */
// eslint-disable-next-line no-control-regex -- the NUL character is exactly what it refuses
export const NO_NUL_PATTERN = /^[^\u0000]*$/;

/** Text without a NUL that holds at least one character trim() keeps. */
export const NOT_BLANK_PATTERN = new RegExp(
  `^[^\\u0000]*[^\\u0000${TRIMMED_WHITESPACE}][^\\u0000]*$`,
);

/** Free text up to `max` characters, kept as sent. */
export function text(max: number) {
  return z.string().max(max).regex(NO_NUL_PATTERN, NUL_REFUSED);
}

/** Free text up to `max` characters as sent, trimmed. */
export function trimmedText(max: number) {
  return z.string().max(max).regex(NO_NUL_PATTERN, NUL_REFUSED).trim();
}

/** Text that must not be blank (`blank` says so), up to `max` characters as sent, trimmed. */
export function requiredText(max: number, blank?: string) {
  return z
    .string()
    .max(max)
    .regex(NOT_BLANK_PATTERN, blank ?? 'Must not be blank')
    .trim();
}

/** A token, code or id: 1 to `max` characters, no NUL, kept as sent. */
export function token(max: number) {
  return z.string().min(1).max(max).regex(NO_NUL_PATTERN, NUL_REFUSED);
}
