import {
  applyLedgerEntry,
  type Database,
  type Db,
  type LedgerEntry,
  type LedgerResult,
} from '@studioshot/db';
import type { Kysely } from 'kysely';

export type { LedgerEntry, LedgerResult };

/**
 * The credits ledger, as the API uses it. The SQL lives in packages/db (`applyLedgerEntry`), the
 * one way of writing the ledger, shared with the task store's generation refund.
 */
export class CreditLedgerRepository {
  constructor(private readonly db: Db) {}

  /** Runs inside the caller's transaction when given one. */
  apply(entry: LedgerEntry, executor: Kysely<Database> = this.db): Promise<LedgerResult> {
    return applyLedgerEntry(executor, entry);
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
