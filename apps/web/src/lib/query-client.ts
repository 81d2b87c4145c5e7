import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** A client error (4xx): asking again gets the same answer. */
export function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/**
 * The app's one query client. Its retry rule is every query's: network and server faults are
 * asked again twice (1 s, then 2 s later), client errors never. A query opts out with
 * `retry: false` where its own poll is the retry.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
    },
  },
});
