import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * A paid generation that ends failed or cancelled records, in the transaction that ends its
 * task, that its order is due back (`refund_due_at`); the API's one refund handler carries it
 * out at the provider and marks the payment refunded. Orders whose generation already failed
 * before this change, and were not refunded yet, are due from their task's end.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('payments').addColumn('refund_due_at', 'timestamptz').execute();
  await sql`
    UPDATE payments p SET refund_due_at = t.completed_at
    FROM generations g JOIN tasks t ON t.id = g.id
    WHERE g.payment_id = p.id AND p.status = 'succeeded' AND t.status IN ('failed', 'cancelled')
  `.execute(db);
  await sql`
    CREATE INDEX payments_refund_due_idx ON payments (refund_due_at)
    WHERE refund_due_at IS NOT NULL AND status = 'succeeded'
  `.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('refund_due_at').execute();
}
