import {
  CURRENCY,
  findSubscriptionItem,
  planPeriodPriceCents,
  type BillingCycle,
  type Plan,
} from '@studioshot/pricing';
import Stripe from 'stripe';
import type {
  StripeBillingRepository,
  StripeSubscriptionState,
} from '../stripe-billing.repository.js';
import type {
  CreateIntentInput,
  PaymentProvider,
  ProviderIntent,
  RefundInput,
} from './provider.js';
import { RefundRefused } from './provider.js';

export interface StripeConfig {
  secretKey: string;
  /** Overrides for a Stripe-compatible server (tests); unset in production. */
  apiBase?: string;
}

export function createStripeClient(config: StripeConfig): Stripe {
  const base = config.apiBase ? new URL(config.apiBase) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
}

/** The Stripe Price of a plan billed monthly or annually, found again by this lookup key. */
export function priceLookupKey(plan: Plan, cycle: BillingCycle): string {
  return `studioshot_${plan.id}_${cycle}`;
}

/** Stripe's state of a subscription, as we keep it (the period is its item's, since 2025). */
export function subscriptionState(subscription: Stripe.Subscription): StripeSubscriptionState {
  const item = subscription.items.data[0];
  return {
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodStart: item ? new Date(item.current_period_start * 1000) : null,
    currentPeriodEnd: item ? new Date(item.current_period_end * 1000) : null,
  };
}

/**
 * Real money through the official SDK. One-off purchases are PaymentIntents; a plan is a Stripe
 * Billing subscription of the plan's Price (monthly or annual), whose renewals Stripe charges and
 * reports by webhook (money/stripe-intake.service.ts).
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  /** Price ids by lookup key, found or made once per process. */
  private readonly prices = new Map<string, Promise<string>>();

  constructor(
    private readonly stripe: Stripe,
    private readonly billing: StripeBillingRepository,
  ) {}

  async createIntent(input: CreateIntentInput): Promise<ProviderIntent> {
    const subscription =
      input.metadata.kind === 'subscription'
        ? findSubscriptionItem(input.metadata.item_id ?? '')
        : undefined;
    if (subscription) return this.createSubscription(input, subscription.plan, subscription.cycle);
    const intent = await this.stripe.paymentIntents.create(
      {
        amount: input.amount,
        currency: input.currency,
        metadata: input.metadata,
        automatic_payment_methods: { enabled: true },
      },
      { idempotencyKey: input.idempotencyKey },
    );
    return toIntent(intent);
  }

  /**
   * A plan: a subscription left incomplete until its first invoice is paid, whose PaymentIntent
   * the page confirms with Stripe.js (payment_behavior default_incomplete). The card is saved on
   * the subscription, so Stripe charges it for every renewal.
   */
  private async createSubscription(
    input: CreateIntentInput,
    plan: Plan,
    cycle: BillingCycle,
  ): Promise<ProviderIntent> {
    const userId = input.metadata.user_id;
    if (!userId) throw new Error('a subscription needs the user it is for');
    const [customer, price] = await Promise.all([
      this.customerFor(userId),
      this.priceFor(plan, cycle),
    ]);
    const subscription = await this.stripe.subscriptions.create(
      {
        customer,
        items: [{ price }],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        metadata: input.metadata,
        expand: ['latest_invoice.confirmation_secret'],
      },
      { idempotencyKey: input.idempotencyKey },
    );
    const invoice = subscription.latest_invoice;
    const clientSecret =
      invoice && typeof invoice === 'object' ? invoice.confirmation_secret?.client_secret : '';
    // A PaymentIntent's client secret is its id, '_secret_', and the secret part.
    const intentId = clientSecret?.split('_secret_')[0];
    if (!clientSecret || !intentId || typeof invoice !== 'object' || !invoice) {
      throw new Error(`subscription ${subscription.id} has no first invoice to pay`);
    }
    await this.billing.saveSubscription({
      id: subscription.id,
      userId,
      customerId: customer,
      itemId: input.metadata.item_id!,
      firstIntentId: intentId,
      state: subscriptionState(subscription),
    });
    return {
      id: intentId,
      client_secret: clientSecret,
      amount: invoice.amount_due,
      currency: invoice.currency,
      status: 'requires_payment_method',
      // The replayed create answers the subscription first made, with its payment's id.
      metadata: { ...input.metadata, ...subscription.metadata },
    };
  }

  /** The user's Stripe Customer, made the first time (one per user, whoever races). */
  private async customerFor(userId: string): Promise<string> {
    const known = await this.billing.customerOf(userId);
    if (known) return known;
    const email = await this.billing.userEmail(userId);
    const customer = await this.stripe.customers.create(
      { ...(email ? { email } : {}), metadata: { user_id: userId } },
      { idempotencyKey: `customer:${userId}` },
    );
    return this.billing.saveCustomer(userId, customer.id);
  }

  /**
   * The plan's Price, found by its lookup key, or made from the catalogue when there is none or
   * the catalogue's figure changed (the new Price takes the key over).
   */
  private priceFor(plan: Plan, cycle: BillingCycle): Promise<string> {
    const key = priceLookupKey(plan, cycle);
    const amount = planPeriodPriceCents(plan, cycle);
    const interval = cycle === 'annual' ? 'year' : 'month';
    const cacheKey = `${key}:${amount}`;
    let price = this.prices.get(cacheKey);
    if (!price) {
      price = (async () => {
        const found = await this.stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 });
        const current = found.data.find(
          (p) =>
            p.lookup_key === key &&
            p.unit_amount === amount &&
            p.currency === CURRENCY &&
            p.recurring?.interval === interval,
        );
        if (current) return current.id;
        const made = await this.stripe.prices.create(
          {
            currency: CURRENCY,
            unit_amount: amount,
            recurring: { interval },
            lookup_key: key,
            transfer_lookup_key: true,
            product_data: { name: `Studioshot ${plan.name}` },
            metadata: { plan: plan.id, billing_cycle: cycle },
          },
          { idempotencyKey: `price:${key}:${amount}` },
        );
        return made.id;
      })();
      // A failure is not remembered: the next purchase asks again.
      price.catch(() => this.prices.delete(cacheKey));
      this.prices.set(cacheKey, price);
    }
    return price;
  }

  /** Cancel at period end, or keep it after all: Stripe decides, and answers its new state. */
  async setCancelAtPeriodEnd(
    subscriptionId: string,
    cancel: boolean,
  ): Promise<StripeSubscriptionState> {
    const subscription = await this.stripe.subscriptions.update(subscriptionId, {
      cancel_at_period_end: cancel,
    });
    return subscriptionState(subscription);
  }

  /** Stripe's current state of a subscription; undefined when Stripe has no such subscription. */
  async retrieveSubscription(id: string): Promise<StripeSubscriptionState | undefined> {
    try {
      return subscriptionState(await this.stripe.subscriptions.retrieve(id));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async movePlan(userId: string, itemId: string): Promise<void> {
    const row = await this.billing.liveForUser(userId);
    if (!row) return;
    // Recorded first: reconciliation finishes the move if Stripe cannot be reached now.
    await this.billing.setItem(row.id, itemId);
    await this.moveSubscriptionTo(row.id, itemId);
  }

  /**
   * Bills the subscription at another catalogue item from now on (an upgrade we charged
   * ourselves, prorated: Stripe prorates nothing). Nothing changes when it already bills it.
   */
  async moveSubscriptionTo(subscriptionId: string, itemId: string): Promise<void> {
    const item = findSubscriptionItem(itemId);
    if (!item) throw new Error(`unknown subscription item ${itemId}`);
    const price = await this.priceFor(item.plan, item.cycle);
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    const current = subscription.items.data[0];
    if (!current || current.price.id === price) return;
    await this.stripe.subscriptions.update(subscriptionId, {
      items: [{ id: current.id, price }],
      proration_behavior: 'none',
    });
  }

  /** The subscription's latest paid invoices, newest first (what reconciliation replays). */
  async recentPaidInvoices(subscriptionId: string): Promise<Stripe.Invoice[]> {
    const invoices = await this.stripe.invoices.list({
      subscription: subscriptionId,
      status: 'paid',
      limit: 3,
    });
    return invoices.data;
  }

  async retrieveIntent(id: string): Promise<ProviderIntent | undefined> {
    let intent: ProviderIntent;
    try {
      intent = toIntent(await this.stripe.paymentIntents.retrieve(id));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    // A subscription's first invoice pays the period Stripe started it with.
    const subscription = await this.billing.findByFirstIntent(id);
    return subscription?.first_period_start && subscription.first_period_end
      ? {
          ...intent,
          period: { start: subscription.first_period_start, end: subscription.first_period_end },
        }
      : intent;
  }

  async refundIntent(input: RefundInput): Promise<void> {
    let refund: Stripe.Refund;
    try {
      refund = await this.stripe.refunds.create(
        { payment_intent: input.intentId, amount: input.amount },
        { idempotencyKey: input.idempotencyKey },
      );
    } catch (error) {
      // Stripe answered, and said no (already refunded, disputed, too old for the card network):
      // its message is the reason. Anything else (unreachable, a 5xx) is ours to retry.
      if (
        error instanceof Stripe.errors.StripeCardError ||
        error instanceof Stripe.errors.StripeInvalidRequestError
      )
        throw new RefundRefused(error.message);
      throw error;
    }
    if (refund.status === 'failed' || refund.status === 'canceled')
      throw new RefundRefused(
        `The refund ${refund.status === 'failed' ? 'failed' : 'was cancelled'}.`,
      );
  }

  /** Cancels the user's live Stripe subscription at once: Stripe charges it no more. */
  async endSubscriptionNow(userId: string): Promise<void> {
    const row = await this.billing.liveForUser(userId);
    if (!row) return;
    let state: StripeSubscriptionState | undefined;
    try {
      state = subscriptionState(await this.stripe.subscriptions.cancel(row.id));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    // Cancelled now, whatever else the answer holds: its later events change nothing here.
    await this.billing.applyState(
      row.id,
      {
        status: 'canceled',
        cancelAtPeriodEnd: false,
        currentPeriodStart: state?.currentPeriodStart ?? row.current_period_start,
        currentPeriodEnd: state?.currentPeriodEnd ?? row.current_period_end,
      },
      new Date(),
    );
  }

  /** Deletes the user's Stripe Customer: Stripe cancels its subscriptions with it, at once. */
  async forgetCustomer(userId: string): Promise<void> {
    const customer = await this.billing.customerOf(userId);
    if (!customer) return;
    try {
      await this.stripe.customers.del(customer);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404;
}

function toIntent(intent: Stripe.PaymentIntent): ProviderIntent {
  return {
    id: intent.id,
    client_secret: intent.client_secret ?? '',
    amount: intent.amount,
    currency: intent.currency,
    status: intent.status,
    metadata: intent.metadata,
  };
}
