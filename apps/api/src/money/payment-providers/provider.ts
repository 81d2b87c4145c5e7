/** What we need of a payment provider; Stripe's PaymentIntents in shape and status names. */
export interface ProviderIntent {
  id: string;
  client_secret: string;
  amount: number;
  currency: string;
  status: string;
  metadata: Record<string, string>;
  /**
   * The billing period this intent pays, when the provider bills the subscription (Stripe Billing:
   * its first invoice): the plan starts on the provider's period, so later renewals line up.
   */
  period?: { start: Date; end: Date };
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
  /**
   * Gives a succeeded intent's money back; the same key again refunds nothing more. Throws
   * RefundRefused when the provider declines it (the reason in its words).
   */
  refundIntent(input: RefundInput): Promise<void>;
  /**
   * A refund ended the user's plan: the subscription the provider bills for it ends now, with no
   * further charge. Only Stripe has one (in test mode our own rows are the subscription).
   */
  endSubscriptionNow?(userId: string): Promise<void>;
  /**
   * Charges the user's card on file without them (a renewal). Only the test provider has it: in
   * Stripe mode Stripe Billing charges renewals itself and our jobs reconcile its events. The
   * same idempotency key again answers the same charge, never a second one.
   */
  chargeCardOnFile?(input: OffSessionChargeInput): Promise<OffSessionCharge>;
  /**
   * A prorated upgrade we charged took effect: the user's subscription at the provider bills the
   * new catalogue item from now on (no proration there). Only Stripe has it: Stripe Billing
   * renews the subscription, so it must renew at the new price; a user with no live subscription
   * there has nothing to move.
   */
  movePlan?(userId: string, itemId: string): Promise<void>;
  /**
   * The account is being deleted: the user's customer at the provider goes, with its card on
   * file, which cancels any subscription it has there. Payments already made stay in the
   * provider's books, as ours stay in the accounting. A user it never knew, or forgot already,
   * is not an error.
   */
  forgetCustomer(userId: string): Promise<void>;
}

export interface OffSessionChargeInput {
  userId: string;
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
}

/** A charge's outcome; `intent.id` is the reference either way. */
export type OffSessionCharge =
  { ok: true; intent: ProviderIntent } | { ok: false; intent: ProviderIntent; message: string };

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

/** The provider declined a refund; `message` is its reason, shown to the owner. */
export class RefundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefundRefused';
  }
}
