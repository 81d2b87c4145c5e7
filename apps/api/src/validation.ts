import type { z } from 'zod';
import { AppError } from './errors.js';

/** Parses a request part with its contract schema; a failure is a 422 naming the field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const detail = result.error.issues
    .map((issue) => {
      const field = issue.path.join('.');
      if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
        return field ? `${field} is required` : 'A JSON request body is required';
      }
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
  throw new AppError('validation_error', detail);
}
