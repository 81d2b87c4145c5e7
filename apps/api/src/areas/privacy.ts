import { EXPORT_LINK_MINUTES, SCHEDULED_JOBS, TASK_CANCEL_CHANNEL } from '@studioshot/contracts';
import type { Db } from '@studioshot/db';
import type { Storage } from '@studioshot/storage';
import type { Redis } from 'ioredis';
import type { Env } from '../env.js';
import type { Logger } from '../logger.js';
import type { PaymentProvider } from '../money/payment-providers/provider.js';
import { DataExportsRepository } from '../repositories/data-exports.repository.js';
import { DeletionJobsRepository } from '../repositories/deletion-jobs.repository.js';
import { DeletionRepository } from '../repositories/deletion.repository.js';
import type { JobQueueRepository } from '../repositories/job-queue.repository.js';
import { RedisTracesRepository } from '../repositories/redis-traces.repository.js';
import type { RefreshGraceRepository } from '../repositories/refresh-grace.repository.js';
import { RetentionRepository } from '../repositories/retention.repository.js';
import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ScheduledJobs } from '../scheduling/scheduled-jobs.js';
import { AccountDeletionService } from '../services/account-deletion.service.js';
import { ExportService } from '../services/export.service.js';
import { ImageTokens } from '../services/image-tokens.js';
import { ModelDeletionService } from '../services/model-deletion.service.js';
import type { PasswordHasher } from '../services/passwords.js';
import { PhotoSetDeletionService } from '../services/photo-set-deletion.service.js';
import type { AuthRateLimits } from '../services/rate-limits.js';
import { RetentionService } from '../services/retention.service.js';
import { WorkStopper } from '../services/work-stopper.js';

/** The privacy area's slice: 'Download my data', the retention purge, and every deletion. */
export interface PrivacyArea {
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
}

/** Wires the privacy area from its settings. */
export function createPrivacyArea(
  env: Env,
  shared: {
    db: Db;
    redis: Redis;
    logger: Logger;
    storage: Storage;
    bullPrefix: string;
    scheduled: ScheduledJobs;
    jobs: JobQueueRepository;
    usersRepo: UsersRepository;
    passwords: PasswordHasher;
    revocations: SessionRevocationsRepository;
    refreshGrace: RefreshGraceRepository;
    authLimits: AuthRateLimits;
    paymentProvider: PaymentProvider;
  },
): PrivacyArea {
  const { db, redis, logger, storage, bullPrefix, scheduled, jobs, usersRepo } = shared;
  const { passwords, revocations, refreshGrace, authLimits } = shared;
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
      provider: shared.paymentProvider,
      storage,
      traces,
      stopper,
      logger,
    }),
  };
  return {
    exports,
    retention: new RetentionService({
      retention: new RetentionRepository(db),
      exports: exportsRepo,
      storage,
      photoRetentionDays: env.PHOTO_RETENTION_DAYS,
      logger,
    }),
    deletions,
  };
}
