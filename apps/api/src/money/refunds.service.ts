import { MESSAGES, type RefundReasonId, type RefundResponse } from '@studioshot/contracts';
import { trainingPackById } from '@studioshot/pricing';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { CreditLedgerRepository } from '../repositories/credit-ledger.repository.js';
import { REFUND_LEDGER_REASON, type BillingRepository } from './billing.repository.js';
import { entryOf, refundableUntil } from './billing.service.js';
import { RefundRefused, type PaymentProvider } from './payment-providers/provider.js';
import type { Payment, PaymentsRepository } from './payments.repository.js';
import type { RenewalsService } from './renewals.service.js';

/** Payments that bought or kept a plan: refunding one ends the plan. */
const PLAN_KINDS = new Set<Payment['kind']>(['subscription', 'upgrade', 'renewal']);

/**
 * The 30-day money-back guarantee: the owner of a payment paid less than 30 days ago asks for
 * their money back, with a reason. The money goes back at the provider first (its idempotency
 * key names the payment, so asking again, or a retry after a crash, refunds nothing more); then,
 * in one transaction, the payment is marked refunded with the reason, the unspent credits it
 * granted are taken back in the ledger, training slots it bought and not used go, and a plan it
 * paid for ends.
 */
export class RefundsService {
  constructor(
    private readonly deps: {
      payments: PaymentsRepository;
      billing: BillingRepository;
      ledger: CreditLedgerRepository;
      renewals: Pick<RenewalsService, 'endForRefund'>;
      provider: PaymentProvider;
      logger: Logger;
      now?: () => Date;
    },
  ) {}

  async request(
    userId: string,
    paymentId: string,
    reason: RefundReasonId,
  ): Promise<RefundResponse> {
    const { payments, provider, logger } = this.deps;
    const payment = await payments.findById(paymentId);
    // Another user's payment is answered exactly like a missing one.
    if (!payment || payment.user_id !== userId)
      throw new AppError('payment_not_found', MESSAGES.paymentNotFound);
    // Asked again once refunded: the same answer, and nothing more happens.
    if (payment.status === 'refunded') return this.answer(userId, paymentId);
    if (payment.status !== 'succeeded' || !payment.fulfilled_at)
      throw new AppError('conflict', MESSAGES.refundNotPaid);
    if (!refundableUntil(payment, this.now()))
      throw new AppError('conflict', MESSAGES.refundWindowClosed);

    try {
      await provider.refundIntent({
        intentId: payment.provider_intent_id,
        amount: payment.amount_cents,
        // The key every refund of this payment uses, whoever asks (a failed generation's too).
        idempotencyKey: `refund:${payment.id}`,
      });
      // Stripe Billing would charge the plan again: its subscription ends before ours does.
      if (PLAN_KINDS.has(payment.kind)) await provider.endSubscriptionNow?.(userId);
    } catch (error) {
      if (error instanceof RefundRefused)
        throw new AppError('conflict', `${MESSAGES.refundRefused} ${error.message}`);
      logger.error({ err: error, paymentId }, 'could not refund a payment at the provider');
      throw new AppError('service_unavailable', MESSAGES.refundFailed);
    }

    await payments.transaction(async (trx) => {
      const claimed = await payments.claimRequestedRefund(trx, payment.id, reason);
      // A request racing this one recorded it first.
      if (!claimed) return;
      const granted = await payments.creditsGranted(trx, payment.id);
      const balance = await payments.lockBalance(trx, userId);
      // Credits already spent stay spent: only what is left of the grant goes back.
      const takeBack = Math.min(granted, balance);
      if (takeBack > 0) {
        const result = await this.deps.ledger.apply(
          {
            userId,
            delta: -takeBack,
            reason: REFUND_LEDGER_REASON,
            idempotencyKey: `refund:${payment.id}`,
            paymentId: payment.id,
          },
          trx,
        );
        if (result.outcome === 'insufficient') throw new Error('the balance was locked');
      }
      if (payment.kind === 'training_slots') {
        const slots = trainingPackById(payment.item_id)?.quantity ?? 0;
        await payments.removeTrainingSlots(trx, userId, slots);
      }
      if (PLAN_KINDS.has(payment.kind)) await this.deps.renewals.endForRefund(trx, userId);
      logger.info(
        { paymentId, kind: payment.kind, reason, takeBack },
        'payment refunded on request',
      );
    });
    return this.answer(userId, paymentId);
  }

  private async answer(userId: string, paymentId: string): Promise<RefundResponse> {
    const row = await this.deps.billing.payment(userId, paymentId);
    if (!row) throw new AppError('payment_not_found', MESSAGES.paymentNotFound);
    return { message: MESSAGES.refundDone, payment: entryOf(row, this.now()) };
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
