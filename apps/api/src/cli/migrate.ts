import { ZStorageSettingsSchema } from '@studioshot/contracts/storage-settings';
import { createDb, migrateToLatest } from '@studioshot/db';
import { createStorage } from '@studioshot/storage';
import { pino } from 'pino';
import { z } from 'zod';
import { ZEnvSchema } from '../env.js';
import { cleanStoredOriginals } from '../services/original-cleanup.js';
import { PhotoProcessingService } from '../services/photo-processing.js';
import { migrateStorageLayout } from '../services/storage-layout.js';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set');
  process.exit(1);
}
// Only the storage settings (the API's names and defaults): this runs before the API's full
// configuration needs to be valid.
const storageEnv = ZStorageSettingsSchema.extend({
  LOG_LEVEL: ZEnvSchema.shape.LOG_LEVEL,
}).safeParse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')));
if (!storageEnv.success) {
  console.error(`Invalid storage configuration: ${z.prettifyError(storageEnv.error)}`);
  process.exit(1);
}

const db = createDb(url, { max: 1 });
const storage = createStorage(storageEnv.data);
try {
  const { results } = await migrateToLatest(db);
  const applied = (results ?? []).filter((r) => r.status === 'Success');
  console.log(
    applied.length
      ? `migrations applied: ${applied.map((r) => r.migrationName).join(', ')}`
      : 'database schema is up to date',
  );
  const logger = pino({ level: storageEnv.data.LOG_LEVEL, base: { service: 'migrate' } });
  // Then the objects: everything of a person under users/{id}/ (services/storage-layout.ts).
  const layout = await migrateStorageLayout(db, storage, logger);
  console.log(
    !layout.ran
      ? 'storage layout: another process is moving objects'
      : layout.rows + layout.moved + layout.missing + layout.failed + layout.left === 0
        ? 'storage layout is up to date'
        : `storage layout: ${layout.moved} objects moved under users/{id}/, ${layout.rows} rows ` +
          `updated${layout.left ? `, ${layout.left} left for the next run` : ''}` +
          `${layout.failed ? `, ${layout.failed} failed (see the log; the next run retries)` : ''}`,
  );
  // And originals stored before uploads were kept without metadata (services/original-cleanup.ts).
  const originals = await cleanStoredOriginals(db, storage, new PhotoProcessingService(), logger);
  console.log(
    !originals.ran
      ? 'stored originals: another process is cleaning them'
      : originals.cleaned + originals.missing + originals.failed === 0
        ? 'stored originals are clean'
        : `stored originals: ${originals.cleaned} rewritten without metadata` +
          `${originals.missing ? `, ${originals.missing} missing` : ''}` +
          `${originals.failed ? `, ${originals.failed} failed (see the log; the next run retries)` : ''}`,
  );
} finally {
  await Promise.allSettled([db.destroy(), storage.close()]);
}
