import { createDb } from '@studioshot/db';
import { createStorage } from '@studioshot/storage';
import { pino } from 'pino';
import { loadWorkerEnv, type WorkerEnv } from './env.js';
import { maxShutdownMs, startWorker, type RunningWorker } from './worker-app.js';

let env: WorkerEnv;
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

let worker: RunningWorker;
try {
  worker = await startWorker(env, { db, storage, logger });
} catch (error) {
  logger.fatal({ err: error }, `worker cannot start: ${(error as Error).message}`);
  process.exit(1);
}
logger.info(
  { engine: worker.engine.engine, engineVersion: worker.engine.version, pid: process.pid },
  'worker ready',
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'worker shutting down');
  // Whatever happens, the process ends: the grace periods plus a margin.
  setTimeout(() => process.exit(1), maxShutdownMs(env) + 5000).unref();
  await worker.close();
  await Promise.allSettled([db.destroy(), storage.close()]);
  logger.info('worker stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
