import { SCHEDULED_JOBS } from '@studioshot/contracts';
import type { Redis } from 'ioredis';
import type { Env } from '../env.js';
import type { GenerationOrdersService } from '../money/generation-orders.service.js';
import type { GenerationsRepository } from '../repositories/generations.repository.js';
import { JobQueueRepository } from '../repositories/job-queue.repository.js';
import { PhotoSetsRepository } from '../repositories/photo-sets.repository.js';
import { TaskEventsRepository } from '../repositories/task-events.repository.js';
import { TasksRepository } from '../repositories/tasks.repository.js';
import { TrainingRepository } from '../repositories/training.repository.js';
import { UploadsRepository } from '../repositories/uploads.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ScheduledJobs } from '../scheduling/scheduled-jobs.js';
import { DurationEstimates } from '../services/duration-estimates.js';
import { GenerationService } from '../services/generation.service.js';
import { ImageTokens } from '../services/image-tokens.js';
import { ServedImages } from '../services/served-images.js';
import { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import { PhotoProcessingService } from '../services/photo-processing.js';
import { PhotoSetsService } from '../services/photo-sets.service.js';
import { QueueService } from '../services/queue.service.js';
import { TrainingService } from '../services/training.service.js';
import { UploadsService } from '../services/uploads.service.js';
import type { Connections } from './connections.js';

/** The work area's slice: photos in, training, generation, the queue and its events. */
export interface WorkArea {
  uploads: UploadsService;
  /** The user's photo sets, what each holds and when its photos are purged (settings). */
  photoSets: PhotoSetsService;
  training: TrainingService;
  generation: GenerationService;
  /** Every task change, of every type: what /ws relays. */
  taskEvents: TaskEventsRepository;
  queue: QueueService;
  /** The generated images as serving finds them; deletions withdraw theirs in every process. */
  servedImages: ServedImages;
  /** The announced set behind `servedImages`: started and closed with the process. */
  withdrawnImages: SessionRevocationsRepository;
}

/** The task queues the workers consume, as the deployment sets their attempts. */
export function jobQueueOf(env: Env, redis: Redis, bullPrefix: string): JobQueueRepository {
  return new JobQueueRepository(redis, bullPrefix, {
    trainingAttempts: env.TRAINING_ATTEMPTS,
    generationAttempts: env.GENERATION_ATTEMPTS,
  });
}

/** Wires the work area from its settings; `jobQueue` (the workers' task queues) is lent to privacy. */
export function createWorkArea(
  env: Env,
  shared: Omit<Connections, 'scheduled'> & {
    usersRepo: UsersRepository;
    generationsRepo: GenerationsRepository;
    orders: Pick<GenerationOrdersService, 'generationOrder' | 'unusedGenerationOrder'>;
  },
): { work: WorkArea; jobQueue: JobQueueRepository } {
  const { db, redis, logger, storage, bullPrefix, usersRepo, generationsRepo } = shared;
  const jobs = jobQueueOf(env, redis, bullPrefix);
  const uploadsRepo = new UploadsRepository(db);
  const imageTokens = new ImageTokens(`${env.JWT_SECRET}:images`);
  // Announced the way sign-ins are revoked, under a prefix of their own; kept as long as a token
  // signed before the withdrawal can live.
  const withdrawnImages = new SessionRevocationsRepository(
    redis,
    `${env.REDIS_PREFIX}withdrawn-images:`,
    imageTokens.maxLifetimeSeconds,
  );
  const servedImages = new ServedImages({
    findImage: (imageId) => generationsRepo.findImage(imageId),
    withdrawn: withdrawnImages,
  });
  const uploads = new UploadsService({
    uploads: uploadsRepo,
    users: usersRepo,
    jobs,
    pipeline: new PhotoProcessingService(),
    store: storage,
    imageTokens,
    checksWaitMs: env.UPLOAD_CHECKS_WAIT_MS,
    logger,
  });
  const trainingRepo = new TrainingRepository(db);
  const taskEvents = new TaskEventsRepository(redis, bullPrefix, logger);
  const tasksRepo = new TasksRepository(db);
  const estimates = new DurationEstimates({
    tasks: tasksRepo,
    jobs,
    coldStartSeconds: env.ENGINE_COLD_START_SECONDS,
  });
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
    orders: shared.orders,
    defaultEngine: env.ENGINE_KIND,
    tasks: tasksRepo,
    jobs,
    events: taskEvents,
    storage,
    imageTokens,
    servedImages,
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
  const work: WorkArea = {
    uploads,
    photoSets: new PhotoSetsService({
      photoSets: new PhotoSetsRepository(db),
      photoRetentionDays: env.PHOTO_RETENTION_DAYS,
    }),
    training,
    generation,
    taskEvents,
    queue,
    servedImages,
    withdrawnImages,
  };
  return { work, jobQueue: jobs };
}

/** The work area's timed work: every minute, tasks no worker of their engine kind serves fail. */
export async function registerWorkJobs(
  scheduled: ScheduledJobs,
  area: Pick<WorkArea, 'queue'> & { logger: Connections['logger'] },
): Promise<void> {
  await scheduled.every(SCHEDULED_JOBS.unservedTasksSweep, { every: 60_000 }, async () => {
    const failed = await area.queue.failUnservedTasks();
    if (failed.length > 0) area.logger.warn({ failed }, 'failed tasks no worker could run');
  });
}
