import type { TaskStatus, TaskType } from '@studioshot/contracts';
import {
  deleteModelRow,
  selectModels,
  applyLedgerEntry,
  UNFINISHED_TASK_STATUSES,
  type Database,
  type Db,
  type EngineKindName,
} from '@studioshot/db';
import { sql, type Kysely } from 'kysely';

type Executor = Kysely<Database>;

/** A task as deletion sees it: enough to stop it and to find its queue job. */
export interface WorkItem {
  id: string;
  task_type: TaskType;
  engine_kind: EngineKindName;
  status: TaskStatus;
}

/**
 * Tables kept when an account is deleted: the accounting, whose rows keep pointing at the
 * tombstone's id (which no longer leads to a name or an address). Every other table that
 * references `users` loses the person's rows.
 */
export const ACCOUNTING_TABLES: readonly string[] = ['payments', 'credit_ledger'];

/** Columns of `users` that a tombstone keeps as they are (everything else is emptied). */
const TOMBSTONE_KEEPS = new Set([
  'id',
  'created_at',
  'updated_at',
  'deletion_requested_at',
  'deletion_id',
  'deleted_at',
  // Moved to zero through the ledger, which records why.
  'credits_balance',
]);

/** The database side of deleting a model, a photo set or an account. */
export class DeletionRepository {
  constructor(private readonly db: Db) {}

  // ---- models --------------------------------------------------------------------------

  findModel(modelId: string) {
    return selectModels(this.db)
      .select(['id', 'user_id', 'artifact_key'])
      .where('id', '=', modelId)
      .executeTakeFirst();
  }

  /** Its training and every generation made from it. */
  modelWork(modelId: string): Promise<WorkItem[]> {
    return this.db
      .selectFrom('tasks')
      .select(['id', 'task_type', 'engine_kind', 'status'])
      .where((eb) =>
        eb.or([
          eb('id', '=', modelId),
          eb('model_id', '=', modelId),
          eb('id', 'in', eb.selectFrom('generations').select('id').where('model_id', '=', modelId)),
        ]),
      )
      .execute();
  }

  /** The generations made from a model, with the keys of their stored images. */
  async modelGenerations(modelId: string): Promise<{ id: string; keys: string[] }[]> {
    const rows = await this.db
      .selectFrom('generations as g')
      .leftJoin('generated_images as i', 'i.generation_id', 'g.id')
      .select(['g.id', 'i.image_key', 'i.thumbnail_key'])
      .where('g.model_id', '=', modelId)
      .execute();
    const byId = new Map<string, string[]>();
    for (const row of rows) {
      const keys = byId.get(row.id) ?? [];
      if (row.image_key) keys.push(row.image_key);
      if (row.thumbnail_key) keys.push(row.thumbnail_key);
      byId.set(row.id, keys);
    }
    return [...byId].map(([id, keys]) => ({ id, keys }));
  }

  /**
   * The model's rows: its images, generations, tasks and the model itself; the photo set it was
   * trained from forgets it. Refused (false) while any of its work is unfinished: a generation
   * accepted since its work was stopped must be stopped (and refunded) first.
   */
  async deleteModelRows(modelId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const model = await selectModels(trx)
        .select('id')
        .where('id', '=', modelId)
        .forUpdate()
        .executeTakeFirst();
      if (!model) return true;
      const generations = trx
        .selectFrom('generations')
        .select('id')
        .where('model_id', '=', modelId);
      const unfinished = await trx
        .selectFrom('tasks')
        .select('id')
        .where('status', 'in', UNFINISHED_TASK_STATUSES)
        .where((eb) =>
          eb.or([
            eb('id', '=', modelId),
            eb('model_id', '=', modelId),
            eb('id', 'in', generations),
          ]),
        )
        .executeTakeFirst();
      if (unfinished) return false;
      await trx
        .deleteFrom('generated_images')
        .where((eb) =>
          eb.or([eb('model_id', '=', modelId), eb('generation_id', 'in', generations)]),
        )
        .execute();
      const generationIds = (await generations.execute()).map((g) => g.id);
      if (generationIds.length > 0) {
        await trx.deleteFrom('generations').where('id', 'in', generationIds).execute();
        await trx.deleteFrom('tasks').where('id', 'in', generationIds).execute();
      }
      await trx
        .deleteFrom('tasks')
        .where((eb) => eb.or([eb('id', '=', modelId), eb('model_id', '=', modelId)]))
        .execute();
      await trx
        .updateTable('upload_sessions')
        .set({ training_id: null })
        .where('training_id', '=', modelId)
        .execute();
      await deleteModelRow(trx, modelId);
      return true;
    });
  }

  // ---- photo sets ----------------------------------------------------------------------

  findSession(sessionId: string) {
    return this.db
      .selectFrom('upload_sessions')
      .select(['id', 'user_id', 'status'])
      .where('id', '=', sessionId)
      .executeTakeFirst();
  }

  /** Whether a training from this set has not finished (its photos are still needed). */
  async sessionInTraining(sessionId: string): Promise<boolean> {
    const training = await selectModels(this.db)
      .select('id')
      .where('session_id', '=', sessionId)
      .where('status', 'in', ['pending', 'training'])
      .executeTakeFirst();
    return training !== undefined;
  }

  /**
   * No photo can join the set any more: an upload in flight finds it expired under the set's
   * lock, is refused and removes the files it stored.
   */
  async closeSession(sessionId: string): Promise<void> {
    await this.db
      .updateTable('upload_sessions')
      .set({ expires_at: sql`least(expires_at, now())` })
      .where('id', '=', sessionId)
      .execute();
  }

  sessionPhotos(sessionId: string) {
    return this.db
      .selectFrom('photos')
      .select(['id', 'original_key', 'optimized_key', 'thumbnail_key'])
      .where('session_id', '=', sessionId)
      .execute();
  }

  /**
   * The set's photos and the session; models trained from it and generations restyling one of
   * its photos forget it (their foreign keys say SET NULL), and so do finished trainings' params.
   */
  async deleteSessionRows(sessionId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('tasks')
        .set({ params: sql`params - 'session_id'` })
        .where('task_type', '=', 'training')
        .where(sql`params->>'session_id'`, '=', sessionId)
        .execute();
      await trx.deleteFrom('photos').where('session_id', '=', sessionId).execute();
      await trx.deleteFrom('upload_sessions').where('id', '=', sessionId).execute();
    });
  }

  // ---- accounts ------------------------------------------------------------------------

  /**
   * Marks the account as being deleted, with a new deletion id, unless it already is; answers
   * the deletion id either way (undefined: no such account).
   */
  async markAccountDeleting(userId: string): Promise<string | undefined> {
    const marked = await this.db
      .updateTable('users')
      .set({
        deletion_requested_at: sql`now()`,
        deletion_id: sql`gen_random_uuid()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', userId)
      .where('deletion_requested_at', 'is', null)
      .returning('deletion_id')
      .executeTakeFirst();
    if (marked?.deletion_id) return marked.deletion_id;
    const existing = await this.db
      .selectFrom('users')
      .select('deletion_id')
      .where('id', '=', userId)
      .executeTakeFirst();
    return existing?.deletion_id ?? undefined;
  }

  /** The account a deletion is about, as far as it still exists. */
  findDeletion(deletionId: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'deletion_id', 'deleted_at'])
      .where('deletion_id', '=', deletionId)
      .executeTakeFirst();
  }

  /** Deletions asked for and not finished (their jobs are queued again when the API starts). */
  unfinishedDeletions(): Promise<{ deletion_id: string | null }[]> {
    return this.db
      .selectFrom('users')
      .select('deletion_id')
      .where('deletion_requested_at', 'is not', null)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Every sign-in of the account, revoked now (ids of all of them, revoked before or not). */
  async revokeAllSignIns(userId: string): Promise<string[]> {
    await this.db
      .updateTable('refresh_token_families')
      .set({ revoked_at: sql`now()`, revoked_reason: 'account deleted' })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    const rows = await this.db
      .selectFrom('refresh_token_families')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Hashes of every refresh token the account was given (their grace answers are keyed by them). */
  async refreshTokenHashes(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('refresh_tokens as t')
      .innerJoin('refresh_token_families as f', 'f.id', 't.family_id')
      .select('t.token_hash')
      .where('f.user_id', '=', userId)
      .execute();
    return rows.map((r) => r.token_hash);
  }

  /** No photo can join any of the account's sets any more (see closeSession). */
  async closeAllSessions(userId: string): Promise<void> {
    await this.db
      .updateTable('upload_sessions')
      .set({ expires_at: sql`least(expires_at, now())` })
      .where('user_id', '=', userId)
      .execute();
  }

  /** The account's unfinished work. */
  unfinishedWork(userId: string): Promise<WorkItem[]> {
    return this.db
      .selectFrom('tasks')
      .select(['id', 'task_type', 'engine_kind', 'status'])
      .where('user_id', '=', userId)
      .where('status', 'in', UNFINISHED_TASK_STATUSES)
      .execute();
  }

  /**
   * The ids of every row about the person (tasks, models, photos, sessions, exports...): what
   * Redis may name instead of the person (a job id, a job's data). From every table referencing
   * the account that has an `id`, the accounting's included (a payment's id can name a job too),
   * but the sign-ins: their revocations must stay in Redis until the access tokens they stop
   * have expired (they expire together), and they name nothing but a random session id.
   */
  async personalIds(userId: string): Promise<string[]> {
    const ids: string[] = [];
    for (const { table, column } of await referencingTables(this.db)) {
      if (table === 'refresh_token_families') continue;
      const hasId = await sql<{ n: string }>`
        SELECT count(*) AS n FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = 'id'`.execute(
        this.db,
      );
      if (Number(hasId.rows[0]?.n ?? 0) === 0) continue;
      const rows = await sql<{ id: string }>`
        SELECT id::text AS id FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${userId}`.execute(
        this.db,
      );
      ids.push(...rows.rows.map((r) => r.id));
    }
    return ids;
  }

  /** Every task the account ever had (to find their queue jobs). */
  allWork(userId: string): Promise<WorkItem[]> {
    return this.db
      .selectFrom('tasks')
      .select(['id', 'task_type', 'engine_kind', 'status'])
      .where('user_id', '=', userId)
      .execute();
  }

  /**
   * Everything the database holds about the person but the account row, gone, in one
   * transaction: rows of every table referencing the account except the accounting (children
   * before parents, so the order needs no list of today's tables), the e-mails sent to them, and
   * the remaining credits (moved to zero through the ledger). Refused (false) while the account
   * has unfinished work.
   */
  async eraseAccount(input: {
    userId: string;
    email: string;
    deletionId: string;
  }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom('users')
        .select(['id', 'credits_balance', 'deleted_at'])
        .where('id', '=', input.userId)
        .forUpdate()
        .executeTakeFirst();
      if (!user || user.deleted_at) return true;
      const unfinished = await trx
        .selectFrom('tasks')
        .select('id')
        .where('user_id', '=', input.userId)
        .where('status', 'in', UNFINISHED_TASK_STATUSES)
        .executeTakeFirst();
      if (unfinished) return false;
      for (const { table, column } of await referencingTables(trx)) {
        if (ACCOUNTING_TABLES.includes(table)) continue;
        await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${input.userId}`.execute(
          trx,
        );
      }
      await trx.deleteFrom('outbox_emails').where('to_email', '=', input.email).execute();
      if (user.credits_balance > 0) {
        await applyLedgerEntry(trx, {
          userId: input.userId,
          delta: -user.credits_balance,
          reason: 'account_deleted',
          idempotencyKey: `account-deleted:${input.deletionId}`,
        });
      }
      return true;
    });
  }

  /** The account row emptied into a tombstone that keeps its id (see `tombstone` below). */
  async tombstone(userId: string): Promise<void> {
    await this.db.transaction().execute((trx) => tombstone(trx, userId));
  }
}

/**
 * Every (table, column) with a foreign key to users.id, ordered so that a table comes before the
 * tables it references (its rows go first when deleting), whatever their ON DELETE rule.
 */
async function referencingTables(trx: Executor): Promise<{ table: string; column: string }[]> {
  const foreignKeys = await sql<{ child: string; parent: string; column: string | null }>`
    SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
           CASE WHEN c.confrelid = 'users'::regclass AND array_length(c.conkey, 1) = 1
                THEN (SELECT attname FROM pg_attribute
                       WHERE attrelid = c.conrelid AND attnum = c.conkey[1])
           END AS column
      FROM pg_constraint c
      JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE c.contype = 'f' AND n.nspname = current_schema()`.execute(trx);
  const referencing = foreignKeys.rows.filter((fk) => fk.parent === 'users' && fk.column);
  const tables = new Set(referencing.map((fk) => fk.child));
  // Depth-first: a table is placed after every table (of this set) that references it.
  const order: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: string) => {
    if (placed.has(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const fk of foreignKeys.rows)
      if (fk.parent === table && tables.has(fk.child) && fk.child !== table) place(fk.child);
    visiting.delete(table);
    placed.add(table);
    order.push(table);
  };
  for (const table of [...tables].sort()) place(table);
  return order.flatMap((table) =>
    referencing
      .filter((fk) => fk.child === table)
      .map((fk) => ({ table, column: fk.column as string })),
  );
}

/**
 * The account row emptied: every column set back to NULL or its default, except the id and the
 * deletion's own record (TOMBSTONE_KEEPS), so a column added later is emptied too.
 */
async function tombstone(trx: Executor, userId: string): Promise<void> {
  const columns = await sql<{
    column_name: string;
    is_nullable: string;
    column_default: string | null;
  }>`
    SELECT column_name, is_nullable, column_default FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'users'`.execute(trx);
  const assignments = columns.rows
    .filter((c) => !TOMBSTONE_KEEPS.has(c.column_name))
    .flatMap((c) => {
      if (c.is_nullable === 'YES') return [sql`${sql.ref(c.column_name)} = NULL`];
      if (c.column_default !== null) return [sql`${sql.ref(c.column_name)} = DEFAULT`];
      return [];
    });
  await sql`UPDATE users SET ${sql.join([
    ...assignments,
    sql`deleted_at = now()`,
    sql`updated_at = now()`,
  ])} WHERE id = ${userId} AND deleted_at IS NULL`.execute(trx);
}
