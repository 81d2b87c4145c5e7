import { createContainer } from './container.js';
import { EnvError, loadEnv, productionWarnings } from './env.js';
import { createLogger } from './logger.js';
import { createHttpServer } from './server.js';

let env;
try {
  env = loadEnv();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger(env.LOG_LEVEL);
// A production deployment explicitly keeping a development convenience on says so, loudly.
for (const warning of productionWarnings(env))
  logger.warn({ warning }, 'development convenience on in production');
const container = createContainer(env, logger);
await container.start();
// Objects still in the old storage layout (the migrate CLI, run before the API, normally moved
// them all): in the background, one process at a time; see services/storage-layout.ts.
const { server, feed } = createHttpServer(container);

server.listen(env.PORT, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  logger.info({ port, version: env.APP_VERSION }, 'api listening');
  console.log(`\n  Studioshot is running at http://localhost:${port}\n`);
});

// Cancelled subscriptions past their period return their users to the free plan.
const lapseSweep = setInterval(() => {
  container.paymentsRepo
    .endLapsed()
    .catch((error: unknown) => logger.error({ err: error }, 'subscription sweep failed'));
}, 60_000);
lapseSweep.unref();

// Tasks waiting on a queue no worker of their engine kind serves fail, saying why.
const unservedSweep = setInterval(() => {
  container.queue
    .failUnservedTasks()
    .then((failed) => {
      if (failed.length > 0) logger.warn({ failed }, 'failed tasks no worker could run');
    })
    .catch((error: unknown) => logger.error({ err: error }, 'unserved task sweep failed'));
  // A paid generation that failed is refunded when its page sees the failure; this catches the
  // ones no page saw, and retries refunds the provider refused.
  container.payments
    .refundFailedPaidGenerations()
    .catch((error: unknown) => logger.error({ err: error }, 'paid generation refund sweep failed'));
}, 60_000);
unservedSweep.unref();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  const deadline = setTimeout(() => process.exit(1), 10_000).unref();
  feed.close();
  server.close();
  server.closeIdleConnections();
  await container.close();
  clearTimeout(deadline);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
