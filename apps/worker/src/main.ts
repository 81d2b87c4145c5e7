import { createDb } from '@studioshot/db';
import { createStorage } from '@studioshot/storage';
import { pino } from 'pino';
import { probeEngine } from './engine-handshake.js';
import { loadWorkerEnv } from './env.js';
import { startPhotoCheckWorker } from './jobs/photo-check-worker.js';
import { createPhotoAnalyzer } from './photo-checks/index.js';

let env;
try {
  env = loadWorkerEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const logger = pino({ level: env.LOG_LEVEL, base: { service: 'worker' } });
const db = createDb(env.DATABASE_URL, {
  max: 4,
  onIdleClientError: (error) => logger.warn({ err: error }, 'idle database connection lost'),
});
const storage = createStorage(env);

const hello = await probeEngine(env.ENGINE_PYTHON, env.ENGINE_KIND);
// Load the face models now, not on the first user's photo.
await createPhotoAnalyzer();

let photoChecks: ReturnType<typeof startPhotoCheckWorker>;
try {
  photoChecks = startPhotoCheckWorker({
    db,
    storage,
    redisUrl: env.REDIS_URL,
    prefix: `${env.REDIS_PREFIX}bull`,
    concurrency: env.PHOTO_CHECK_CONCURRENCY,
    logger,
  });
} catch (error) {
  logger.fatal({ err: error }, 'worker cannot start');
  process.exit(1);
}
logger.info({ engine: hello.engine, engineVersion: hello.version }, 'worker ready');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'worker shutting down');
  // The job in hand finishes (or returns to the queue), then everything else is let go.
  setTimeout(() => process.exit(1), 30_000).unref();
  await photoChecks.close();
  await Promise.allSettled([db.destroy(), storage.close()]);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
