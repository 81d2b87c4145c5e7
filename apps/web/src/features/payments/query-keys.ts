/** The payments feature's query keys. */
export const paymentKeys = {
  /** The public plan and credit catalogue. */
  pricing: () => ['pricing'] as const,
  /** The signed-in user's subscription. */
  subscription: () => ['subscription'] as const,
  /** What an order costs now, before Pay makes its intent. */
  quotes: () => ['checkout-quote'] as const,
  quote: (order: string) => [...paymentKeys.quotes(), order] as const,
  /** An intent made on an earlier visit, named in the address. */
  resumedIntents: () => ['payment-intent-resumed'] as const,
  resumedIntent: (paymentIntentId: string | null) =>
    [...paymentKeys.resumedIntents(), paymentIntentId] as const,
  /** The purchase of a paid intent, confirmed. */
  completion: (paymentIntentId: string) => ['payment-complete', paymentIntentId] as const,
};
