/** The payments feature's query keys. */
export const paymentKeys = {
  /** The public plan and credit catalogue. */
  pricing: () => ['pricing'] as const,
  /** The signed-in user's subscription. */
  subscription: () => ['subscription'] as const,
};
