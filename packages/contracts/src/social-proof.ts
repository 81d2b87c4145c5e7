import { z } from 'zod';

/**
 * The rating and the count of professionals the public pages may quote: operator settings, each
 * with the source it comes from. Null when not configured: the pages then quote nothing.
 */
export const ZSocialProofSchema = z.object({
  /** The average rating, out of 5. */
  rating: z.number().positive().max(5).nullable(),
  /** How many professionals the rating (or the count alone) stands for. */
  rating_count: z.number().int().positive().nullable(),
  /** Where the figures come from (a review site, a survey); present whenever a figure is. */
  source: z.string().min(1).nullable(),
  /** True for the sample figures a server outside production shows when none are set. */
  development_default: z.boolean(),
});
export type SocialProof = z.infer<typeof ZSocialProofSchema>;
