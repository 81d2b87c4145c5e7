import { MESSAGES } from '@studioshot/contracts';
import type Stripe from 'stripe';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { FulfilmentService } from './fulfilment.service.js';
import type { StripeBillingRepository } from './stripe-billing.repository.js';
import { EventNotReady, type SubscriptionSyncService } from './subscription-sync.service.js';

/** The events we act on; every other verified event is acknowledged and ignored. */
export const HANDLED_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const;
type HandledEvent = Extract<Stripe.Event, { type: (typeof HANDLED_EVENTS)[number] }>;

const isHandled = (event: Stripe.Event): event is HandledEvent =>
  (HANDLED_EVENTS as readonly string[]).includes(event.type);

/**
 * Stripe's webhook intake: each delivery is verified on its raw body, then handled exactly once
 * (each event id is claimed in the database): a PaymentIntent's outcome goes to fulfilment, an
 * invoice or a subscription's change to the subscription sync.
 */
export class StripeIntakeService {
  constructor(
    private readonly deps: {
      stripe: Stripe;
      secret: string;
      toleranceSeconds: number;
      billing: StripeBillingRepository;
      fulfilment: Pick<FulfilmentService, 'paymentIntentEvent'>;
      sync: SubscriptionSyncService;
      logger: Logger;
    },
  ) {}

  /** A delivery: the signature is checked on the raw bytes before anything else is read. */
  async receive(rawBody: Buffer, signature: string | undefined): Promise<void> {
    if (!signature) throw new AppError('invalid_signature', MESSAGES.invalidWebhookSignature);
    let event: Stripe.Event;
    try {
      event = this.deps.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.deps.secret,
        this.deps.toleranceSeconds,
      );
    } catch {
      throw new AppError('invalid_signature', MESSAGES.invalidWebhookSignature);
    }
    if (!isHandled(event)) return;
    if (!(await this.deps.billing.claimEvent(event.id, event.type))) return;
    try {
      await this.handle(event);
    } catch (error) {
      // Not handled: the next delivery of this event tries again.
      await this.deps.billing.releaseEvent(event.id);
      if (error instanceof EventNotReady)
        this.deps.logger.info({ eventId: event.id, reason: error.reason }, 'event deferred');
      throw error;
    }
    await this.deps.billing.markProcessed(event.id);
  }

  private async handle(event: HandledEvent): Promise<void> {
    switch (event.type) {
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed':
        // A subscription's first payment takes effect by its invoice, which names the period.
        if (
          event.type === 'payment_intent.succeeded' &&
          (await this.deps.billing.findByFirstIntent(event.data.object.id))
        )
          return;
        return this.deps.fulfilment.paymentIntentEvent(event.type, event.data.object);
      case 'invoice.paid':
        return this.deps.sync.invoicePaid(event.data.object);
      case 'invoice.payment_failed':
        return this.deps.sync.invoiceFailed(event.data.object);
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.deps.sync.subscriptionChanged(
          event.data.object,
          new Date(event.created * 1000),
        );
    }
  }
}
