import { MESSAGES } from '@studioshot/contracts';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import { unpaidIntentRefusal, type FulfilmentService } from './fulfilment.service.js';
import type { PaymentProvider } from './payment-providers/provider.js';
import type { Payment, PaymentsRepository } from './payments.repository.js';

/**
 * The $29 generation order after checkout: the paid order a generation is bound to, and its
 * refund. A generation that ends failed or cancelled records, in the transaction that ends its
 * task, that its order is due back; `refundDue` is the one handler that gives the money back.
 */
export class GenerationOrdersService {
  constructor(
    private readonly deps: {
      payments: PaymentsRepository;
      fulfilment: Pick<FulfilmentService, 'fulfil' | 'refund'>;
      provider: PaymentProvider;
      logger: Logger;
    },
  ) {}

  /**
   * The caller's paid generation order behind `intentId`, fulfilled (confirmed at the provider
   * if no confirm call or webhook has yet): what a paid generation is bound to.
   */
  async generationOrder(userId: string, intentId: string): Promise<Payment> {
    const payment = await this.deps.payments.findByIntent(intentId);
    // Another user's payment is answered exactly like a missing one.
    if (!payment || payment.user_id !== userId)
      throw new AppError('payment_not_found', MESSAGES.paymentNotFound);
    if (payment.kind !== 'generation')
      throw new AppError('conflict', MESSAGES.paymentNotForGeneration);
    if (!payment.fulfilled_at) {
      const intent = await this.deps.provider.retrieveIntent(payment.provider_intent_id);
      if (!intent) throw new AppError('payment_not_found', MESSAGES.paymentNotFound);
      unpaidIntentRefusal(intent.status);
      await this.deps.fulfilment.fulfil(payment, intent);
    }
    return payment;
  }

  /**
   * The caller's paid generation order that no generation uses yet, for a post-payment Generate
   * that names no `payment_intent` (the spec's page sends none); undefined when there is none.
   */
  async unusedGenerationOrder(userId: string): Promise<Payment | undefined> {
    for (const payment of await this.deps.payments.unusedGenerationOrders(userId)) {
      if (payment.status === 'succeeded') return payment;
      try {
        return await this.generationOrder(userId, payment.provider_intent_id);
      } catch (error) {
        // Not paid (yet): not an order to generate with.
        if (!(error instanceof AppError && [402, 409].includes(error.status))) throw error;
      }
    }
    return undefined;
  }

  /** Whether a generation that just ended left its order due back (the refund job then runs). */
  refundDueFor(generationId: string): Promise<boolean> {
    return this.deps.payments.refundDueFor(generationId);
  }

  /**
   * Refunds every order its generation's end recorded as due back: run as a job when a
   * generation ends and on a schedule, so a refund the provider refused or a crash interrupted
   * is tried again. Once per payment (the provider's idempotency key and the conditional status
   * change both guard it). Answers how many were refunded.
   */
  async refundDue(): Promise<number> {
    let refunded = 0;
    for (const payment of await this.deps.payments.refundsDue()) {
      try {
        if (await this.deps.fulfilment.refund(payment)) refunded += 1;
      } catch (error) {
        this.deps.logger.error(
          { err: error, paymentId: payment.id },
          'could not refund a failed paid generation; will retry',
        );
      }
    }
    return refunded;
  }
}
