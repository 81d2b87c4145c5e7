import { useQuery } from '@tanstack/react-query';
import { ZSocialProofSchema, type SocialProof } from '@studioshot/contracts';
import { api } from '../../lib/api';
import { socialProofKeys } from './query-keys';

/**
 * The rating and count of professionals the public pages quote: the server's settings, never a
 * figure of the web app's own. Nothing is quoted while they load, when none are set, or when the
 * call fails.
 */
export function useSocialProof(): SocialProof | undefined {
  return useQuery({
    queryKey: socialProofKeys.figures(),
    queryFn: () => api.get('/api/v1/social-proof', { anonymous: true, schema: ZSocialProofSchema }),
    staleTime: 30 * 60_000,
  }).data;
}

const COUNT = new Intl.NumberFormat('en-US');

/** The rating out of 5 ("<rating>/5"), or null without one. */
export function ratingText(proof: SocialProof | undefined): string | null {
  return proof?.rating != null ? `${proof.rating}/5` : null;
}

/** "<count>+ professionals", or null without a count. */
export function professionalsText(proof: SocialProof | undefined): string | null {
  return proof?.rating_count != null ? `${COUNT.format(proof.rating_count)}+ professionals` : null;
}

/** One sentence with whichever figures are set ("Rated <rating>/5 by <count>+ professionals"), or null. */
export function socialProofSentence(proof: SocialProof | undefined): string | null {
  const rating = ratingText(proof);
  const professionals = professionalsText(proof);
  if (rating && professionals) return `Rated ${rating} by ${professionals}`;
  if (rating) return `Rated ${rating}`;
  if (professionals) return `Chosen by ${professionals}`;
  return null;
}

/** Where the figures come from, as the pages print it after them. */
export function sourceText(proof: SocialProof | undefined): string | null {
  return proof?.source ? `Source: ${proof.source}` : null;
}
