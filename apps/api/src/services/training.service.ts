import {
  MESSAGES,
  MIN_PHOTOS,
  type EngineKind,
  type ErrorCode,
  type ModelsStatus,
  type StartTrainingRequest,
  type StartTrainingResponse,
  TRAINING_STATUS_OF_TASK,
  type TrainingJob,
} from '@studioshot/contracts';
import { queuePriority } from '@studioshot/pricing';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { JobQueueRepository } from '../repositories/job-queue.repository.js';
import type { TasksRepository } from '../repositories/tasks.repository.js';
import type {
  CreateTrainingOutcome,
  TrainingJobRow,
  TrainingRepository,
} from '../repositories/training.repository.js';
import type { UploadsRepository } from '../repositories/uploads.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { DurationEstimates } from './duration-estimates.js';
import { toUserModel } from './uploads.service.js';

/** What a training says until a worker takes it. */
const QUEUED_MESSAGE = 'Waiting for a GPU worker';

type Refusal = Extract<CreateTrainingOutcome, { created: false }>['reason'];
const REFUSALS: Record<Refusal, [ErrorCode, string]> = {
  session_not_found: ['not_found', MESSAGES.sessionNotFound],
  session_not_ready: ['conflict', MESSAGES.sessionNotReady],
  session_already_trained: ['conflict', MESSAGES.sessionAlreadyTrained],
  too_few_photos: ['conflict', MESSAGES.minPhotos],
  // The same eligibility answers as creating an upload session.
  no_plan: ['forbidden', MESSAGES.planRequired],
  limit_reached: ['forbidden', MESSAGES.trainingLimit],
};

export class TrainingService {
  constructor(
    private readonly deps: {
      training: TrainingRepository;
      tasks: TasksRepository;
      uploads: UploadsRepository;
      users: UsersRepository;
      jobs: JobQueueRepository;
      /** A job's estimated completion, waiting or running. */
      estimates: DurationEstimates;
      /** The engine that will train: recorded as the model's model_type. */
      modelType: EngineKind;
      logger: Logger;
    },
  ) {}

  /**
   * Starts training a model on a completed upload session: every way in (training start,
   * /models/start-training, queue submit, start-queued) ends here. The rows are committed before
   * the job is queued; should queueing fail the training is released again (slot included) and
   * the caller told to retry, and should the API stop in between, `requeueWaiting` at the next
   * start queues it.
   */
  async start(userId: string, request: StartTrainingRequest): Promise<StartTrainingResponse> {
    if (request.user_id !== undefined && request.user_id !== userId)
      throw new AppError('forbidden', MESSAGES.trainingForAnotherUser);
    const user = await this.deps.users.findById(userId);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    // The plan decides; the client may only ask for less.
    const priority = queuePriority(user.plan_type, 'training', request.priority);
    const outcome = await this.deps.training.create({
      userId,
      sessionId: request.session_id,
      name: request.model_name,
      triggerWord: request.trigger_word,
      modelType: this.deps.modelType,
      priority,
      message: QUEUED_MESSAGE,
      minPhotos: MIN_PHOTOS,
    });
    if (!outcome.created) throw new AppError(...REFUSALS[outcome.reason]);
    try {
      await this.deps.jobs.enqueueTraining(outcome.taskId, priority, this.deps.modelType);
    } catch (error) {
      this.deps.logger.error({ err: error, taskId: outcome.taskId }, 'could not queue a training');
      // Should the release fail too, the task stays queued and the next start queues it.
      await this.deps.tasks
        .endWaiting(outcome.taskId, { status: 'failed', error: MESSAGES.queueInitializing })
        .catch((releaseError: unknown) =>
          this.deps.logger.error(
            { err: releaseError, taskId: outcome.taskId },
            'could not release an unqueued training',
          ),
        );
      throw new AppError('service_unavailable', MESSAGES.queueInitializing);
    }
    const job = await this.job(userId, outcome.taskId);
    return { ...job, message: job.message ?? QUEUED_MESSAGE };
  }

  async jobs(userId: string): Promise<TrainingJob[]> {
    const rows = await this.deps.training.listJobs(userId);
    const now = Date.now();
    return Promise.all(rows.map((row) => this.toJob(row, now)));
  }

  /** One of the user's jobs, by its id or by the id of the upload session it trains on. */
  async job(userId: string, taskOrSessionId: string): Promise<TrainingJob> {
    const [row] = await this.deps.training.listJobs(userId, { taskOrSessionId });
    if (!row) throw new AppError('not_found', MESSAGES.trainingNotFound);
    return this.toJob(row, Date.now());
  }

  /** The named job, else the user's latest. */
  async latest(userId: string, trainingId?: string): Promise<TrainingJob> {
    if (trainingId) return this.job(userId, trainingId);
    const [row] = await this.deps.training.listJobs(userId);
    if (!row) throw new AppError('not_found', MESSAGES.trainingNotFound);
    return this.toJob(row, Date.now());
  }

  /** A job and its owner, whoever that is: for relaying changes to the owner's sockets only. */
  async jobForRelay(taskId: string): Promise<{ userId: string; job: TrainingJob } | undefined> {
    const row = await this.deps.training.findJob(taskId);
    return row ? { userId: row.user_id, job: await this.toJob(row, Date.now()) } : undefined;
  }

  /** A job as the client reads it, with when it should be done (queued ones included). */
  private async toJob(row: TrainingJobRow, now: number): Promise<TrainingJob> {
    const completion = await this.deps.estimates.completion({ ...row, task_type: 'training' }, now);
    return toTrainingJob(row, completion);
  }

  async modelsStatus(userId: string): Promise<ModelsStatus> {
    const [user, models] = await Promise.all([
      this.deps.users.findByIdForDisplay(userId),
      this.deps.uploads.listModels(userId),
    ]);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    const count = (...statuses: string[]) =>
      models.filter((m) => statuses.includes(m.status)).length;
    return {
      models: models.map(toUserModel),
      total: models.length,
      completed: count('completed'),
      in_progress: count('pending', 'training'),
      failed: count('failed'),
      models_trained: user.models_trained,
      training_limit: user.training_limit,
    };
  }
}

export function toTrainingJob(
  row: TrainingJobRow,
  estimatedCompletion: string | null,
): TrainingJob {
  return {
    id: row.id,
    training_id: row.id,
    model_id: row.id,
    session_id: row.session_id,
    model_name: row.model_name,
    name: row.model_name,
    status: TRAINING_STATUS_OF_TASK[row.status],
    task_status: row.status,
    progress: row.progress,
    progress_percentage: row.progress,
    message: row.message,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    completed_at: row.completed_at?.toISOString() ?? null,
    estimated_completion: estimatedCompletion,
    training_photos: row.training_photos,
    error_message: row.error_message,
    model_path: row.artifact_key,
  };
}
