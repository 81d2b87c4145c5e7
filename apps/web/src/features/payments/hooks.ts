import type { User } from '@studioshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { queryClient } from '../../lib/query-client';
import { fetchProfile } from '../auth/auth-api';
import { fetchPricing, fetchSubscription } from './payments-api';
import { paymentKeys } from './query-keys';
import { showProfile } from '../auth/use-profile';

/** The public catalogue; it changes with deployments only. */
export function usePricing() {
  return useQuery({
    queryKey: paymentKeys.pricing(),
    queryFn: fetchPricing,
    staleTime: 5 * 60_000,
  });
}

/** After a purchase: fetch the profile now so balances and limits show what was bought. */
export async function refreshProfile(): Promise<User | null> {
  try {
    const user = await fetchProfile();
    showProfile(user);
    return user;
  } catch {
    // The purchase stands; the dashboard's own refresh catches up.
    return null;
  } finally {
    void queryClient.invalidateQueries({ queryKey: paymentKeys.subscription() });
  }
}

/** `refetchInterval`: asks again that often (while the tab is visible), for a change made elsewhere. */
export function useSubscription(options: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: paymentKeys.subscription(),
    queryFn: fetchSubscription,
    refetchInterval: options.refetchInterval,
  });
}
