import { createDb, migrateToLatest } from '@studioshot/db';
import { dropDatabase } from '@studioshot/db/testing';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * The schema check a deployment runs before the API starts (src/cli/schema-ready.ts): on a
 * database its migrations have not reached it waits, and it lets go once they have run.
 */

const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const name = `studioshot_schema_${randomBytes(5).toString('hex')}`;
let url: string;

beforeAll(async () => {
  const adminUrl = inject('pgAdminUrl');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  url = u.toString();
});
afterAll(() => dropDatabase(inject('pgAdminUrl'), name));

describe('schema-ready', () => {
  it('waits on an unmigrated database and exits 0 once the migrations ran', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/schema-ready.ts'], {
      cwd: API_ROOT,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = once(child, 'exit') as Promise<[number | null]>;
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('waiting for')) resolve();
      }),
    );
    expect(output).toMatch(/waiting for \d+ migration\(s\): \d{14}-/);
    expect(child.exitCode).toBeNull();

    const db = createDb(url, { max: 1 });
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
    const [code] = await exited;
    expect(code, output).toBe(0);
    expect(output).toContain('database schema is at this version');
  });

  it('exits 0 at once on a migrated database', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/schema-ready.ts'], {
      cwd: API_ROOT,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, output).toBe(0);
    expect(output).not.toContain('waiting');
  });
});
