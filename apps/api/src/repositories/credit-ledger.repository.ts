import {
  applyLedgerEntry,
  type Database,
  type Db,
  type LedgerEntry,
  type LedgerResult,
} from '@studioshot/db';
import { sql, type Kysely } from 'kysely';

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

  /**
   * Credits generations hold in reserve that are neither spent (the task completed) nor given
   * back: those of unfinished tasks, and of tasks failed or cancelled in the last day without
   * their refund (which should never stay so). With the age of the oldest such reservation.
   * Reads only unfinished and recently finished tasks (each has its own index).
   */
  async reservedUnsettled(): Promise<{ credits: number; oldestSeconds: number }> {
    const { rows } = await sql<{ credits: string; oldest: string }>`
      SELECT coalesce(sum(-r.delta), 0)::bigint AS credits,
             coalesce(extract(epoch FROM now() - min(r.created_at)), 0) AS oldest
      FROM tasks t
      JOIN credit_ledger r ON r.idempotency_key = 'generation:' || t.id || ':reserve'
      WHERE t.task_type IN ('generation', 'batch_generation')
        AND r.delta < 0
        AND (t.status IN ('pending', 'queued', 'running')
          OR (t.status IN ('failed', 'cancelled')
            AND t.completed_at > now() - interval '1 day'
            AND NOT EXISTS (
              SELECT 1 FROM credit_ledger f
              WHERE f.idempotency_key = 'generation:' || t.id || ':refund')))
    `.execute(this.db);
    const row = rows[0];
    return { credits: Number(row?.credits ?? 0), oldestSeconds: Number(row?.oldest ?? 0) };
  }
}
