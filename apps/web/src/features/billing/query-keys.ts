/** The billing feature's query keys. */
export const billingKeys = {
  /** The user's payments. */
  history: () => ['billing-history'] as const,
  /** One payment's receipt. */
  receipt: (id: string) => ['receipt', id] as const,
};
