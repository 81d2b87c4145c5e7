import { ZHealthResponseSchema } from '@studioshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { generationKeys } from '../query-keys';

/**
 * The server's debug setting (README, Configuration: the debug prompt panel shows for users with the
 * debug flag, or when the server's debug setting is on), read from `/health` as `debug: true`.
 * Anything else, a server that does not say, or one that cannot be reached, means off.
 */
export async function fetchServerDebug(): Promise<boolean> {
  let body: unknown;
  try {
    body = await api.get('/health', { anonymous: true });
  } catch (error) {
    // A degraded server (503) still reports its settings (the same body).
    if (!(error instanceof ApiError && error.status === 503)) return false;
    body = error.body;
  }
  const health = ZHealthResponseSchema.safeParse(body);
  return health.success && health.data.debug === true;
}

export function useServerDebug(): boolean {
  const { data } = useQuery({
    queryKey: generationKeys.serverDebug(),
    queryFn: fetchServerDebug,
    staleTime: Infinity,
    retry: false,
  });
  return data === true;
}
