import { createContainer } from './container.js';
import { EnvError, loadEnv, productionWarnings, type Env } from './env.js';
import { createLogger } from '@studioshot/observability';
import { registerScheduledWork } from './scheduling/scheduled-work.js';
import { createHttpServer, startApiMetricsServer } from './server.js';
import { RequestsInFlight, shutDownGracefully, shutdownDeadlineMs } from './shutdown.js';

let env: Env;
try {
  env = loadEnv();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger({ service: 'api', level: env.LOG_LEVEL });
// A production deployment explicitly keeping a development convenience on says so, loudly.
for (const warning of productionWarnings(env))
  logger.warn({ warning }, 'development convenience on in production');
const container = createContainer(env, logger);
await container.start();
const { server, feed } = createHttpServer(container);
const requests = new RequestsInFlight(server);

// The rest of the start-up; a stop asked for while it runs waits for it, then stops it all.
const startedRest = (async () => {
  const metricsServer = await startApiMetricsServer(container);
  logger.info({ port: metricsServer.port }, 'metrics listening');
  // Timed work (subscription renewals and lapses, the task and refund sweeps, the retention
  // purge, exports) runs on the job facility whose worker the container started: every replica
  // registers the same schedules and each tick runs once, on one of them.
  await registerScheduledWork(container);
  return metricsServer;
})();

let stopping = false;
const secondSignal = new AbortController();
async function shutdown(signal: string) {
  if (stopping) {
    logger.info({ signal }, 'second signal: ending the readiness delay now');
    secondSignal.abort();
    return;
  }
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // Past this, whatever still holds the process is stuck: exit without it.
  const deadline = setTimeout(() => {
    logger.error('shutdown overran its deadline');
    process.exit(1);
  }, shutdownDeadlineMs(env)).unref();
  await shutDownGracefully({
    server,
    feed,
    health: container.health,
    requests,
    readinessDelayMs: env.SHUTDOWN_READINESS_DELAY_MS,
    skipReadinessDelay: secondSignal.signal,
    // The metrics port answers while the requests drain; it closes before what it reads.
    closeContainer: async () => {
      const metricsServer = await startedRest.catch(() => undefined);
      await metricsServer?.close();
      await container.close();
    },
    logger,
  });
  clearTimeout(deadline);
  logger.info('stopped');
  process.exit(0);
}
// Registered before the port opens: a stop asked for at any moment after is a graceful one.
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

server.listen(env.PORT, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  logger.info({ port, version: env.APP_VERSION }, 'api listening');
  console.log(`\n  Studioshot is running at http://localhost:${port}\n`);
});
await startedRest;
