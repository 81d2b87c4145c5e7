import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// BIGINT and NUMERIC come back as strings by default; our counters fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export type Db = Kysely<Database>;

export function createDb(
  connectionString: string,
  options: { max?: number; onIdleClientError?: (error: Error) => void } = {},
): Db {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  // An idle client losing its server (a Postgres restart, a dropped database) is emitted here;
  // with no listener Node would crash the process. The pool replaces the client on next use.
  pool.on('error', (error) => options.onIdleClientError?.(error));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
