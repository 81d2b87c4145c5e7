import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from './client.js';
import { migrations } from './migrations/index.js';
import { createMigratedDatabase, dropDatabase } from './testing.js';

const adminUrl = process.env.STUDIOSHOT_PG_ADMIN_URL;
if (!adminUrl)
  throw new Error('STUDIOSHOT_PG_ADMIN_URL is not set: run the tests with `npm test`.');

let name: string;
let db: Db;
beforeAll(async () => {
  name = await createMigratedDatabase(adminUrl);
  db = createDb(adminUrl.replace(/\/[^/]*$/, `/${name}`), { max: 2 });
});
afterAll(async () => {
  await db.destroy();
  await dropDatabase(adminUrl, name);
});

describe('migrations', () => {
  it('create every table of the schema', async () => {
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`.execute(db);
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'users',
        'refresh_token_families',
        'refresh_tokens',
        'password_reset_tokens',
        'outbox_emails',
      ]),
    );
  });

  it('make a negative credit balance impossible at the database level', async () => {
    const user = await db
      .insertInto('users')
      .values({ email: 'ledger@example.com', password_hash: 'x', name: 'L' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(
      db.updateTable('users').set({ credits_balance: -1 }).where('id', '=', user.id).execute(),
    ).rejects.toThrow(/check constraint/);
  });

  it('refuse out-of-range age and unknown gender or plan', async () => {
    const insert = (values: Record<string, unknown>) =>
      db
        .insertInto('users')
        .values({ email: `${Math.random()}@e.com`, password_hash: 'x', name: 'N', ...values })
        .execute();
    await expect(insert({ age: 17 })).rejects.toThrow(/check constraint/);
    await expect(insert({ gender: 'other' })).rejects.toThrow(/check constraint/);
    await expect(insert({ plan_type: 'gold' })).rejects.toThrow(/check constraint/);
  });

  it('roll all the way down and up again', async () => {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    for (let i = 0; i < Object.keys(migrations).length; i += 1) {
      const down = await migrator.migrateDown();
      expect(down.error).toBeUndefined();
    }
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
  });
});
