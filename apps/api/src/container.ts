import { createDb, type Db } from '@studioshot/db';
import { createStorage, type Storage } from '@studioshot/storage';
import { Redis } from 'ioredis';
import { createAccountsArea, type AccountsArea } from './areas/accounts.js';
import { createPrivacyArea, type PrivacyArea } from './areas/privacy.js';
import { createWorkArea, type WorkArea } from './areas/work.js';
import { productionWarnings, type Env } from './env.js';
import type { Logger } from './logger.js';
import { createMoneyArea, type MoneyArea } from './money/area.js';
import { CreditLedgerRepository } from './repositories/credit-ledger.repository.js';
import { GenerationsRepository } from './repositories/generations.repository.js';
import { ScheduledJobs } from './scheduling/scheduled-jobs.js';
import { HealthService } from './services/health.service.js';

/**
 * Everything the HTTP layer needs, wired once from the environment: the shared connections, then
 * each area's slice (accounts, money, work, privacy), each wired from its own settings.
 */
export interface Container extends AccountsArea, MoneyArea, WorkArea, PrivacyArea {
  env: Env;
  logger: Logger;
  db: Db;
  redis: Redis;
  storage: Storage;
  health: HealthService;
  /**
   * Timed work on BullMQ (scheduling/scheduled-jobs.ts): jobs are added here in every process;
   * main.ts registers the handlers and starts the worker that runs them.
   */
  scheduled: ScheduledJobs;
  /**
   * Starts the in-memory caches' feeds (profile changes, session revocations) and the task
   * events relay, and queues any training committed but not yet queued.
   */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createContainer(env: Env, logger: Logger): Container {
  const db = createDb(env.DATABASE_URL, {
    max: 20,
    onIdleClientError: (error) => logger.warn({ err: error }, 'idle database connection lost'),
  });
  const redis = new Redis(env.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 3 });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const storage = createStorage(env);
  const bullPrefix = `${env.REDIS_PREFIX}bull`;
  const scheduled = new ScheduledJobs({ connection: redis, prefix: bullPrefix, logger });
  const ledger = new CreditLedgerRepository(db);
  const generationsRepo = new GenerationsRepository(db);

  const { accounts, usersRepository: usersRepo } = createAccountsArea(env, { db, redis, logger });
  const money = createMoneyArea(env, {
    db,
    logger,
    users: usersRepo,
    ledger,
    generations: generationsRepo,
    scheduled,
  });
  const work = createWorkArea(env, {
    db,
    redis,
    logger,
    storage,
    bullPrefix,
    usersRepo,
    generationsRepo,
    orders: money.generationOrders,
  });
  const privacy = createPrivacyArea(env, {
    db,
    redis,
    logger,
    storage,
    bullPrefix,
    scheduled,
    jobs: work.jobs,
    usersRepo,
    passwords: accounts.passwords,
    revocations: accounts.revocations,
    refreshGrace: accounts.refreshGrace,
    authLimits: accounts.authLimits,
    paymentProvider: money.paymentProvider,
  });
  const { deletions } = privacy;

  return {
    ...accounts,
    ...money,
    ...work,
    ...privacy,
    env,
    logger,
    db,
    redis,
    storage,
    scheduled,
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
        work.taskEvents.start(),
      ]);
      // A task committed just before the API stopped may never have reached the queue.
      const requeued = await work.queue.requeueWaiting();
      if (requeued > 0) logger.info({ requeued }, 'queued tasks waiting in the database');
      // Likewise an export asked for just before.
      await privacy.exports.requeueUnfinished();
      deletions.jobs.start({
        'account.delete': ({ deletion_id }, run) => deletions.accounts.run(deletion_id, run),
        'model.delete': ({ model_id }, run) => deletions.models.run(model_id, run),
        'photo-set.delete': ({ session_id }, run) => deletions.photoSets.run(session_id, run),
      });
      // And a deletion asked for just before: its account is already closed, the rest follows.
      await deletions.accounts.resumeUnfinished();
    },
    async close() {
      await Promise.allSettled([
        accounts.userCache.close(),
        accounts.revocations.close(),
        work.taskEvents.close(),
      ]);
      await Promise.allSettled([work.jobs.close(), scheduled.close(), deletions.jobs.close()]);
      await Promise.allSettled([db.destroy(), redis.quit(), storage.close()]);
    },
  };
}
