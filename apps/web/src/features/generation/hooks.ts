import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { queryClient } from '../../lib/query-client';
import { useSession } from '../auth/session-store';
import { useProfile } from '../auth/use-profile';
import { fetchStyles, type Style } from './generation-api';
import { authKeys } from '../auth/query-keys';
import { generationKeys } from './query-keys';

/** The style cards (GET /api/v1/generation/styles): they change with deployments only. */
export function useStyles() {
  return useQuery({
    queryKey: generationKeys.styles(),
    queryFn: ({ signal }) => fetchStyles(signal),
    staleTime: 30 * 60_000,
  });
}

/** Shown before the styles arrive, and for an id the list does not know. */
const FALLBACK_STYLE_NAMES: Record<string, string> = {
  professional: 'Professional',
  executive: 'Executive',
  creative: 'Creative',
};

export function styleLabel(styleId: string, styles?: readonly Style[]): string {
  const named = styles?.find((style) => style.id === styleId)?.name;
  if (named) return named;
  const fallback = FALLBACK_STYLE_NAMES[styleId];
  if (fallback) return fallback;
  const words = styleId.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Professional';
}

/** The style a page starts on. */
const DEFAULT_STYLE = 'professional';

/** A page's chosen style (the style cards' value) and its name. */
export function useStyleChoice() {
  const styles = useStyles();
  const [styleId, setStyleId] = useState(DEFAULT_STYLE);
  return { styleId, setStyleId, styleName: styleLabel(styleId, styles.data) };
}

/**
 * The signed-in account as a generation page shows it: the profile (read on the page, so the
 * balance is fresh), the stored user until it arrives; and its credits, 0 while unknown.
 */
export function useGenerationAccount() {
  const { user } = useSession();
  const profile = useProfile();
  const account = profile.data ?? user;
  return { account, credits: account?.credits_balance ?? 0 };
}
export type GenerationAccount = ReturnType<typeof useGenerationAccount>['account'];

/**
 * A generation ended (done, or failed and its credit given back): the balance, the total
 * generations and the gallery are different now.
 */
export function refreshAfterGeneration(): void {
  void queryClient.invalidateQueries({ queryKey: authKeys.profile() });
  void queryClient.invalidateQueries({ queryKey: generationKeys.images() });
}
