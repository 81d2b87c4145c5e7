import { QUEUES } from '@studioshot/contracts';
import { createDb } from '@studioshot/db';
import { createStorage } from '@studioshot/storage';
import { createLogger, startMetricsServer } from '@studioshot/observability';
import { loadWorkerEnv, type WorkerEnv } from './env.js';
import { maxShutdownMs, startWorker, type RunningWorker } from './worker-app.js';
import { WorkerMetrics } from './worker-metrics.js';

let env: WorkerEnv;
try {
  env = loadWorkerEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
// The API's logger, redaction included: a job's or an engine's line never writes a credential.
const logger = createLogger({ service: 'worker', level: env.LOG_LEVEL, bufferBytes: 0 });
const metrics = new WorkerMetrics(env.ENGINE_KIND);
const db = createDb(env.DATABASE_URL, {
  max: 4,
  onIdleClientError: (error) => logger.warn({ err: error }, 'idle database connection lost'),
});
const storage = createStorage(env);

let worker: RunningWorker;
try {
  worker = await startWorker(env, { db, storage, logger, metrics });
} catch (error) {
  logger.fatal({ err: error }, `worker cannot start: ${(error as Error).message}`);
  process.exit(1);
}
const metricsServer = await startMetricsServer({
  port: env.METRICS_PORT,
  registry: metrics.registry,
  onError: (error) => logger.error({ err: error }, 'metrics could not be read'),
});
logger.info(
  {
    metricsPort: metricsServer.port,
    pool: env.WORKER_POOL,
    queues: worker.queues,
    photoCheckThreads: worker.queues.includes(QUEUES.photoChecks) ? env.PHOTO_CHECK_THREADS : 0,
    engine: worker.engine?.engine,
    engineVersion: worker.engine?.version,
    pid: process.pid,
  },
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
  await metricsServer.close();
  await Promise.allSettled([db.destroy(), storage.close()]);
  logger.info('worker stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
