import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { fetchProfile } from './auth-api';
import { authKeys } from './query-keys';
import { replaceUser } from './session-store';

export interface ProfileOptions {
  /** Asks again that often, for a change made elsewhere (a purchase, a training). */
  refetchInterval?: number;
  enabled?: boolean;
  /** 'always': a page whose decisions rest on the profile reads it afresh when it opens. */
  refetchOnMount?: boolean | 'always';
}

/**
 * The signed-in user's profile (docs/spec/calls.md#72-profile), which replaces the stored user
 * whenever it arrives.
 */
export function useProfile(options: ProfileOptions = {}) {
  const profile = useQuery({
    queryKey: authKeys.profile(),
    queryFn: fetchProfile,
    refetchInterval: options.refetchInterval,
    enabled: options.enabled ?? true,
    refetchOnMount: options.refetchOnMount,
  });
  useEffect(() => {
    if (profile.data) replaceUser(profile.data);
  }, [profile.data]);
  return profile;
}
