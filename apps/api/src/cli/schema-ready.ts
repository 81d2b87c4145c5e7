import { createDb, pendingMigrations } from '@studioshot/db';
import { setTimeout as delay } from 'node:timers/promises';

// Waits until the database schema is at this build's version (every migration it knows has run),
// then exits 0. An API process started before its migrations ran would answer with a schema it
// does not know: a deployment runs this first (infra/k8s: the API's init container) while the
// migration job does the work. It only reads; it never migrates.

const POLL_MS = 2000;

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set');
  process.exit(1);
}
const db = createDb(url, { max: 1, onIdleClientError: () => undefined });
let said = '';
for (;;) {
  const state = await pendingMigrations(db).then(
    (pending) => ({ pending }),
    (error: unknown) => ({ error: (error as Error).message }),
  );
  if ('pending' in state && state.pending.length === 0) break;
  const line =
    'pending' in state
      ? `waiting for ${state.pending.length} migration(s): ${state.pending.join(', ')}`
      : `waiting for the database: ${state.error}`;
  // Said once per change, not on every poll.
  if (line !== said) console.log(line);
  said = line;
  await delay(POLL_MS);
}
console.log('database schema is at this version');
await db.destroy();
