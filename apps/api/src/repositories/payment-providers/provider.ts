/** What we need of a payment provider; Stripe's PaymentIntents in shape and status names. */
export interface ProviderIntent {
  id: string;
  client_secret: string;
  amount: number;
  currency: string;
  status: string;
  metadata: Record<string, string>;
}

export interface CreateIntentInput {
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly name: 'test' | 'stripe';
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** undefined when the provider has no such intent. */
  retrieveIntent(id: string): Promise<ProviderIntent | undefined>;
  /** Gives a succeeded intent's money back; the same key again refunds nothing more. */
  refundIntent(input: RefundInput): Promise<void>;
}

export interface RefundInput {
  intentId: string;
  amount: number;
  idempotencyKey: string;
}

export interface TestCard {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}
