import { createDb } from '@studioshot/db';
import { hashPassword } from '../services/passwords.js';

/** Local development data; idempotent. Never runs in production. */
const DEMO = { email: 'demo@studioshot.local', password: 'demo-password', name: 'Demo User' };

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set');
  process.exit(1);
}
if (process.env.NODE_ENV === 'production') {
  console.log('seed: skipped in production');
  process.exit(0);
}
const db = createDb(url, { max: 1 });
try {
  const inserted = await db
    .insertInto('users')
    .values({
      email: DEMO.email,
      password_hash: await hashPassword(DEMO.password, 12),
      name: DEMO.name,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  console.log(
    inserted
      ? `seed: demo account ${DEMO.email} / ${DEMO.password}`
      : 'seed: demo data already present',
  );
} finally {
  await db.destroy();
}
