import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * The one way credits move: an append-only `credit_ledger` entry and the balance's conditional
 * update, written by one statement, so both commit or neither does. Used by the API (payments'
 * grants, a generation's reservation) and by the task store (a generation's refund), inside the
 * caller's transaction when given one. The database's CHECK constraints (balance >= 0) and the
 * unique idempotency key are the last line if code above ever gets it wrong.
 */

export interface LedgerEntry {
  userId: string;
  /** Positive grants, negative spends. */
  delta: number;
  reason: string;
  /** One effect per key, ever: a replay changes nothing. */
  idempotencyKey: string;
  paymentId?: string;
}

export type LedgerResult =
  { outcome: 'applied'; balance: number } | { outcome: 'duplicate' } | { outcome: 'insufficient' };

/** The ledger key of the credits a generation reserves when it is accepted. */
export const generationReservationKey = (generationId: string) =>
  `generation:${generationId}:reserve`;
/** The ledger key of the credits a generation gets back (failed, cancelled or delivered short). */
export const generationRefundKey = (generationId: string) => `generation:${generationId}:refund`;

/**
 * Applies an entry once. The balance moves only by a conditional update (never read-then-write):
 * a spend larger than the balance is `insufficient` and writes nothing; a key already used is
 * `duplicate` and writes nothing.
 */
export async function applyLedgerEntry(
  executor: Kysely<Database>,
  entry: LedgerEntry,
): Promise<LedgerResult> {
  // Two concurrent uses of one key can both pass NOT EXISTS; the unique index stops the second,
  // whose statement (update included) then rolls back. Inside a caller's transaction a savepoint
  // keeps that failure from aborting the rest of it.
  const inTransaction = executor.isTransaction;
  if (inTransaction) await sql`SAVEPOINT credit_ledger_apply`.execute(executor);
  try {
    const result = await applyOnce(executor, entry);
    if (inTransaction) await sql`RELEASE SAVEPOINT credit_ledger_apply`.execute(executor);
    return result;
  } catch (error) {
    if (!isUniqueViolation(error, 'credit_ledger_idempotency_key_key')) throw error;
    if (inTransaction) await sql`ROLLBACK TO SAVEPOINT credit_ledger_apply`.execute(executor);
    return { outcome: 'duplicate' };
  }
}

async function applyOnce(executor: Kysely<Database>, entry: LedgerEntry): Promise<LedgerResult> {
  const applied = await sql<{ balance_after: number }>`
    WITH moved AS (
      UPDATE users
         SET credits_balance = credits_balance + ${entry.delta}, updated_at = now()
       WHERE id = ${entry.userId}
         AND credits_balance + ${entry.delta} >= 0
         AND NOT EXISTS (SELECT 1 FROM credit_ledger WHERE idempotency_key = ${entry.idempotencyKey})
      RETURNING credits_balance
    )
    INSERT INTO credit_ledger (user_id, delta, balance_after, reason, idempotency_key, payment_id)
    SELECT ${entry.userId}, ${entry.delta}, credits_balance, ${entry.reason}, ${entry.idempotencyKey},
           ${entry.paymentId ?? null}
      FROM moved
    RETURNING balance_after`.execute(executor);
  const row = applied.rows[0];
  if (row) return { outcome: 'applied', balance: row.balance_after };
  const seen = await executor
    .selectFrom('credit_ledger')
    .select('id')
    .where('idempotency_key', '=', entry.idempotencyKey)
    .executeTakeFirst();
  return seen ? { outcome: 'duplicate' } : { outcome: 'insufficient' };
}

/** The credits a generation reserved (a negative delta) and whose they were; none if nothing was. */
async function generationReservation(executor: Kysely<Database>, generationId: string) {
  const reservation = await executor
    .selectFrom('credit_ledger')
    .select(['user_id', 'delta'])
    .where('idempotency_key', '=', generationReservationKey(generationId))
    .executeTakeFirst();
  return reservation && reservation.delta < 0 ? reservation : undefined;
}

/**
 * Gives a generation's reserved credits back, once: the refund carries its own key, so a second
 * ending (or a replayed effect) changes nothing. A generation that reserved nothing (seeded by a
 * test, or from before credits were reserved) gets nothing back.
 */
export async function refundGenerationCredits(
  executor: Kysely<Database>,
  generationId: string,
): Promise<LedgerResult | undefined> {
  const reservation = await generationReservation(executor, generationId);
  if (!reservation) return undefined;
  return applyLedgerEntry(executor, {
    userId: reservation.user_id,
    delta: -reservation.delta,
    reason: 'generation_refund',
    idempotencyKey: generationRefundKey(generationId),
  });
}

/** The ledger's reason for credits given back because a generation delivered fewer images. */
export const INCOMPLETE_GENERATION_REASON = 'generation_incomplete';

/**
 * Gives back the credits of a generation's items that came back short (images the engine dropped
 * because none of its renders was clean): each item (a template) reserved an equal share, and a
 * short item's share comes back whole, since a credit buys a complete set. Once per generation: it
 * carries the generation's refund key, so it never adds to a failure's refund.
 */
export async function refundIncompleteGeneration(
  executor: Kysely<Database>,
  generationId: string,
  shortItems: number,
  itemCount: number,
): Promise<LedgerResult | undefined> {
  if (shortItems <= 0 || itemCount <= 0) return undefined;
  const reservation = await generationReservation(executor, generationId);
  if (!reservation) return undefined;
  const perItem = Math.floor(-reservation.delta / itemCount);
  const delta = Math.min(-reservation.delta, perItem * Math.min(shortItems, itemCount));
  if (delta <= 0) return undefined;
  return applyLedgerEntry(executor, {
    userId: reservation.user_id,
    delta,
    reason: INCOMPLETE_GENERATION_REASON,
    idempotencyKey: generationRefundKey(generationId),
  });
}

/** Whether `error` is Postgres refusing a row that breaks the unique constraint `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === '23505' &&
    'constraint' in error &&
    error.constraint === constraint
  );
}
