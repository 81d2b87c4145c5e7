import type {
  Database,
  Db,
  PaymentProration,
  RefundReason,
  SubscriptionTier,
} from '@studioshot/db';
import { sql, type Kysely } from 'kysely';
import { lockedSubscription, type SubscriptionRow } from './subscription-periods.repository.js';

type Executor = Kysely<Database>;

/** The ledger's reason for the unspent credits a refunded payment takes back. */
export const REFUND_LEDGER_REASON = 'payment_refund';
export type { SubscriptionRow };

/** A payment as the billing history shows it, with the credits its grants added up. */
export interface BillingRow {
  id: string;
  kind: string;
  item_id: string;
  from_plan: string | null;
  amount_cents: number;
  currency: string;
  status: 'succeeded' | 'refunded' | 'failed';
  provider_intent_id: string;
  proration: PaymentProration | null;
  created_at: Date;
  fulfilled_at: Date | null;
  refunded_at: Date | null;
  /** Credits the ledger granted with this payment. */
  credits_granted: number;
  refund_reason: RefundReason | null;
  refund_requested_at: Date | null;
  /** Unspent credits of this payment its refund took back. */
  credits_taken_back: number;
}

/** The user's payments and renewals, and the subscription rows upgrades read and lock. */
export class BillingRepository {
  constructor(private readonly db: Db) {}

  private rows(executor: Executor = this.db) {
    return (
      executor
        .selectFrom('payments as p')
        .select([
          'p.id',
          'p.kind',
          'p.item_id',
          'p.from_plan',
          'p.amount_cents',
          'p.currency',
          'p.status',
          'p.provider_intent_id',
          'p.proration',
          'p.created_at',
          'p.fulfilled_at',
          'p.refunded_at',
          'p.refund_reason',
          'p.refund_requested_at',
          sql<number>`(
            SELECT coalesce(-sum(l.delta), 0)::int FROM credit_ledger l
             WHERE l.payment_id = p.id AND l.reason = ${REFUND_LEDGER_REASON}
          )`.as('credits_taken_back'),
          // A renewal's credits are its period's credit months (an annual one grants monthly);
          // any other payment's are the ledger grants it made.
          (eb) =>
            eb
              .case()
              .when('p.kind', '=', 'renewal')
              .then(
                eb
                  .selectFrom('subscription_allowances as a')
                  .innerJoin('subscription_periods as sp', 'sp.id', 'a.period_id')
                  .select(sql<number>`coalesce(sum(a.credits), 0)::int`.as('credits'))
                  .whereRef('sp.payment_id', '=', 'p.id'),
              )
              .else(
                eb
                  .selectFrom('credit_ledger as l')
                  .select(sql<number>`coalesce(sum(l.delta), 0)::int`.as('credits'))
                  .whereRef('l.payment_id', '=', 'p.id')
                  .where('l.delta', '>', 0),
              )
              .end()
              .$castTo<number>()
              .as('credits_granted'),
        ])
        // A payment never paid nor declined (an intent still waiting for its card) is not history.
        .where('p.status', '!=', 'pending')
    );
  }

  /** Newest first. */
  async history(userId: string, limit: number): Promise<BillingRow[]> {
    const rows = await this.rows()
      .where('p.user_id', '=', userId)
      // When the money moved: paid, else refunded (a stale payment is never applied), else tried.
      .orderBy(sql`coalesce(p.fulfilled_at, p.refunded_at, p.created_at)`, 'desc')
      .orderBy('p.id', 'desc')
      .limit(limit)
      .execute();
    return rows as BillingRow[];
  }

  /** One of the user's payments; another user's is answered like a missing one. */
  async payment(
    userId: string,
    paymentId: string,
    executor: Executor = this.db,
  ): Promise<BillingRow | undefined> {
    const row = await this.rows(executor)
      .where('p.user_id', '=', userId)
      .where('p.id', '=', paymentId)
      .executeTakeFirst();
    return row as BillingRow | undefined;
  }

  findSubscription(userId: string): Promise<SubscriptionRow | undefined> {
    return this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The subscription, locked until the transaction ends (after the user's row). */
  lockSubscription(trx: Executor, userId: string): Promise<SubscriptionRow | undefined> {
    return lockedSubscription(trx, userId);
  }

  /** A prorated upgrade: the tier moves up, the period and its dates stay. */
  async setSubscriptionTier(
    trx: Executor,
    userId: string,
    tier: SubscriptionTier,
    paymentId: string,
  ): Promise<void> {
    await trx
      .updateTable('subscriptions')
      .set({ tier, last_payment_id: paymentId, updated_at: sql`now()` })
      .where('user_id', '=', userId)
      .execute();
  }
}
