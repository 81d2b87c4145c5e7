import { createDb, migrateToLatest } from '@studioshot/db';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set');
  process.exit(1);
}
const db = createDb(url, { max: 1 });
try {
  const { results } = await migrateToLatest(db);
  const applied = (results ?? []).filter((r) => r.status === 'Success');
  console.log(
    applied.length
      ? `migrations applied: ${applied.map((r) => r.migrationName).join(', ')}`
      : 'database schema is up to date',
  );
} finally {
  await db.destroy();
}
