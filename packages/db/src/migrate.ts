import { Migrator, type MigrationResultSet } from 'kysely';
import type { Db } from './client.js';
import { migrations } from './migrations/index.js';

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const result = await migrator(db).migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

/**
 * The migrations this code knows that the database has not run yet (none: the schema is at this
 * code's version, or past it). Reads only: it never creates Kysely's bookkeeping tables.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const known = await migrator(db).getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((m) => m.name);
}
