import { moveModelArtifact, selectModels, type Database, type Db } from '@studioshot/db';
import {
  isUserKey,
  LEGACY_PREFIXES,
  legacyKeyToUserKey,
  modelArtifactKey,
  ObjectNotFoundError,
  photoKeys,
  type Storage,
} from '@studioshot/storage';
import { sql, type Kysely } from 'kysely';

/**
 * The one-time move of stored objects to the per-person layout: every object of a person under
 * `users/{user_id}/` (packages/storage/src/keys.ts), so deleting a person is deleting one prefix.
 * Before it, photos were `photos/{u}/{session}/{photo}/...` and model artifacts
 * `models/{u}/{model}/...`.
 *
 * Each reference is moved in an order that loses nothing wherever it stops:
 *   1. copy every old object of the row to its new key (a re-run copies again: same bytes);
 *   2. point the row at the new keys, by an update conditional on the old ones;
 *   3. delete the old objects.
 * A row already under `users/` is skipped. A stop between 2 and 3 leaves old objects that no row
 * names any more: the sweep of the old prefixes at the end of every run finds them, sees the new
 * copy, and deletes them; it also moves objects of the old layout that no row names (leftovers of
 * failed uploads) under `users/`, so nothing of a person stays outside their prefix.
 *
 * Runs after the database migrations (the migrate CLI, which `npm start` runs before the API) and
 * again at API start, where it is normally a no-op. A Postgres advisory lock lets one process at a
 * time do it; the others skip.
 */

/** The pino methods this needs. */
export interface LayoutLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface StorageLayoutOptions {
  /**
   * Objects under the old prefixes written less than this long ago are left for the next run:
   * a writer of the old layout may not have recorded them in its row yet. 15 minutes.
   */
  graceMs?: number;
  /** Rows read per query. */
  batchSize?: number;
}

export interface StorageLayoutReport {
  /** False when another process held the lock, and this one did nothing. */
  ran: boolean;
  /** Rows (photos, models, tasks) now pointing under `users/`. */
  rows: number;
  /** Objects copied to their new key whose old key is gone. */
  moved: number;
  /** Of `moved`, objects no row named (found by the sweep of the old prefixes). */
  unreferenced: number;
  /** Keys a row named whose object was in neither place (the row was rewritten all the same). */
  missing: number;
  /** Rows or objects that failed (logged); the next run tries again. */
  failed: number;
  /** Old-layout objects left for the next run: too recent, still named by a row, or unknown. */
  left: number;
}

// Any fixed number: the lock only has to be the same in every process.
const LOCK_KEY = 7_351_420_911;
const DEFAULT_GRACE_MS = 15 * 60_000;

type Conn = Kysely<Database>;

/** Moves what is left of the old layout; see the top of this file. */
export async function migrateStorageLayout(
  db: Db,
  storage: Storage,
  logger: LayoutLogger,
  options: StorageLayoutOptions = {},
): Promise<StorageLayoutReport> {
  // One pinned connection holds the session-level advisory lock and runs every query.
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`SELECT pg_try_advisory_lock(${LOCK_KEY}::bigint) AS locked`.execute(conn);
    if (!rows[0]?.locked) {
      logger.info({}, 'storage layout: another process is moving objects; skipped');
      return { ...emptyReport(), ran: false };
    }
    try {
      const report = await new LayoutMove(conn, storage, logger, options).run();
      const changed = report.rows + report.moved + report.missing + report.failed;
      if (changed || report.left) {
        logger[report.failed ? 'warn' : 'info'](
          report,
          `storage layout: moved ${report.moved} objects under users/{id}/`,
        );
      }
      return report;
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_KEY}::bigint)`.execute(conn);
    }
  });
}

function emptyReport(): StorageLayoutReport {
  return { ran: true, rows: 0, moved: 0, unreferenced: 0, missing: 0, failed: 0, left: 0 };
}

/** One reference to rewrite: the object at `from` is to live at `to`. */
interface Move {
  from: string;
  to: string;
}

const MIME_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

const lastSegment = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/**
 * Where an old key's object goes: read from the key itself, so every row naming one object (a
 * model and its training task both name model.npz) and the sweep agree; from the row only for a
 * key of no known shape. Throws (keys.ts) when neither gives a valid key.
 */
const newKey = (from: string, fromRow: () => string): string =>
  legacyKeyToUserKey(from) ?? fromRow();

class LayoutMove {
  private readonly report = emptyReport();
  private readonly graceMs: number;
  private readonly batchSize: number;

  constructor(
    private readonly db: Conn,
    private readonly storage: Storage,
    private readonly logger: LayoutLogger,
    options: StorageLayoutOptions,
  ) {
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.batchSize = options.batchSize ?? 200;
  }

  async run(): Promise<StorageLayoutReport> {
    await this.photos();
    await this.models();
    await this.taskResults();
    await this.sweep();
    return this.report;
  }

  /** photos: original_key, optimized_key, thumbnail_key. */
  private async photos(): Promise<void> {
    let after: string | undefined;
    for (;;) {
      const batch = await this.db
        .selectFrom('photos')
        .select([
          'id',
          'user_id',
          'session_id',
          'mime_type',
          'original_key',
          'optimized_key',
          'thumbnail_key',
        ])
        .where((eb) =>
          eb.or([
            eb('original_key', 'not like', 'users/%'),
            eb('optimized_key', 'not like', 'users/%'),
            eb('thumbnail_key', 'not like', 'users/%'),
          ]),
        )
        .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
        .orderBy('id')
        .limit(this.batchSize)
        .execute();
      for (const photo of batch) {
        await this.row(`photo ${photo.id}`, async () => {
          const columns = (['original_key', 'optimized_key', 'thumbnail_key'] as const).filter(
            (column) => !isUserKey(photo[column]),
          );
          const moves = columns.map((column) => {
            const from = photo[column];
            return {
              from,
              to: newKey(from, () => {
                const named = /^original\.([a-z0-9]{1,10})$/.exec(lastSegment(from));
                const extension = named?.[1] ?? MIME_EXTENSIONS[photo.mime_type] ?? 'jpg';
                const keys = photoKeys(photo.user_id, photo.session_id, photo.id, extension);
                return keys[column.replace('_key', '') as keyof typeof keys];
              }),
            };
          });
          return {
            moves,
            update: () =>
              this.db
                .updateTable('photos')
                .set(Object.fromEntries(columns.map((c, i) => [c, moves[i]!.to])))
                .where('id', '=', photo.id)
                .where((eb) => eb.and(columns.map((c) => eb(c, '=', photo[c]))))
                .executeTakeFirst()
                .then((r) => r.numUpdatedRows > 0n),
            stillNames: async (key) => {
              const now = await this.db
                .selectFrom('photos')
                .select(['original_key', 'optimized_key', 'thumbnail_key'])
                .where('id', '=', photo.id)
                .executeTakeFirst();
              return now ? Object.values(now).includes(key) : false;
            },
          };
        });
      }
      if (batch.length < this.batchSize) return;
      after = batch[batch.length - 1]!.id;
    }
  }

  /** models: artifact_key. */
  private async models(): Promise<void> {
    let after: string | undefined;
    for (;;) {
      const batch = await selectModels(this.db)
        .select(['id', 'user_id', 'artifact_key'])
        .where('artifact_key', 'is not', null)
        .where('artifact_key', 'not like', 'users/%')
        .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
        .orderBy('id')
        .limit(this.batchSize)
        .execute();
      for (const model of batch) {
        const from = model.artifact_key!;
        await this.row(`model ${model.id}`, async () => ({
          moves: [
            {
              from,
              to: newKey(from, () => modelArtifactKey(model.user_id, model.id, lastSegment(from))),
            },
          ],
          update: (to) => moveModelArtifact(this.db, model.id, from, to[0]!),
          stillNames: async (key) =>
            (
              await selectModels(this.db)
                .select('artifact_key')
                .where('id', '=', model.id)
                .executeTakeFirst()
            )?.artifact_key === key,
        }));
      }
      if (batch.length < this.batchSize) return;
      after = batch[batch.length - 1]!.id;
    }
  }

  /**
   * tasks.result: a completed training records its artifacts as `{kind}_key` (model_key,
   * preview_key ...): every top-level `*_key` string outside `users/`.
   */
  private async taskResults(): Promise<void> {
    let after: string | undefined;
    for (;;) {
      const batch = await this.db
        .selectFrom('tasks')
        .select(['id', 'user_id', 'model_id', 'result'])
        .where('result', 'is not', null)
        .where(sql<boolean>`jsonb_typeof(result) = 'object'`)
        .where(
          sql<boolean>`EXISTS (SELECT 1 FROM jsonb_each(result) e WHERE e.key LIKE '%\\_key'
            AND jsonb_typeof(e.value) = 'string' AND e.value #>> '{}' NOT LIKE 'users/%')`,
        )
        .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
        .orderBy('id')
        .limit(this.batchSize)
        .execute();
      for (const task of batch) {
        const result = task.result as Record<string, unknown>;
        const fields = Object.entries(result).filter(
          (entry): entry is [string, string] =>
            entry[0].endsWith('_key') && typeof entry[1] === 'string' && !isUserKey(entry[1]),
        );
        await this.row(`task ${task.id}`, async () => {
          const moves = fields.map(([, from]) => ({
            from,
            to: newKey(from, () =>
              modelArtifactKey(task.user_id, task.model_id ?? task.id, lastSegment(from)),
            ),
          }));
          return {
            moves,
            update: (to) => {
              const next = { ...result };
              fields.forEach(([name], i) => (next[name] = to[i]));
              return this.db
                .updateTable('tasks')
                .set({ result: JSON.stringify(next) })
                .where('id', '=', task.id)
                .where(sql<boolean>`result = ${JSON.stringify(result)}::jsonb`)
                .executeTakeFirst()
                .then((r) => r.numUpdatedRows > 0n);
            },
            stillNames: async (key) => this.named(key),
          };
        });
      }
      if (batch.length < this.batchSize) return;
      after = batch[batch.length - 1]!.id;
    }
  }

  /**
   * One row: copy, conditional update, delete. Errors are logged and counted; the row keeps its
   * old keys (and objects) and the next run tries again.
   */
  private async row(
    what: string,
    plan: () => Promise<{
      moves: Move[];
      /** Points the row at the new keys unless it changed meanwhile; true when it did. */
      update: (to: string[]) => Promise<boolean>;
      /** Whether the row (re-read) names this key. */
      stillNames: (key: string) => Promise<boolean>;
    }>,
  ): Promise<void> {
    try {
      const { moves, update, stillNames } = await plan();
      // 1. Copy.
      const copied: string[] = [];
      for (const move of moves) {
        const outcome = await this.copy(move);
        if (outcome === 'copied') copied.push(move.to);
        if (outcome === 'missing') {
          this.report.missing += 1;
          this.logger.warn(
            { key: move.from, to: move.to },
            `storage layout: ${what} names a missing object`,
          );
        }
      }
      // 2. Point the row at the copies.
      if (!(await update(moves.map((m) => m.to)))) {
        // The row changed or went meanwhile (the photo was deleted): undo copies it does not name.
        for (const key of copied) if (!(await stillNames(key))) await this.storage.delete(key);
        this.report.left += moves.length;
        return;
      }
      this.report.rows += 1;
      // 3. Delete the old objects (each only once, when two columns named the same object).
      for (const from of new Set(moves.map((m) => m.from))) {
        if (await this.storage.exists(from)) {
          await this.storage.delete(from);
          this.report.moved += 1;
        }
      }
    } catch (error) {
      this.report.failed += 1;
      this.logger.warn({ err: error }, `storage layout: could not move ${what}; next run retries`);
    }
  }

  /**
   * Puts the object of `from` at `to`: copied (again, after a stop: the same bytes), already
   * there (the old one is gone: an earlier run, or another row naming the same object, moved it),
   * or missing from both.
   */
  private async copy(move: Move): Promise<'copied' | 'present' | 'missing'> {
    try {
      await this.storage.copy(move.from, move.to);
      return 'copied';
    } catch (error) {
      if (!(error instanceof ObjectNotFoundError)) throw error;
    }
    return (await this.storage.exists(move.to)) ? 'present' : 'missing';
  }

  /** Whether any row names the key (photos, models, task results). */
  private async named(key: string): Promise<boolean> {
    const { rows } = await sql<{ named: boolean }>`SELECT
        EXISTS (SELECT 1 FROM photos
          WHERE original_key = ${key} OR optimized_key = ${key} OR thumbnail_key = ${key})
        OR EXISTS ${selectModels(this.db).select('id').where('artifact_key', '=', key)}
        OR EXISTS (SELECT 1 FROM tasks, jsonb_each_text(tasks.result) e
          WHERE jsonb_typeof(tasks.result) = 'object' AND e.value = ${key}) AS named`.execute(
      this.db,
    );
    return Boolean(rows[0]?.named);
  }

  /**
   * What is left under the old prefixes that no row names: old objects whose rows were moved
   * before a stop (the copy exists: delete), and objects no row ever named (copy, then delete).
   */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const prefix of LEGACY_PREFIXES) {
      // Listed first, acted on after: the listing is not disturbed by our own deletes.
      const objects = [];
      for await (const object of this.storage.list(prefix)) objects.push(object);
      for (const object of objects) {
        const to = legacyKeyToUserKey(object.key);
        if (!to || now - object.lastModified.getTime() < this.graceMs) {
          if (!to) this.logger.warn({ key: object.key }, 'storage layout: unknown old key left');
          this.report.left += 1;
          continue;
        }
        try {
          if (await this.named(object.key)) {
            this.report.left += 1; // its row could not be moved (counted above): retried next run
            continue;
          }
          if (!(await this.storage.exists(to))) {
            await this.storage.copy(object.key, to);
            this.report.unreferenced += 1;
          }
          await this.storage.delete(object.key);
          this.report.moved += 1;
        } catch (error) {
          if (error instanceof ObjectNotFoundError) continue; // deleted meanwhile
          this.report.failed += 1;
          this.logger.warn(
            { err: error, key: object.key },
            'storage layout: could not move an object; next run retries',
          );
        }
      }
    }
  }
}
