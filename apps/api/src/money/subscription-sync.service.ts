import { MESSAGES } from '@studioshot/contracts';
import type Stripe from 'stripe';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { FulfilmentService } from './fulfilment.service.js';
import type { StripePaymentProvider } from './payment-providers/stripe-provider.js';
import { subscriptionState } from './payment-providers/stripe-provider.js';
import type { Payment, PaymentsRepository } from './payments.repository.js';
import type { RenewalsService } from './renewals.service.js';
import type {
  StripeBillingRepository,
  StripeSubscriptionRow,
  StripeSubscriptionState,
} from './stripe-billing.repository.js';

/** Answered for an event that cannot be applied yet: Stripe delivers it again later. */
export const EVENT_NOT_READY = 'This event cannot be applied yet; it will be delivered again.';

/**
 * An event that cannot be applied yet (a renewal reported before the subscription's first payment
 * took effect): a 503, so Stripe delivers it again later, by when its predecessor has come.
 */
export class EventNotReady extends AppError {
  constructor(readonly reason: string) {
    super('service_unavailable', EVENT_NOT_READY);
  }
}

/** The subscription an invoice bills (its parent since 2025, a field of its own before). */
function invoiceSubscriptionId(invoice: Stripe.Invoice): string | undefined {
  const parent = invoice.parent?.subscription_details?.subscription;
  const legacy = (invoice as { subscription?: string | { id: string } | null }).subscription;
  const subscription = parent ?? legacy;
  return typeof subscription === 'string' ? subscription : subscription?.id;
}

/** The service period an invoice pays: its subscription line's period. */
function invoicePeriod(invoice: Stripe.Invoice): { start: Date; end: Date } | undefined {
  const line = invoice.lines?.data.find((l) => l.period && l.period.end > l.period.start);
  return line
    ? { start: new Date(line.period.start * 1000), end: new Date(line.period.end * 1000) }
    : undefined;
}

/** The invoice's hosted page, where its customer pays it; only an https address is linked to. */
function hostedPage(invoice: Stripe.Invoice): string | null {
  const url = invoice.hosted_invoice_url;
  return url && URL.canParse(url) && new URL(url).protocol === 'https:' ? url : null;
}

/**
 * Stripe Billing's side of our subscriptions, kept in step with ours: what an invoice or a
 * subscription event says (handed over by the intake, in any order: a renewal is recorded per
 * billing period, RenewalsService granting a period once however often it is told, and a
 * subscription's state is taken from the newest snapshot Stripe sent, by its time, never by when
 * it arrived), reconciliation reading it all back, and cancelling or keeping at Stripe first.
 */
export class SubscriptionSyncService {
  constructor(
    private readonly deps: {
      billing: StripeBillingRepository;
      payments: PaymentsRepository;
      fulfilment: Pick<FulfilmentService, 'fulfil'>;
      renewals: RenewalsService;
      /** Stripe mode only: test mode takes Stripe-signed events but has no Stripe Billing. */
      provider?: StripePaymentProvider;
      logger: Logger;
    },
  ) {}

  private async subscriptionOf(
    invoice: Stripe.Invoice,
  ): Promise<StripeSubscriptionRow | undefined> {
    const id = invoiceSubscriptionId(invoice);
    const row = id ? await this.deps.billing.find(id) : undefined;
    if (!row)
      this.deps.logger.warn(
        { invoiceId: invoice.id, subscriptionId: id },
        'invoice event for a subscription we did not make',
      );
    return row;
  }

  /** The payment the subscription's first invoice settles: what the checkout page confirms. */
  private async firstPayment(row: StripeSubscriptionRow): Promise<Payment | undefined> {
    return this.deps.payments.findByIntent(row.first_intent_id);
  }

  /**
   * An invoice paid: the first one activates the plan (the same fulfilment as the page's confirm
   * call, so whichever comes first grants it), each later one pays its billing period.
   */
  async invoicePaid(invoice: Stripe.Invoice): Promise<void> {
    const row = await this.subscriptionOf(invoice);
    const period = invoicePeriod(invoice);
    if (!row || !period) return;
    const first = await this.firstPayment(row);
    if (!first) return;
    if (invoice.billing_reason === 'subscription_create') {
      await this.deps.fulfilment.fulfil(first, {
        id: first.provider_intent_id,
        client_secret: '',
        amount: invoice.amount_paid,
        currency: invoice.currency,
        status: 'succeeded',
        metadata: {},
        period,
      });
      // A cancellation Stripe reported (an event) before the plan took effect applies to it now.
      const held = await this.deps.billing.find(row.id);
      if (held?.state_at) await this.mirror(held);
      return;
    }
    if (!first.fulfilled_at)
      throw new EventNotReady(`renewal of ${row.id} before its first payment took effect`);
    await this.deps.renewals.recordRenewalPaid(row.user_id, period.start, {
      provider: 'stripe',
      reference: invoice.id!,
      amountCents: invoice.amount_paid,
      currency: invoice.currency,
      periodEnd: period.end,
    });
  }

  /** A renewal charge failed: Stripe retries it (next_payment_attempt), or gives up (null). */
  async invoiceFailed(invoice: Stripe.Invoice): Promise<void> {
    // The first invoice is paid on the checkout page, which shows its decline there.
    if (invoice.billing_reason === 'subscription_create') return;
    const row = await this.subscriptionOf(invoice);
    const period = invoicePeriod(invoice);
    if (!row || !period) return;
    const first = await this.firstPayment(row);
    if (!first?.fulfilled_at)
      throw new EventNotReady(`failed renewal of ${row.id} before its first payment took effect`);
    await this.deps.renewals.recordRenewalFailed(row.user_id, period.start, {
      provider: 'stripe',
      // Each attempt fails once: Stripe counts them on the invoice.
      reference: `${invoice.id}:${invoice.attempt_count}`,
      amountCents: invoice.amount_due,
      currency: invoice.currency,
      message: MESSAGES.renewalNotReceived,
      nextAttemptAt: invoice.next_payment_attempt
        ? new Date(invoice.next_payment_attempt * 1000)
        : null,
      // Stripe's page for this invoice: a new card pays it there, whatever the bank asks.
      payUrl: hostedPage(invoice),
    });
  }

  /** Stripe's snapshot of a subscription as of `at`: kept only when newer than the one held. */
  async subscriptionChanged(subscription: Stripe.Subscription, at: Date): Promise<void> {
    await this.applyState(subscription.id, subscriptionState(subscription), at, subscription);
  }

  private async applyState(
    id: string,
    state: StripeSubscriptionState,
    at: Date,
    subscription?: Pick<Stripe.Subscription, 'cancellation_details'>,
  ): Promise<void> {
    const applied = await this.deps.billing.applyState(id, state, at);
    if (!applied) return;
    await this.mirror(applied, subscription?.cancellation_details?.reason === 'payment_failed');
  }

  /**
   * Our subscription follows the Stripe subscription that paid for it: cancelling at period end
   * or not, or ended. A subscription that never took effect (abandoned at checkout) or that
   * another one replaced changes nothing.
   */
  private async mirror(row: StripeSubscriptionRow, endedByFailedPayment = false): Promise<void> {
    const first = await this.firstPayment(row);
    if (!first?.fulfilled_at) return;
    const live = await this.deps.billing.liveForUser(row.user_id);
    if (row.status === 'canceled') {
      if (live && live.id !== row.id) return;
      const ended = await this.deps.renewals.endSubscription(
        row.user_id,
        endedByFailedPayment ? 'renewal_failed' : 'cancelled',
      );
      if (ended) this.deps.logger.info({ subscriptionId: row.id }, 'Stripe ended a subscription');
      return;
    }
    if (live?.id !== row.id) return;
    // Conditional on our state: setting what already holds changes nothing.
    await this.deps.payments.setCancelling(row.user_id, row.cancel_at_period_end);
  }

  /**
   * Cancel at period end (or keep) the user's Stripe subscription, before our own record changes.
   * Answers false when the user has no live Stripe subscription (nothing to tell Stripe).
   */
  async setCancelAtPeriodEnd(userId: string, cancel: boolean): Promise<boolean> {
    const provider = this.deps.provider;
    const row = provider ? await this.deps.billing.liveForUser(userId) : undefined;
    if (!provider || !row) return false;
    const state = await provider.setCancelAtPeriodEnd(row.id, cancel);
    // Stripe's answer is its newest state; the event it also sends will be older or the same.
    await this.deps.billing.applyState(row.id, state, new Date());
    return true;
  }

  /**
   * Reconciliation, run by the renewal job before it decides anything for a Stripe subscriber:
   * reads the subscription back from Stripe, with its recent paid invoices, and applies what a
   * lost or late webhook would have (a paid period, a cancellation, the end). Everything applied
   * is as idempotent as the events themselves.
   */
  async reconcile(userId: string): Promise<void> {
    const provider = this.deps.provider;
    const row = provider ? await this.deps.billing.liveForUser(userId) : undefined;
    if (!provider || !row) return;
    // Oldest first: a renewal is recorded after the payment that started the plan.
    for (const paidInvoice of (await provider.recentPaidInvoices(row.id)).reverse()) {
      if (invoiceSubscriptionId(paidInvoice) !== row.id) continue;
      try {
        await this.invoicePaid(paidInvoice);
      } catch (error) {
        if (!(error instanceof EventNotReady)) throw error;
      }
    }
    const state = await provider.retrieveSubscription(row.id);
    // An upgrade whose move at Stripe failed when it was paid.
    if (state && state.status !== 'canceled')
      await provider.moveSubscriptionTo(row.id, row.item_id);
    // Stripe no longer knows it (the customer was deleted): it has ended.
    await this.applyState(row.id, state ?? { ...stateOf(row), status: 'canceled' }, new Date());
  }
}

function stateOf(row: StripeSubscriptionRow): StripeSubscriptionState {
  return {
    status: row.status,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    currentPeriodStart: row.current_period_start,
    currentPeriodEnd: row.current_period_end,
  };
}
