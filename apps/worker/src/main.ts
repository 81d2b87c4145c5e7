import { Redis } from 'ioredis';
import { pino } from 'pino';
import { probeEngine } from './engine-handshake.js';
import { loadWorkerEnv } from './env.js';

let env;
try {
  env = loadWorkerEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const logger = pino({ level: env.LOG_LEVEL, base: { service: 'worker' } });
const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));

const hello = await probeEngine(env.ENGINE_PYTHON, env.ENGINE_KIND);
logger.info(
  { engine: hello.engine, engineVersion: hello.version },
  'worker ready; no job queues are consumed yet',
);

async function shutdown(signal: string) {
  logger.info({ signal }, 'worker shutting down');
  await redis.quit().catch(() => undefined);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
