import { createDb, type Db } from '@studioshot/db';
import { createStorage, type Storage } from '@studioshot/storage';
import { Redis } from 'ioredis';
import { createAccountsArea, type AccountsArea } from './areas/accounts.js';
import { createAdminArea, type AdminArea } from './areas/admin.js';
import { bullPrefixOf } from './areas/connections.js';
import { createPrivacyArea, PRIVACY_JOB_POLICIES, type PrivacyArea } from './areas/privacy.js';
import { createWorkArea, type WorkArea } from './areas/work.js';
import { productionWarnings, type Env } from './env.js';
import type { Logger } from '@studioshot/observability';
import { createMoneyArea, type MoneyArea } from './money/area.js';
import { FleetMetrics } from './services/fleet-metrics.js';
import { CreditLedgerRepository } from './repositories/credit-ledger.repository.js';
import { GenerationsRepository } from './repositories/generations.repository.js';
import { ScheduledJobs } from './scheduling/scheduled-jobs.js';
import { HealthService } from './services/health.service.js';
import type { PasswordHasher } from './services/passwords.js';

/**
 * Everything the HTTP layer needs, wired once from the environment: the shared connections, then
 * each area's slice (accounts, money, work, privacy, admin), each wired from its own settings.
 */
export interface Container extends AccountsArea, MoneyArea, WorkArea, PrivacyArea, AdminArea {
  env: Env;
  logger: Logger;
  db: Db;
  redis: Redis;
  storage: Storage;
  health: HealthService;
  /** What /metrics and /queue-load on the private port say (services/fleet-metrics.ts). */
  metrics: FleetMetrics;
  /**
   * The API's one job facility on BullMQ (scheduling/scheduled-jobs.ts): jobs are added here in
   * every process; `start()` starts its worker, main.ts registers the timed work.
   */
  scheduled: ScheduledJobs;
  /**
   * Starts the in-memory caches' feeds (profile changes, session revocations), the task events
   * relay and the job facility's worker, and queues any training, export or deletion committed but
   * not yet queued.
   */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What `createContainer` answers: the production interface, and the password hasher whose runs
 * the tests count (nothing in the app reads it from the container).
 */
export type WiredContainer = Container & { passwords: PasswordHasher };

export function createContainer(env: Env, logger: Logger): WiredContainer {
  const db = createDb(env.DATABASE_URL, {
    max: 20,
    onIdleClientError: (error) => logger.warn({ err: error }, 'idle database connection lost'),
  });
  const redis = new Redis(env.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 3 });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const storage = createStorage(env);
  const bullPrefix = bullPrefixOf(env);
  const scheduled = new ScheduledJobs({
    connection: redis,
    prefix: bullPrefix,
    logger,
    policies: PRIVACY_JOB_POLICIES,
  });
  const connections = { db, redis, logger, storage, bullPrefix, scheduled };
  const ledger = new CreditLedgerRepository(db);
  const generationsRepo = new GenerationsRepository(db);

  const { accounts, lent } = createAccountsArea(env, connections);
  const money = createMoneyArea(env, {
    db,
    logger,
    users: lent.usersRepository,
    ledger,
    generations: generationsRepo,
    scheduled,
  });
  const { work, jobQueue } = createWorkArea(env, {
    ...connections,
    usersRepo: lent.usersRepository,
    generationsRepo,
    orders: money.generationOrders,
  });
  const privacy = createPrivacyArea(env, {
    ...connections,
    jobs: jobQueue,
    usersRepo: lent.usersRepository,
    passwords: lent.passwords,
    revocations: accounts.revocations,
    servedImages: work.servedImages,
    refreshGrace: lent.refreshGrace,
    authLimits: lent.authLimits,
    paymentProvider: money.paymentProvider,
  });

  const admin = createAdminArea(env, {
    db,
    redis,
    bullPrefix,
    usersRepo: lent.usersRepository,
    revocations: accounts.revocations,
    queue: work.queue,
  });

  return {
    ...accounts,
    ...money,
    ...work,
    ...privacy,
    ...admin,
    passwords: lent.passwords,
    env,
    logger,
    db,
    redis,
    storage,
    scheduled,
    metrics: new FleetMetrics(jobQueue, ledger),
    health: new HealthService(
      db,
      redis,
      env.APP_VERSION,
      productionWarnings(env),
      env.DEBUG_PROMPTS,
    ),
    async start() {
      await Promise.all([
        accounts.userCache.start(),
        accounts.revocations.start(),
        work.withdrawnImages.start(),
        work.taskEvents.start(),
      ]);
      // A task committed just before the API stopped may never have reached the queue.
      const requeued = await work.queue.requeueWaiting();
      if (requeued > 0) logger.info({ requeued }, 'queued tasks waiting in the database');
      // Likewise an export asked for just before.
      await privacy.exports.requeueUnfinished();
      // The deletions run in every API process: their handlers are registered with the privacy
      // area; the timed work's come when main.ts registers it.
      scheduled.start();
      // And a deletion asked for just before: its account is already closed, the rest follows.
      await privacy.deletions.accounts.resumeUnfinished();
    },
    async close() {
      await Promise.allSettled([
        accounts.userCache.close(),
        accounts.revocations.close(),
        work.withdrawnImages.close(),
        work.taskEvents.close(),
      ]);
      await Promise.allSettled([jobQueue.close(), scheduled.close(), admin.consoleQueues.close()]);
      await Promise.allSettled([db.destroy(), redis.quit(), storage.close()]);
    },
  };
}
