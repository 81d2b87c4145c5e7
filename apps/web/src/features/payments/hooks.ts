import type { User } from '@studioshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryClient } from '../../lib/query-client';
import { fetchProfile } from '../auth/auth-api';
import { replaceUser } from '../auth/session-store';
import { fetchPricing, fetchSubscription } from './payments-api';

export const PRICING_QUERY_KEY = ['pricing'] as const;
export const PROFILE_QUERY_KEY = ['profile'] as const;
export const SUBSCRIPTION_QUERY_KEY = ['subscription'] as const;

/** The public catalogue; it changes with deployments only. */
export function usePricing() {
  return useQuery({
    queryKey: PRICING_QUERY_KEY,
    queryFn: fetchPricing,
    staleTime: 5 * 60_000,
  });
}

/**
 * The profile, which replaces the stored user whenever it arrives (docs/spec/calls.md#72-profile).
 */
export function useProfile(options: { refetchInterval?: number; enabled?: boolean } = {}) {
  const profile = useQuery({
    queryKey: PROFILE_QUERY_KEY,
    queryFn: fetchProfile,
    refetchInterval: options.refetchInterval,
    enabled: options.enabled ?? true,
  });
  useEffect(() => {
    if (profile.data) replaceUser(profile.data);
  }, [profile.data]);
  return profile;
}

/** After a purchase: fetch the profile now so balances and limits show what was bought. */
export async function refreshProfile(): Promise<User | null> {
  try {
    const user = await fetchProfile();
    queryClient.setQueryData(PROFILE_QUERY_KEY, user);
    replaceUser(user);
    return user;
  } catch {
    // The purchase stands; the dashboard's own refresh catches up.
    return null;
  } finally {
    void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
  }
}

/** `refetchInterval`: asks again that often (while the tab is visible), for a change made elsewhere. */
export function useSubscription(options: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: SUBSCRIPTION_QUERY_KEY,
    queryFn: fetchSubscription,
    refetchInterval: options.refetchInterval,
  });
}
