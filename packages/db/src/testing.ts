import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb } from './client.js';
import { migrateToLatest } from './migrate.js';

// Test databases: one migrated template per test run, one fresh clone of it per suite.
// CREATE DATABASE ... TEMPLATE copies files, far faster than migrating each time.

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates a fresh, migrated database; returns its name. Test runs use it as their template. */
export async function createMigratedDatabase(adminUrl: string): Promise<string> {
  const name = `studioshot_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const db = createDb(withDatabase(adminUrl, name), { max: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  return name;
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database cloned from the template, for one test suite. */
export async function createTestDatabase(
  adminUrl: string,
  template: string,
): Promise<TestDatabase> {
  const name = `studioshot_test_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: withDatabase(adminUrl, name),
    drop: () => dropDatabase(adminUrl, name),
  };
}
