import type { Database, Db } from '@studioshot/db';
import { sql, type Selectable } from 'kysely';

export type StripeSubscriptionRow = Selectable<Database['stripe_subscriptions']>;

/** What Stripe says of a subscription at one moment. */
export interface StripeSubscriptionState {
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
}

/** An event claimed and not processed after this long is taken to have died with its process. */
const ABANDONED_CLAIM_SECONDS = 300;

/** Stripe Billing's records: customers, subscriptions, and the webhook events handled. */
export class StripeBillingRepository {
  constructor(private readonly db: Db) {}

  async customerOf(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('stripe_customers')
      .select('customer_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.customer_id;
  }

  /** Keeps the first customer recorded for the user, and answers it. */
  async saveCustomer(userId: string, customerId: string): Promise<string> {
    await this.db
      .insertInto('stripe_customers')
      .values({ user_id: userId, customer_id: customerId })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return (await this.customerOf(userId)) ?? customerId;
  }

  async userEmail(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.email;
  }

  async saveSubscription(input: {
    id: string;
    userId: string;
    customerId: string;
    itemId: string;
    firstIntentId: string;
    state: StripeSubscriptionState;
  }): Promise<void> {
    await this.db
      .insertInto('stripe_subscriptions')
      .values({
        id: input.id,
        user_id: input.userId,
        customer_id: input.customerId,
        item_id: input.itemId,
        first_intent_id: input.firstIntentId,
        first_period_start: input.state.currentPeriodStart,
        first_period_end: input.state.currentPeriodEnd,
        status: input.state.status,
        cancel_at_period_end: input.state.cancelAtPeriodEnd,
        current_period_start: input.state.currentPeriodStart,
        current_period_end: input.state.currentPeriodEnd,
      })
      // The same subscription again (an idempotent create replayed): the first record stands.
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  find(id: string): Promise<StripeSubscriptionRow | undefined> {
    return this.db
      .selectFrom('stripe_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findByFirstIntent(intentId: string): Promise<StripeSubscriptionRow | undefined> {
    return this.db
      .selectFrom('stripe_subscriptions')
      .selectAll()
      .where('first_intent_id', '=', intentId)
      .executeTakeFirst();
  }

  /** The catalogue item the subscription is to bill (an upgrade moved it). */
  async setItem(id: string, itemId: string): Promise<void> {
    await this.db
      .updateTable('stripe_subscriptions')
      .set({ item_id: itemId, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** The user's newest subscription that Stripe has not ended. */
  liveForUser(userId: string): Promise<StripeSubscriptionRow | undefined> {
    return this.db
      .selectFrom('stripe_subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', 'not in', ['canceled', 'incomplete_expired'])
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Every subscription Stripe has not ended: what the reconciliation reads back from Stripe. */
  live(): Promise<StripeSubscriptionRow[]> {
    return this.db
      .selectFrom('stripe_subscriptions')
      .selectAll()
      .where('status', 'not in', ['canceled', 'incomplete_expired'])
      .execute();
  }

  /**
   * Records Stripe's state as of `stateAt`, unless a newer snapshot is already held: events come
   * in any order, the newest state wins. A subscription Stripe ended stays ended. Answers the row
   * when this state was applied.
   */
  applyState(
    id: string,
    state: StripeSubscriptionState,
    stateAt: Date,
  ): Promise<StripeSubscriptionRow | undefined> {
    let update = this.db
      .updateTable('stripe_subscriptions')
      .set({
        status: state.status,
        cancel_at_period_end: state.cancelAtPeriodEnd,
        current_period_start: state.currentPeriodStart,
        current_period_end: state.currentPeriodEnd,
        state_at: stateAt,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('state_at', 'is', null), eb('state_at', '<=', stateAt)]));
    if (state.status !== 'canceled') update = update.where('status', '!=', 'canceled');
    return update.returningAll().executeTakeFirst();
  }

  /**
   * Claims an event for handling: true for the first delivery, and for a redelivery of one whose
   * handler died before finishing; false while another delivery handles it or once it is done.
   */
  async claimEvent(id: string, type: string): Promise<boolean> {
    const claimed = await this.db
      .insertInto('stripe_events')
      .values({ id, type })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ claimed_at: sql`now()` })
          .where('stripe_events.processed_at', 'is', null)
          .where(
            'stripe_events.claimed_at',
            '<',
            sql<Date>`now() - make_interval(secs => ${ABANDONED_CLAIM_SECONDS})`,
          ),
      )
      .returning('id')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  async markProcessed(id: string): Promise<void> {
    await this.db
      .updateTable('stripe_events')
      .set({ processed_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** A handler that failed gives its claim back, so Stripe's next delivery handles the event. */
  async releaseEvent(id: string): Promise<void> {
    await this.db
      .deleteFrom('stripe_events')
      .where('id', '=', id)
      .where('processed_at', 'is', null)
      .execute();
  }
}
