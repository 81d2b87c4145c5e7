import type { Db } from '@studioshot/db';
import { MESSAGES } from '@studioshot/contracts';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors.js';
import type {
  CreateIntentInput,
  OffSessionCharge,
  OffSessionChargeInput,
  PaymentProvider,
  ProviderIntent,
  RefundInput,
  TestCard,
} from './provider.js';
import { RefundRefused } from './provider.js';

/** Stripe's test card that always succeeds. */
const SUCCESS_TEST_CARD = '4242424242424242';

/** Stripe's test cards we honour, with the outcome Stripe gives them. */
const TEST_CARDS: Record<string, { ok: true } | { ok: false; message: string }> = {
  [SUCCESS_TEST_CARD]: { ok: true },
  '4000056655665556': { ok: true },
  '5555555555554444': { ok: true },
  // American Express: 15 digits and a 4-digit CID.
  '378282246310005': { ok: true },
  '4000000000000002': { ok: false, message: 'Your card was declined.' },
  '4000000000009995': { ok: false, message: 'Your card has insufficient funds.' },
  '4000000000000069': { ok: false, message: 'Your card has expired.' },
  '4000000000000127': { ok: false, message: "Your card's security code is incorrect." },
};

/** Stripe's test card whose payments succeed and whose refunds its issuer declines. */
const REFUND_DECLINED: Record<string, string> = {
  '4000000000005126': 'The card issuer declined the refund.',
};

/**
 * Stripe's test card that attaches to a customer but whose charges are declined: a card on file
 * that makes the next renewal fail. Paying with it directly is declined, as at Stripe.
 */
const ATTACHES_THEN_DECLINES: Record<string, string> = {
  '4000000000000341': 'Your card was declined.',
};

/** What a saved card's charge answers when none is on file. */
export const NO_CARD_ON_FILE = 'There is no card on file to charge.';

/** The card on file, as the web app may show it. */
export interface CardOnFile {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

/**
 * The default provider: PaymentIntents are rows in our own database, and `confirmCard` plays the
 * part Stripe.js plays in a browser (attach a card, succeed or decline). Card details are checked
 * and then dropped: never stored, never logged.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test' as const;

  constructor(private readonly db: Db) {}

  async createIntent(input: CreateIntentInput): Promise<ProviderIntent> {
    const id = `pi_test_${randomBytes(12).toString('hex')}`;
    const clientSecret = `${id}_secret_${randomBytes(16).toString('hex')}`;
    const row = await this.db
      .insertInto('test_payment_intents')
      .values({
        id,
        client_secret: clientSecret,
        amount: input.amount,
        currency: input.currency,
        status: 'requires_payment_method',
        metadata: JSON.stringify(input.metadata),
        idempotency_key: input.idempotencyKey,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    // Same idempotency key again: answer the intent it created, as Stripe does.
    const intent =
      row ??
      (await this.db
        .selectFrom('test_payment_intents')
        .selectAll()
        .where('idempotency_key', '=', input.idempotencyKey)
        .executeTakeFirstOrThrow());
    return toIntent(intent);
  }

  async retrieveIntent(id: string): Promise<ProviderIntent | undefined> {
    const row = await this.db
      .selectFrom('test_payment_intents')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toIntent(row) : undefined;
  }

  /**
   * Records the refund on the intent, once per key; never more than was paid, as Stripe refuses
   * that, and never for a card whose issuer declines refunds.
   */
  async refundIntent(input: RefundInput): Promise<void> {
    const refunded = await this.db
      .updateTable('test_payment_intents')
      .set((eb) => ({
        amount_refunded: eb('amount_refunded', '+', input.amount),
        refund_keys: sql<string[]>`array_append(refund_keys, ${input.idempotencyKey})`,
      }))
      .where('id', '=', input.intentId)
      .where('status', '=', 'succeeded')
      .where('refund_error', 'is', null)
      .where(sql<boolean>`NOT (${input.idempotencyKey} = ANY(refund_keys))`)
      .where((eb) => eb(eb('amount_refunded', '+', input.amount), '<=', eb.ref('amount')))
      .executeTakeFirst();
    if (refunded.numUpdatedRows > 0n) return;
    const intent = await this.db
      .selectFrom('test_payment_intents')
      .select(['refund_keys', 'refund_error'])
      .where('id', '=', input.intentId)
      .executeTakeFirst();
    // The same refund asked again: it was made, and nothing more is given back.
    if (intent?.refund_keys.includes(input.idempotencyKey)) return;
    throw new RefundRefused(intent?.refund_error ?? 'This payment cannot be refunded.');
  }

  /** Attaches a card: succeeds or declines the intent the way Stripe's test cards do. */
  async confirmCard(
    intentId: string,
    clientSecret: string,
    card: TestCard,
  ): Promise<ProviderIntent> {
    const intent = await this.db
      .selectFrom('test_payment_intents')
      .selectAll()
      .where('id', '=', intentId)
      .where('client_secret', '=', clientSecret)
      .executeTakeFirst();
    if (!intent) throw new AppError('payment_not_found', 'Payment not found');
    if (intent.status === 'succeeded') return toIntent(intent);
    const problem = cardProblem(card);
    // An incomplete form is the request's fault (422); an expired card or a wrong check digit is
    // the card's, answered as Stripe answers a card error: 402.
    if (problem)
      throw new AppError(CARD_ERRORS.has(problem) ? 'payment_failed' : 'validation_error', problem);
    const number = card.number.replace(/\D/g, '');
    const attachOnly = ATTACHES_THEN_DECLINES[number];
    const outcome = attachOnly
      ? { ok: false as const, message: attachOnly }
      : (TEST_CARDS[number] ??
        (REFUND_DECLINED[number] ? { ok: true as const } : undefined) ?? {
          ok: false,
          message: 'Your card number is incorrect. Test mode accepts Stripe test cards only.',
        });
    if (!outcome.ok) {
      await this.db
        .updateTable('test_payment_intents')
        .set({ last_payment_error: outcome.message })
        .where('id', '=', intentId)
        .execute();
      throw new AppError('payment_failed', outcome.message);
    }
    const updated = await this.db
      .updateTable('test_payment_intents')
      .set({
        status: 'succeeded',
        last_payment_error: null,
        refund_error: REFUND_DECLINED[number] ?? null,
      })
      .where('id', '=', intentId)
      .returningAll()
      .executeTakeFirstOrThrow();
    // The card that paid becomes the customer's card on file (Stripe's setup_future_usage), what
    // renewals charge.
    const userId = intent.metadata.user_id;
    if (userId) await this.saveCard(userId, number, card.expiry, null);
    return toIntent(updated);
  }

  /**
   * Pays an intent with Stripe's success test card, as the spec's simulated card form does: what
   * the confirm calls do in test mode (CONFIRM_PAYS_WITH_TEST_CARD) when no card step paid yet.
   */
  async payWithSuccessCard(intentId: string, now = new Date()): Promise<ProviderIntent> {
    const intent = await this.db
      .selectFrom('test_payment_intents')
      .select('client_secret')
      .where('id', '=', intentId)
      .executeTakeFirst();
    if (!intent) throw new AppError('payment_not_found', 'Payment not found');
    const nextYear = String((now.getUTCFullYear() + 1) % 100).padStart(2, '0');
    return this.confirmCard(intentId, intent.client_secret, {
      number: SUCCESS_TEST_CARD,
      expiry: `12/${nextYear}`,
      cvc: '123',
      name: 'Test Mode',
    });
  }

  /**
   * Puts a card on file for the user, replacing any, as attaching a payment method to a Stripe
   * customer does: the form's rules and Stripe's attach outcome apply (a declining test card is
   * refused; 4000 0000 0000 0341 attaches, and its charges are declined).
   */
  async attachCard(userId: string, card: TestCard): Promise<CardOnFile> {
    const problem = cardProblem(card);
    if (problem)
      throw new AppError(CARD_ERRORS.has(problem) ? 'payment_failed' : 'validation_error', problem);
    const number = card.number.replace(/\D/g, '');
    const chargeError = ATTACHES_THEN_DECLINES[number];
    const outcome = TEST_CARDS[number];
    if (chargeError === undefined && !outcome?.ok)
      throw new AppError(
        'payment_failed',
        outcome && !outcome.ok
          ? outcome.message
          : 'Your card number is incorrect. Test mode accepts Stripe test cards only.',
      );
    return this.saveCard(userId, number, card.expiry, chargeError ?? null);
  }

  /** Its customer is the card on file (subscriptions are our own rows, which the deletion ends). */
  async forgetCustomer(userId: string): Promise<void> {
    await this.db.deleteFrom('test_payment_methods').where('user_id', '=', userId).execute();
  }

  async cardOnFile(userId: string): Promise<CardOnFile | undefined> {
    return this.db
      .selectFrom('test_payment_methods')
      .select(['id', 'brand', 'last4', 'exp_month', 'exp_year'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  private async saveCard(
    userId: string,
    number: string,
    expiry: string,
    chargeError: string | null,
  ): Promise<CardOnFile> {
    const [month = '0', year = '0'] = expiry.split('/');
    const values = {
      id: `pm_test_${randomBytes(12).toString('hex')}`,
      brand: brandOf(number),
      last4: number.slice(-4),
      exp_month: Number(month),
      exp_year: 2000 + Number(year),
      charge_error: chargeError,
    };
    return this.db
      .insertInto('test_payment_methods')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: new Date() }))
      .returning(['id', 'brand', 'last4', 'exp_month', 'exp_year'])
      .executeTakeFirstOrThrow();
  }

  /**
   * Charges the card on file off-session. The idempotency key names one attempt: the same key
   * again (a racing job, a retry after a crash) answers that attempt's outcome and never charges
   * twice; a later attempt (with a new key) charges the card then on file.
   */
  async chargeCardOnFile(input: OffSessionChargeInput): Promise<OffSessionCharge> {
    const created = await this.createIntent(input);
    const intent = await this.db
      .selectFrom('test_payment_intents')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    if (intent.status === 'succeeded') return { ok: true, intent: toIntent(intent) };
    if (intent.last_payment_error)
      return { ok: false, intent: toIntent(intent), message: intent.last_payment_error };
    const card = await this.db
      .selectFrom('test_payment_methods')
      .selectAll()
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    const now = new Date();
    const expired =
      card !== undefined &&
      (card.exp_year < now.getUTCFullYear() ||
        (card.exp_year === now.getUTCFullYear() && card.exp_month < now.getUTCMonth() + 1));
    const error = !card ? NO_CARD_ON_FILE : expired ? CARD_EXPIRED : card.charge_error;
    // Conditional on no outcome yet: two racing charges of one attempt record one outcome.
    const settled = await this.db
      .updateTable('test_payment_intents')
      .set(error ? { last_payment_error: error } : { status: 'succeeded' })
      .where('id', '=', intent.id)
      .where('status', '!=', 'succeeded')
      .where('last_payment_error', 'is', null)
      .returningAll()
      .executeTakeFirst();
    const final =
      settled ??
      (await this.db
        .selectFrom('test_payment_intents')
        .selectAll()
        .where('id', '=', intent.id)
        .executeTakeFirstOrThrow());
    if (final.status === 'succeeded') return { ok: true, intent: toIntent(final) };
    return {
      ok: false,
      intent: toIntent(final),
      message: final.last_payment_error ?? 'Your card was declined.',
    };
  }
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'card';
}

function toIntent(
  row: Pick<ProviderIntent, 'id' | 'client_secret' | 'amount' | 'currency' | 'status' | 'metadata'>,
): ProviderIntent {
  return {
    id: row.id,
    client_secret: row.client_secret,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    metadata: row.metadata,
  };
}

const CARD_EXPIRED = 'Your card has expired.';
const CARD_NUMBER_INCORRECT = 'Your card number is incorrect.';
/** What the card itself fails on (Stripe's card errors, 402), not the form. */
const CARD_ERRORS = new Set([CARD_EXPIRED, CARD_NUMBER_INCORRECT]);

/**
 * The card form's completeness rules (docs/spec/screens.md#5-validation), checked again on the
 * server.
 */
export function cardProblem(card: TestCard, now = new Date()): string | undefined {
  const number = card.number.replace(/\s/g, '');
  if (!/^\d{15,19}$/.test(number) || !card.name.trim() || !/^\d{3,4}$/.test(card.cvc)) {
    return MESSAGES.cardIncomplete;
  }
  const expiry = /^(\d{2})\/(\d{2})$/.exec(card.expiry);
  if (!expiry) return MESSAGES.cardIncomplete;
  const month = Number(expiry[1]);
  const year = 2000 + Number(expiry[2]);
  if (month < 1 || month > 12) return 'The expiry month is invalid.';
  if (
    year < now.getUTCFullYear() ||
    (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)
  ) {
    return CARD_EXPIRED;
  }
  if (!luhn(number)) return CARD_NUMBER_INCORRECT;
  return undefined;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
