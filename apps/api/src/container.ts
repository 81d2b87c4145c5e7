import { createDb, type Db } from '@studioshot/db';
import { EXPORT_LINK_MINUTES, SCHEDULED_JOBS } from '@studioshot/contracts';
import { Redis } from 'ioredis';
import { productionWarnings, type Env } from './env.js';
import type { Logger } from './logger.js';
import { createMailer, type Mailer } from './repositories/mailer.js';
import { CreditLedgerRepository } from './repositories/credit-ledger.repository.js';
import { GenerationsRepository } from './repositories/generations.repository.js';
import { JobQueueRepository } from './repositories/job-queue.repository.js';
import { createStorage, type Storage } from '@studioshot/storage';
import { TasksRepository } from './repositories/tasks.repository.js';
import { TaskEventsRepository } from './repositories/task-events.repository.js';
import { TrainingRepository } from './repositories/training.repository.js';
import { UploadsRepository } from './repositories/uploads.repository.js';
import { SessionRevocationsRepository } from './repositories/session-revocations.repository.js';
import { TokensRepository } from './repositories/tokens.repository.js';
import { UserCache } from './repositories/user-cache.js';
import { UsersRepository } from './repositories/users.repository.js';
import { ScheduledJobs } from './scheduling/scheduled-jobs.js';
import { createMoneyArea, type MoneyArea } from './money/area.js';
import { DataExportsRepository } from './repositories/data-exports.repository.js';
import { RetentionRepository } from './repositories/retention.repository.js';
import { AccountSettingsService } from './services/account-settings.service.js';
import { ExportService } from './services/export.service.js';
import { RetentionService } from './services/retention.service.js';
import { PhotoSetsRepository } from './repositories/photo-sets.repository.js';
import { PhotoSetsService } from './services/photo-sets.service.js';
import { AuthService } from './services/auth.service.js';
import { GenerationService } from './services/generation.service.js';
import { HealthService } from './services/health.service.js';
import { ImageTokens } from './services/image-tokens.js';
import { PhotoProcessingService } from './services/photo-processing.js';
import { QueueService } from './services/queue.service.js';
import { DurationEstimates } from './services/duration-estimates.js';
import { TrainingService } from './services/training.service.js';
import { UploadsService } from './services/uploads.service.js';
import { AuthRateLimits } from './services/rate-limits.js';
import { DeviceCookies } from './services/device-cookies.js';
import { PasswordHasher } from './services/passwords.js';
import { RefreshGraceRepository } from './repositories/refresh-grace.repository.js';
import type { AccessTokenConfig } from './services/tokens.js';
import { AccessCheck } from './services/access-check.js';
import { UsersService } from './services/users.service.js';
import { TASK_CANCEL_CHANNEL } from '@studioshot/contracts';
import { DeletionJobsRepository } from './repositories/deletion-jobs.repository.js';
import { DeletionRepository } from './repositories/deletion.repository.js';
import { RedisTracesRepository } from './repositories/redis-traces.repository.js';
import { AccountDeletionService } from './services/account-deletion.service.js';
import { ModelDeletionService } from './services/model-deletion.service.js';
import { PhotoSetDeletionService } from './services/photo-set-deletion.service.js';
import { WorkStopper } from './services/work-stopper.js';

/** Everything the HTTP layer needs, wired once from the environment. */
export interface Container extends MoneyArea {
  env: Env;
  logger: Logger;
  db: Db;
  redis: Redis;
  mailer: Mailer;
  accessToken: AccessTokenConfig;
  /** The one access-token check, for HTTP and /ws. */
  accessCheck: AccessCheck;
  revocations: SessionRevocationsRepository;
  auth: AuthService;
  /** bcrypt, bounded to BCRYPT_CONCURRENCY at once. */
  passwords: PasswordHasher;
  /** Sign-in, sign-up and password-reset limits. */
  authLimits: AuthRateLimits;
  /** Answers of just-rotated refresh tokens, for their grace window. */
  refreshGrace: RefreshGraceRepository;
  users: UsersService;
  userCache: UserCache;
  health: HealthService;
  /**
   * Starts the in-memory caches' feeds (profile changes, session revocations) and the task
   * events relay, and queues any training committed but not yet queued.
   */
  start(): Promise<void>;
  ledger: CreditLedgerRepository;
  storage: Storage;
  jobs: JobQueueRepository;
  uploads: UploadsService;
  /** The user's photo sets, what each holds and when its photos are purged (settings). */
  photoSets: PhotoSetsService;
  training: TrainingService;
  generation: GenerationService;
  /** Every task change, of every type: what /ws relays. */
  taskEvents: TaskEventsRepository;
  queue: QueueService;
  /**
   * Timed work on BullMQ (scheduling/scheduled-jobs.ts): jobs are added here in every process;
   * main.ts registers the handlers and starts the worker that runs them.
   */
  scheduled: ScheduledJobs;
  /** The settings page: sign-ins, password change. */
  accountSettings: AccountSettingsService;
  /** 'Download my data'. */
  exports: ExportService;
  /** Deletes what we promise not to keep (training photos, old export zips). */
  retention: RetentionService;
  /** Deleting a model, a photo set, an account: jobs of the `deletions` queue, run here. */
  deletions: {
    models: ModelDeletionService;
    photoSets: PhotoSetDeletionService;
    accounts: AccountDeletionService;
    jobs: DeletionJobsRepository;
  };
  close(): Promise<void>;
}

export function createContainer(env: Env, logger: Logger): Container {
  const db = createDb(env.DATABASE_URL, {
    max: 20,
    onIdleClientError: (error) => logger.warn({ err: error }, 'idle database connection lost'),
  });
  const redis = new Redis(env.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 3 });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const accessToken: AccessTokenConfig = {
    secret: env.JWT_SECRET,
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    ttlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
  };
  const userCache = new UserCache(env.DATABASE_URL, logger);
  const usersRepo = new UsersRepository(db, userCache);
  const revocations = new SessionRevocationsRepository(
    redis,
    env.REDIS_PREFIX,
    env.ACCESS_TOKEN_TTL_SECONDS,
  );
  const mailer = createMailer({
    db,
    logger,
    transport: env.MAIL_TRANSPORT,
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
  });
  const passwords = new PasswordHasher(env.BCRYPT_COST, env.BCRYPT_CONCURRENCY);
  const authLimits = new AuthRateLimits(redis, env.REDIS_PREFIX, {
    login: {
      perAccount: env.LOGIN_MAX_PER_ACCOUNT,
      perAccountAddress: env.LOGIN_MAX_PER_ACCOUNT_ADDRESS,
      perIp: env.LOGIN_MAX_PER_IP,
      windowSeconds: env.LOGIN_WINDOW_SECONDS,
    },
    forgot: {
      perAccountAddress: env.FORGOT_MAX_PER_ACCOUNT_ADDRESS,
      perIp: env.FORGOT_MAX_PER_IP,
      windowSeconds: env.FORGOT_WINDOW_SECONDS,
    },
    reset: { points: env.RESET_MAX_PER_IP, windowSeconds: env.FORGOT_WINDOW_SECONDS },
    register: { points: env.REGISTER_MAX_PER_IP, windowSeconds: env.REGISTER_WINDOW_SECONDS },
  });
  const refreshGrace = new RefreshGraceRepository(
    redis,
    env.REDIS_PREFIX,
    `${env.JWT_SECRET}:refresh-grace`,
    env.REFRESH_GRACE_SECONDS,
  );
  const tokensRepo = new TokensRepository(db);
  const auth = new AuthService({
    config: {
      accessToken,
      refreshTokenTtlDays: env.REFRESH_TOKEN_TTL_DAYS,
      forgotPasswordMinMs: env.FORGOT_PASSWORD_MIN_MS,
      publicUrl: env.PUBLIC_URL,
    },
    users: usersRepo,
    tokens: tokensRepo,
    revocations,
    mailer,
    limits: authLimits,
    passwords,
    devices: new DeviceCookies(`${env.JWT_SECRET}:device-cookies`),
    grace: refreshGrace,
  });
  const ledger = new CreditLedgerRepository(db);
  const generationsRepo = new GenerationsRepository(db);
  const bullPrefix = `${env.REDIS_PREFIX}bull`;
  const scheduled = new ScheduledJobs({ connection: redis, prefix: bullPrefix, logger });
  const money = createMoneyArea(env, {
    db,
    logger,
    users: usersRepo,
    ledger,
    generations: generationsRepo,
    scheduled,
  });
  const storage = createStorage(env);
  const jobs = new JobQueueRepository(redis, bullPrefix, {
    trainingAttempts: env.TRAINING_ATTEMPTS,
    generationAttempts: env.GENERATION_ATTEMPTS,
  });
  const uploadsRepo = new UploadsRepository(db);
  const imageTokens = new ImageTokens(`${env.JWT_SECRET}:images`);
  const uploads = new UploadsService({
    uploads: uploadsRepo,
    users: usersRepo,
    jobs,
    pipeline: new PhotoProcessingService(),
    store: storage,
    imageTokens,
    logger,
  });
  const trainingRepo = new TrainingRepository(db);
  const taskEvents = new TaskEventsRepository(redis, bullPrefix, logger);
  const tasksRepo = new TasksRepository(db);
  const estimates = new DurationEstimates({ tasks: tasksRepo, jobs });
  const training = new TrainingService({
    training: trainingRepo,
    tasks: tasksRepo,
    uploads: uploadsRepo,
    users: usersRepo,
    jobs,
    estimates,
    modelType: env.ENGINE_KIND,
    logger,
  });
  const generation = new GenerationService({
    generations: generationsRepo,
    orders: money.generationOrders,
    defaultEngine: env.ENGINE_KIND,
    tasks: tasksRepo,
    jobs,
    events: taskEvents,
    storage,
    imageTokens,
    waitMs: env.GENERATION_WAIT_MS,
    debugPrompts: env.DEBUG_PROMPTS,
    logger,
  });
  const queue = new QueueService({
    tasks: tasksRepo,
    estimates,
    training: trainingRepo,
    trainingService: training,
    generationService: generation,
    jobs,
    events: taskEvents,
    trainingEngine: env.ENGINE_KIND,
    noWorkerTimeoutMs: env.TASK_NO_WORKER_TIMEOUT_MS,
    gpuHourlyRate: env.GPU_HOURLY_RATE,
    alwaysOnMonthlyCost: env.ALWAYS_ON_MONTHLY_COST,
  });
  const exportsRepo = new DataExportsRepository(db);
  const exports = new ExportService({
    exports: exportsRepo,
    enqueue: (exportId) =>
      scheduled.at(SCHEDULED_JOBS.dataExport, {
        id: `export-${exportId}`,
        runAt: new Date(),
        data: { export_id: exportId },
      }),
    storage,
    links: new ImageTokens(`${env.JWT_SECRET}:exports`, EXPORT_LINK_MINUTES * 60, 1),
    logger,
  });
  const deletionsRepo = new DeletionRepository(db);
  const deletionJobs = new DeletionJobsRepository(redis, bullPrefix, logger);
  const traces = new RedisTracesRepository(redis, env.REDIS_PREFIX, bullPrefix);
  const stopper = new WorkStopper({
    db,
    jobs,
    redis,
    cancelChannel: `${env.REDIS_PREFIX}${TASK_CANCEL_CHANNEL}`,
  });
  const deletions = {
    jobs: deletionJobs,
    models: new ModelDeletionService({
      deletions: deletionsRepo,
      jobs: deletionJobs,
      stopper,
      storage,
      traces,
    }),
    photoSets: new PhotoSetDeletionService({
      deletions: deletionsRepo,
      jobs: deletionJobs,
      storage,
      traces,
    }),
    accounts: new AccountDeletionService({
      users: usersRepo,
      passwords,
      deletions: deletionsRepo,
      jobs: deletionJobs,
      revocations,
      grace: refreshGrace,
      limits: authLimits,
      provider: money.paymentProvider,
      storage,
      traces,
      stopper,
      logger,
    }),
  };
  return {
    env,
    storage,
    jobs,
    uploads,
    training,
    generation,
    taskEvents,
    queue,
    ledger,
    ...money,
    scheduled,
    accountSettings: new AccountSettingsService({
      tokens: tokensRepo,
      revocations,
      users: usersRepo,
      passwords,
      limits: authLimits,
    }),
    exports,
    retention: new RetentionService({
      retention: new RetentionRepository(db),
      exports: exportsRepo,
      storage,
      photoRetentionDays: env.PHOTO_RETENTION_DAYS,
      logger,
    }),
    photoSets: new PhotoSetsService({
      photoSets: new PhotoSetsRepository(db),
      photoRetentionDays: env.PHOTO_RETENTION_DAYS,
    }),
    deletions,
    logger,
    db,
    redis,
    mailer,
    accessToken,
    accessCheck: new AccessCheck(accessToken, revocations),
    revocations,
    auth,
    passwords,
    authLimits,
    refreshGrace,
    users: new UsersService(usersRepo),
    userCache,
    health: new HealthService(
      db,
      redis,
      env.APP_VERSION,
      productionWarnings(env),
      env.DEBUG_PROMPTS,
    ),
    async start() {
      await Promise.all([userCache.start(), revocations.start(), taskEvents.start()]);
      // A task committed just before the API stopped may never have reached the queue.
      const requeued = await queue.requeueWaiting();
      if (requeued > 0) logger.info({ requeued }, 'queued tasks waiting in the database');
      // Likewise an export asked for just before.
      await exports.requeueUnfinished();
      deletionJobs.start({
        'account.delete': ({ deletion_id }, run) => deletions.accounts.run(deletion_id, run),
        'model.delete': ({ model_id }, run) => deletions.models.run(model_id, run),
        'photo-set.delete': ({ session_id }, run) => deletions.photoSets.run(session_id, run),
      });
      // And a deletion asked for just before: its account is already closed, the rest follows.
      await deletions.accounts.resumeUnfinished();
    },
    async close() {
      await Promise.allSettled([userCache.close(), revocations.close(), taskEvents.close()]);
      await Promise.allSettled([jobs.close(), scheduled.close(), deletionJobs.close()]);
      await Promise.allSettled([db.destroy(), redis.quit(), storage.close()]);
    },
  };
}
