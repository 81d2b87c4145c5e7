import { selectModels, type Database, type Db } from '@studioshot/db';
import { sql, type Selectable } from 'kysely';

export type DataExportRow = Selectable<Database['data_exports']>;

/** How many exports the settings page lists. */
const LISTED_EXPORTS = 5;

/** 'Download my data' requests, and everything of a person that goes into one. */
export class DataExportsRepository {
  constructor(private readonly db: Db) {}

  /**
   * A new export, or the one already queued or running (one at a time per person: a partial
   * unique index settles two requests racing).
   */
  async createOrActive(userId: string): Promise<{ row: DataExportRow; created: boolean }> {
    const inserted = await this.db
      .insertInto('data_exports')
      .values({ user_id: userId })
      .onConflict((oc) =>
        oc.column('user_id').where('status', 'in', ['queued', 'running']).doNothing(),
      )
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { row: inserted, created: true };
    const active = await this.db
      .selectFrom('data_exports')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    // The active one finished between the two statements: ask again.
    return active ? { row: active, created: false } : this.createOrActive(userId);
  }

  find(id: string): Promise<DataExportRow | undefined> {
    return this.db.selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listForUser(userId: string): Promise<DataExportRow[]> {
    return this.db
      .selectFrom('data_exports')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(LISTED_EXPORTS)
      .execute();
  }

  /** Exports committed but perhaps never queued (the API stopped in between). */
  async listUnfinished(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('data_exports')
      .select('id')
      .where('status', 'in', ['queued', 'running'])
      .execute();
    return rows.map((r) => r.id);
  }

  /** Claims an export for building (again, on a retry); undefined when it is no longer wanted. */
  start(id: string): Promise<DataExportRow | undefined> {
    return this.db
      .updateTable('data_exports')
      .set({ status: 'running', progress: 0, started_at: sql`now()` })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .returningAll()
      .executeTakeFirst();
  }

  async progress(id: string, progress: number): Promise<void> {
    await this.db
      .updateTable('data_exports')
      .set({ progress })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  async complete(
    id: string,
    result: { storageKey: string; sizeBytes: number; keptHours: number },
  ): Promise<boolean> {
    const row = await this.db
      .updateTable('data_exports')
      .set({
        status: 'completed',
        progress: 100,
        storage_key: result.storageKey,
        size_bytes: result.sizeBytes,
        completed_at: sql`now()`,
        expires_at: sql`now() + make_interval(hours => ${result.keptHours})`,
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async fail(id: string, message: string): Promise<void> {
    await this.db
      .updateTable('data_exports')
      .set({ status: 'failed', error_message: message, completed_at: sql`now()` })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute();
  }

  /** Finished exports whose zip is past its time (the purge deletes them). */
  listExpired(now: Date): Promise<Pick<DataExportRow, 'id' | 'storage_key'>[]> {
    return this.db
      .selectFrom('data_exports')
      .select(['id', 'storage_key'])
      .where('status', '=', 'completed')
      .where('expires_at', '<=', now)
      .execute();
  }

  async markExpired(id: string): Promise<void> {
    await this.db
      .updateTable('data_exports')
      .set({ status: 'expired', storage_key: null })
      .where('id', '=', id)
      .where('status', '=', 'completed')
      .execute();
  }

  /** Everything of a person that their export's JSON holds, read in one snapshot. */
  async accountData(userId: string) {
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const user = await trx
          .selectFrom('users')
          .selectAll()
          .where('id', '=', userId)
          .executeTakeFirst();
        const subscription = await trx
          .selectFrom('subscriptions')
          .selectAll()
          .where('user_id', '=', userId)
          .executeTakeFirst();
        const signIns = await trx
          .selectFrom('refresh_token_families')
          .select(['id', 'user_agent', 'ip_address', 'created_at', 'last_used_at', 'revoked_at'])
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .execute();
        const payments = await trx
          .selectFrom('payments')
          .selectAll()
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .execute();
        const ledger = await trx
          .selectFrom('credit_ledger')
          .selectAll()
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        const models = await selectModels(trx)
          .selectAll()
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .execute();
        const generations = await trx
          .selectFrom('generations')
          .selectAll()
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .execute();
        const images = await trx
          .selectFrom('generated_images')
          .selectAll()
          .where('user_id', '=', userId)
          .orderBy('generation_id')
          .orderBy('position')
          .execute();
        const sessions = await trx
          .selectFrom('upload_sessions')
          .selectAll()
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .execute();
        const photos = await trx
          .selectFrom('photos')
          .selectAll()
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .execute();
        return {
          user,
          subscription,
          signIns,
          payments,
          ledger,
          models,
          generations,
          images,
          sessions,
          photos,
        };
      });
  }
}

export type AccountData = Awaited<ReturnType<DataExportsRepository['accountData']>>;
