import { EXPORT_LINK_MINUTES, SCHEDULED_JOBS, TASK_CANCEL_CHANNEL } from '@studioshot/contracts';
import type { Env } from '../env.js';
import type { PaymentProvider } from '../money/payment-providers/provider.js';
import { DataExportsRepository } from '../repositories/data-exports.repository.js';
import { DeletionRepository } from '../repositories/deletion.repository.js';
import type { JobQueueRepository } from '../repositories/job-queue.repository.js';
import { RedisTracesRepository } from '../repositories/redis-traces.repository.js';
import type { RefreshGraceRepository } from '../repositories/refresh-grace.repository.js';
import { RetentionRepository } from '../repositories/retention.repository.js';
import type { ServedImages } from '../services/served-images.js';
import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ScheduledJobs } from '../scheduling/scheduled-jobs.js';
import { AccountDeletionService } from '../services/account-deletion.service.js';
import { DELETION_JOB_POLICY } from '../services/deletion-steps.js';
import { ExportService } from '../services/export.service.js';
import { ImageTokens } from '../services/image-tokens.js';
import { ModelDeletionService } from '../services/model-deletion.service.js';
import type { PasswordHasher } from '../services/passwords.js';
import { PhotoSetDeletionService } from '../services/photo-set-deletion.service.js';
import type { AuthRateLimits } from '../services/rate-limits.js';
import { RetentionService } from '../services/retention.service.js';
import { WorkStopper } from '../services/work-stopper.js';
import type { Connections } from './connections.js';

const HOUR_MS = 60 * 60_000;

/** The privacy area's slice: 'Download my data', the retention purge, and every deletion. */
export interface PrivacyArea {
  /** 'Download my data'. */
  exports: ExportService;
  /** Deletes what we promise not to keep (training photos, old export zips). */
  retention: RetentionService;
  /** Deleting a model, a photo set, an account: jobs of the one job facility, run here. */
  deletions: {
    models: ModelDeletionService;
    photoSets: PhotoSetDeletionService;
    accounts: AccountDeletionService;
  };
}

/** How the deletion jobs are retried; given to the job facility when it is made. */
export const PRIVACY_JOB_POLICIES = {
  [SCHEDULED_JOBS.accountDelete]: DELETION_JOB_POLICY,
  [SCHEDULED_JOBS.modelDelete]: DELETION_JOB_POLICY,
  [SCHEDULED_JOBS.photoSetDelete]: DELETION_JOB_POLICY,
};

/**
 * Wires the privacy area from its settings. The deletion jobs' handlers are registered here, on
 * every container: a deletion asked for runs in whichever API process takes it.
 */
export function createPrivacyArea(
  env: Env,
  shared: Connections & {
    jobs: JobQueueRepository;
    usersRepo: UsersRepository;
    passwords: PasswordHasher;
    revocations: SessionRevocationsRepository;
    servedImages: Pick<ServedImages, 'withdraw'>;
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
  const traces = new RedisTracesRepository(redis, env.REDIS_PREFIX, bullPrefix);
  const stopper = new WorkStopper({
    db,
    jobs,
    redis,
    cancelChannel: `${env.REDIS_PREFIX}${TASK_CANCEL_CHANNEL}`,
  });
  const deletions = {
    models: new ModelDeletionService({
      deletions: deletionsRepo,
      jobs: scheduled,
      stopper,
      storage,
      traces,
      servedImages: shared.servedImages,
    }),
    photoSets: new PhotoSetDeletionService({
      deletions: deletionsRepo,
      jobs: scheduled,
      storage,
      traces,
    }),
    accounts: new AccountDeletionService({
      users: usersRepo,
      passwords,
      deletions: deletionsRepo,
      jobs: scheduled,
      revocations,
      servedImages: shared.servedImages,
      grace: refreshGrace,
      limits: authLimits,
      provider: shared.paymentProvider,
      storage,
      traces,
      stopper,
      logger,
    }),
  };
  scheduled
    .handle(SCHEDULED_JOBS.accountDelete, (run) =>
      deletions.accounts.run(run.data.deletion_id, run),
    )
    .handle(SCHEDULED_JOBS.modelDelete, (run) => deletions.models.run(run.data.model_id, run))
    .handle(SCHEDULED_JOBS.photoSetDelete, (run) =>
      deletions.photoSets.run(run.data.session_id, run),
    );
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

/**
 * The privacy area's timed work: the retention purge, hourly, which deletes what the privacy page
 * says we do not keep (each run reports what it removed), and each 'Download my data' export.
 */
export async function registerPrivacyJobs(
  scheduled: ScheduledJobs,
  area: Pick<PrivacyArea, 'retention' | 'exports'>,
): Promise<void> {
  scheduled.handle(SCHEDULED_JOBS.dataExport, (run) => area.exports.runJob(run));
  await scheduled.every(SCHEDULED_JOBS.retentionPurge, { every: HOUR_MS }, () =>
    area.retention.purge(),
  );
}
