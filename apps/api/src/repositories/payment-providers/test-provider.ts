import type { Db } from '@studioshot/db';
import { MESSAGES } from '@studioshot/contracts';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors.js';
import type {
  CreateIntentInput,
  PaymentProvider,
  ProviderIntent,
  RefundInput,
  TestCard,
} from './provider.js';

/** Stripe's test cards we honour, with the outcome Stripe gives them. */
const TEST_CARDS: Record<string, { ok: true } | { ok: false; message: string }> = {
  '4242424242424242': { ok: true },
  '4000056655665556': { ok: true },
  '5555555555554444': { ok: true },
  '4000000000000002': { ok: false, message: 'Your card was declined.' },
  '4000000000009995': { ok: false, message: 'Your card has insufficient funds.' },
  '4000000000000069': { ok: false, message: 'Your card has expired.' },
  '4000000000000127': { ok: false, message: "Your card's security code is incorrect." },
};

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

  /** Records the refund on the intent; never more than was paid, as Stripe refuses that. */
  async refundIntent(input: RefundInput): Promise<void> {
    const refunded = await this.db
      .updateTable('test_payment_intents')
      .set((eb) => ({ amount_refunded: eb('amount_refunded', '+', input.amount) }))
      .where('id', '=', input.intentId)
      .where('status', '=', 'succeeded')
      .where((eb) => eb(eb('amount_refunded', '+', input.amount), '<=', eb.ref('amount')))
      .executeTakeFirst();
    if (refunded.numUpdatedRows === 0n)
      throw new AppError('bad_request', 'This payment cannot be refunded.');
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
    const outcome = TEST_CARDS[number] ?? {
      ok: false,
      message: 'Your card number is incorrect. Test mode accepts Stripe test cards only.',
    };
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
      .set({ status: 'succeeded', last_payment_error: null })
      .where('id', '=', intentId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toIntent(updated);
  }
}

function toIntent(row: {
  id: string;
  client_secret: string;
  amount: number;
  currency: string;
  status: string;
  metadata: Record<string, string>;
}): ProviderIntent {
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

/** The card form's completeness rules (spec 5), checked again on the server. */
export function cardProblem(card: TestCard, now = new Date()): string | undefined {
  const number = card.number.replace(/\s/g, '');
  if (!/^\d{16,19}$/.test(number) || !card.name.trim() || !/^\d{3,4}$/.test(card.cvc)) {
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
