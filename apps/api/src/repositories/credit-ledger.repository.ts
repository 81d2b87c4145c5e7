import type { Database, Db } from '@studioshot/db';
import { sql, type Kysely } from 'kysely';

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

/**
 * The credits ledger. The balance moves only by a conditional update (never read-then-write),
 * and the ledger row is written by the same statement, so both commit or neither does; the
 * database's CHECK constraints are the last line if code above ever gets it wrong.
 */
export class CreditLedgerRepository {
  constructor(private readonly db: Db) {}

  /** Runs inside the caller's transaction when given one. */
  async apply(entry: LedgerEntry, executor: Kysely<Database> = this.db): Promise<LedgerResult> {
    // Two concurrent uses of one key can both pass NOT EXISTS; the unique index stops the second,
    // whose statement (update included) then rolls back. Inside a caller's transaction a savepoint
    // keeps that failure from aborting the rest of it.
    const inTransaction = executor.isTransaction;
    if (inTransaction) await sql`SAVEPOINT credit_ledger_apply`.execute(executor);
    try {
      const result = await this.applyOnce(entry, executor);
      if (inTransaction) await sql`RELEASE SAVEPOINT credit_ledger_apply`.execute(executor);
      return result;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      if (inTransaction) await sql`ROLLBACK TO SAVEPOINT credit_ledger_apply`.execute(executor);
      return { outcome: 'duplicate' };
    }
  }

  private async applyOnce(entry: LedgerEntry, executor: Kysely<Database>): Promise<LedgerResult> {
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

  async balanceOf(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select('credits_balance')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return row.credits_balance;
  }
}

function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === '23505' &&
    'constraint' in error &&
    error.constraint === 'credit_ledger_idempotency_key_key'
  );
}
