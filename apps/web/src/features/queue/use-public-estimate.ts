import { useQuery } from '@tanstack/react-query';
import type { ResultsEstimate } from './durations';
import { fetchPublicResultsEstimate } from './public-estimate';
import { queueKeys } from './query-keys';

/** The answer's own max-age: it is kept, and refreshed on screen, as long as it holds. */
const PUBLIC_ESTIMATE_REFRESH_MS = 60_000;

/**
 * Photos in to headshots out, for anyone, signed in or not (the landing page, /auth): from the
 * public estimate, in the spec's words where they are true; null while unknown, or when nothing
 * can be promised. The landing page loads this after its first paint (routes/home.tsx).
 */
export function usePublicResultsEstimate(): ResultsEstimate | null {
  const { data } = useQuery({
    queryKey: queueKeys.publicEstimate(),
    queryFn: ({ signal }) => fetchPublicResultsEstimate(signal),
    staleTime: PUBLIC_ESTIMATE_REFRESH_MS,
    refetchInterval: PUBLIC_ESTIMATE_REFRESH_MS,
    retry: false,
  });
  return data ?? null;
}
