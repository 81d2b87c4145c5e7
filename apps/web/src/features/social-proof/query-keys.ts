/** The social-proof feature's query keys. */
export const socialProofKeys = {
  /** The rating and count of professionals the public pages quote. */
  figures: () => ['social-proof'] as const,
};
