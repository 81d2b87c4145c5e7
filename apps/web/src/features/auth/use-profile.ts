import { MESSAGES, type User } from '@studioshot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
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

/** A profile the server just answered with: every page shows it (the cache and the stored user). */
export function showProfile(user: User): void {
  queryClient.setQueryData(authKeys.profile(), user);
  replaceUser(user);
}

/**
 * Saving a change to the profile (a name, the style settings): `save` sends it and shows the
 * answer everywhere, resolving to the new profile, or to null with `error` saying why not.
 */
export function useProfileSave() {
  const [error, setError] = useState<string | null>(null);
  const save = useCallback(async (change: () => Promise<User>): Promise<User | null> => {
    setError(null);
    try {
      const user = await change();
      showProfile(user);
      return user;
    } catch (failure) {
      setError(errorMessage(failure, MESSAGES.profileUpdateFailed));
      return null;
    }
  }, []);
  return { error, save };
}
