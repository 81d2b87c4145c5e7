import {
  FINAL_TASK_STATUSES,
  ENGINE_KINDS,
  MESSAGES,
  TASK_TYPES,
  taskQueueName,
  type EngineKind,
  type QueueSubmitRequest,
  type PublicWaitEstimate,
  type QueueTask,
  type TaskPriority,
  type TaskType,
  type ZCostProjectionSchema,
  type ZQueueHealthSchema,
  type ZQueueOverviewSchema,
  type ZUserQueueStatusSchema,
  type ZWaitTimeEstimateSchema,
  ZQueueGenerationParamsSchema,
} from '@studioshot/contracts';
import { queuePriority } from '@studioshot/pricing';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import type { JobQueueRepository } from '../repositories/job-queue.repository.js';
import type { Task, TasksRepository } from '../repositories/tasks.repository.js';
import type { TaskEventsRepository } from '../repositories/task-events.repository.js';
import type { TrainingRepository } from '../repositories/training.repository.js';
import { waitSeconds, type DurationEstimates } from './duration-estimates.js';
import { within } from './health.service.js';
import type { GenerationService } from './generation.service.js';
import type { TrainingService } from './training.service.js';
import { parse } from '../validation.js';

/**
 * How long the public estimate holds: its Cache-Control max-age, and how long this process keeps
 * it, so visitors' browsers, any cache between, and a crowd of signed-out visitors all cost the
 * database and Redis one read a minute.
 */
export const PUBLIC_ESTIMATE_MAX_AGE_SECONDS = 60;
/** The cost projection looks back this far and projects a month of the same. */
const PROJECTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Efficiency by savings against an always-on GPU: at least this many percent earns the rating. */
const EFFICIENCY_RATINGS = [
  [75, 'excellent'],
  [50, 'good'],
  [25, 'fair'],
] as const;
/** The monitor calls a queue degraded once a job has waited longer than this. */
const MAX_HEALTHY_WAIT_SECONDS = 60 * 60;

export type CostProjection = z.infer<typeof ZCostProjectionSchema>;
export type QueueOverview = z.infer<typeof ZQueueOverviewSchema>;
export type QueueHealth = z.infer<typeof ZQueueHealthSchema>;
export type WaitTimeEstimate = z.infer<typeof ZWaitTimeEstimateSchema>;

/** The task queue of docs/spec/calls.md#77-queue: the user's tasks and the fleet's queues. */
export class QueueService {
  /** The public estimate, read at most once per max-age (a failed read is not kept). */
  private publicEstimateCache: { until: number; estimate: Promise<PublicWaitEstimate> } | undefined;

  constructor(
    private readonly deps: {
      tasks: TasksRepository;
      estimates: DurationEstimates;
      training: TrainingRepository;
      trainingService: TrainingService;
      generationService: GenerationService;
      jobs: JobQueueRepository;
      events: TaskEventsRepository;
      /** The engine kind new trainings run on, and generations without a model (estimates are for it). */
      trainingEngine: EngineKind;
      /** A task waiting this long with no worker of its kind connected fails. */
      noWorkerTimeoutMs: number;
      gpuHourlyRate: number;
      alwaysOnMonthlyCost: number;
    },
  ) {}

  /**
   * Queues a task: a training (the same as /training/start), or a generation or batch (the same
   * as a Generate call, credits reserved, but answered at once with the task). A generation's
   * idempotency key comes from the header when the route has one, else from its params.
   */
  async submit(
    userId: string,
    request: QueueSubmitRequest,
    idempotencyKey?: string,
  ): Promise<QueueTask> {
    if (request.task_type !== 'training') {
      const params = parse(ZQueueGenerationParamsSchema, request.params);
      const id = await this.deps.generationService.accept(userId, {
        modelId: params.model_id,
        prompt: params.prompt,
        templateIds: params.template_ids ?? (params.template_id ? [params.template_id] : []),
        variant: params.variant,
        style: params.style,
        numImages: params.num_images,
        size: 1024,
        seed: params.seed,
        taskType: request.task_type,
        priority: request.priority,
        idempotencyKey: idempotencyKey ?? params.idempotency_key,
      });
      return this.task(userId, id);
    }
    const job = await this.deps.trainingService.start(userId, {
      ...request.params,
      priority: request.priority,
    });
    return this.task(userId, job.id);
  }

  async userStatus(userId: string): Promise<z.infer<typeof ZUserQueueStatusSchema>> {
    const counts = await this.deps.tasks.countsForUser(userId);
    return {
      pending_tasks: counts.waiting,
      running_tasks: counts.running,
      total_tasks: counts.total,
    };
  }

  /** One of the user's tasks, with its place in line while it waits. */
  async task(userId: string, taskId: string): Promise<QueueTask> {
    return this.toQueueTask(await this.ownedTask(userId, taskId));
  }

  /** A task and its owner, whoever that is: for relaying its changes to the owner's sockets. */
  async taskForRelay(taskId: string): Promise<{ userId: string; task: QueueTask } | undefined> {
    const task = await this.deps.tasks.findById(taskId);
    return task ? { userId: task.user_id, task: await this.toQueueTask(task) } : undefined;
  }

  /**
   * Cancels a task that has not started: its job leaves the queue first (BullMQ refuses while a
   * worker holds it, which counts as started), then the task and its model end and the training
   * slot goes back. A training that has started cannot be stopped (spec: /training/start).
   */
  async cancel(userId: string, taskId: string): Promise<QueueTask> {
    const task = await this.ownedTask(userId, taskId);
    refuseUnlessWaiting(task);
    const removal = await this.deps.jobs.removeWaitingJob(
      task.task_type,
      task.engine_kind,
      task.id,
    );
    if (removal === 'locked') throw new AppError('conflict', notCancellable(task));
    const released = await this.deps.tasks.endWaiting(task.id, {
      status: 'cancelled',
      error: 'Cancelled',
    });
    const current = await this.ownedTask(userId, taskId);
    // A worker took it between the read above and the release: answer for what it is now.
    if (!released) refuseUnlessWaiting(current);
    if (released)
      await this.deps.events.announce(task.id, { userId: task.user_id, taskType: task.task_type });
    return this.toQueueTask(current);
  }

  /**
   * What the fleet would cost for a month at the rate it really ran: GPU seconds billed by tasks
   * that finished in the last 30 days, priced per GPU hour and scaled to 30 days when the history
   * is shorter (but never from less than a day, so one early task does not project a fortune).
   */
  async costProjection(): Promise<CostProjection> {
    const { seconds, since } = await this.deps.tasks.gpuSecondsSince(PROJECTION_DAYS);
    const coveredDays = since
      ? Math.min(PROJECTION_DAYS, Math.max(1, (Date.now() - since.getTime()) / DAY_MS))
      : PROJECTION_DAYS;
    const projected = (seconds / 3600) * this.deps.gpuHourlyRate * (PROJECTION_DAYS / coveredDays);
    const alwaysOn = this.deps.alwaysOnMonthlyCost;
    const savings = Math.min(100, Math.max(0, (1 - projected / alwaysOn) * 100));
    return {
      projected_monthly_cost: roundTo(projected, 2),
      always_on_cost: alwaysOn,
      savings_percent: roundTo(savings, 1),
      efficiency_rating: EFFICIENCY_RATINGS.find(([atLeast]) => savings >= atLeast)?.[1] ?? 'poor',
      gpu_seconds_last_30_days: roundTo(seconds, 1),
      gpu_hourly_rate: this.deps.gpuHourlyRate,
    };
  }

  /**
   * How long a task submitted now would wait on the default engine kind: the waiting tasks that
   * run before it (equal or better priority) times the measured median run time of its type on
   * that kind, shared among the connected workers.
   */
  async estimateWait(type: TaskType, priority: TaskPriority): Promise<WaitTimeEstimate> {
    const kind = this.deps.trainingEngine;
    const figures = await this.deps.estimates.forNewTask(type, kind, priority);
    return {
      task_type: type,
      priority,
      engine_kind: kind,
      jobs_ahead: figures.jobsAhead,
      workers: figures.workers,
      median_duration_seconds: figures.run.medianSeconds,
      sample_size: figures.run.sampleSize,
      estimated_wait_seconds: figures.waitSeconds,
    };
  }

  /**
   * For anyone, signed in or not: a training and a generation submitted now by a new visitor (the
   * free plan's priority) on the default engine kind, the wait plus the measured median run.
   * Kept for its max-age, so its ETag holds too.
   */
  publicEstimate(now = Date.now()): Promise<PublicWaitEstimate> {
    const cached = this.publicEstimateCache;
    if (cached && cached.until > now) return cached.estimate;
    const estimate = this.readPublicEstimate();
    this.publicEstimateCache = { until: now + PUBLIC_ESTIMATE_MAX_AGE_SECONDS * 1000, estimate };
    estimate.catch(() => {
      if (this.publicEstimateCache?.estimate === estimate) this.publicEstimateCache = undefined;
    });
    return estimate;
  }

  private async readPublicEstimate(): Promise<PublicWaitEstimate> {
    const kind = this.deps.trainingEngine;
    const forWork = async (work: 'training' | 'generation') => {
      const figures = await this.deps.estimates.forNewTask(work, kind, queuePriority('free', work));
      const median = figures.run.medianSeconds;
      return {
        median_duration_seconds: median,
        sample_size: figures.run.sampleSize,
        estimated_wait_seconds: figures.waitSeconds,
        expected_seconds:
          figures.waitSeconds === null || median === null ? null : figures.waitSeconds + median,
        worker_connected: figures.workers > 0,
      };
    };
    const [training, generation] = await Promise.all([forWork('training'), forWork('generation')]);
    return {
      engine_kind: kind,
      training,
      generation,
      max_age_seconds: PUBLIC_ESTIMATE_MAX_AGE_SECONDS,
    };
  }

  async overview(): Promise<QueueOverview> {
    const queues = await Promise.all(
      taskQueues().map(async ({ type, kind }) => {
        const [counts, run] = await Promise.all([
          this.deps.jobs.counts(type, kind),
          this.deps.estimates.run(type, kind),
        ]);
        return {
          task_type: type,
          queue: taskQueueName(type, kind),
          ...counts,
          estimated_wait_seconds: waitSeconds(
            counts.waiting,
            run.medianSeconds,
            counts.workers,
            this.deps.estimates.coldStart(kind),
          ),
        };
      }),
    );
    return { queues, checked_at: new Date().toISOString() };
  }

  /**
   * Degraded when Redis does not answer, when jobs wait with no worker to take them, when a
   * running job's worker stopped renewing its lock, or when a job has waited over an hour.
   */
  async health(): Promise<QueueHealth> {
    const checkedAt = new Date().toISOString();
    let latency: number;
    try {
      latency = await within(this.deps.jobs.pingMs());
    } catch {
      return {
        status: 'degraded',
        redis: { up: false, latency_ms: null },
        queues: [],
        issues: ['Redis does not answer'],
        checked_at: checkedAt,
      };
    }
    const issues: string[] = [];
    const queues = await Promise.all(
      taskQueues().map(async ({ type, kind }) => {
        const [counts, stalled, oldest] = await Promise.all([
          this.deps.jobs.counts(type, kind),
          this.deps.jobs.stalledJobs(type, kind),
          this.deps.jobs.oldestWaitingSeconds(type, kind),
        ]);
        const name = taskQueueName(type, kind);
        if (counts.waiting > 0 && counts.workers === 0)
          issues.push(`${name}: ${counts.waiting} waiting and no worker connected`);
        if (stalled > 0) issues.push(`${name}: ${stalled} running without a live worker`);
        if (oldest !== null && oldest > MAX_HEALTHY_WAIT_SECONDS)
          issues.push(`${name}: a job has waited ${Math.round(oldest / 60)} minutes`);
        return {
          task_type: type,
          queue: name,
          workers: counts.workers,
          waiting: counts.waiting,
          active: counts.active,
          failed: counts.failed,
          stalled,
          oldest_waiting_seconds: oldest,
        };
      }),
    );
    return {
      status: issues.length === 0 ? 'healthy' : 'degraded',
      redis: { up: true, latency_ms: latency },
      queues,
      issues,
      checked_at: checkedAt,
    };
  }

  /** Queues every task still waiting in Postgres; their task ids make this idempotent. */
  async requeueWaiting(): Promise<number> {
    const waiting = await this.deps.tasks.queuedTasks();
    for (const task of waiting) {
      if (task.task_type === 'training') {
        await this.deps.jobs.enqueueTraining(task.id, task.priority, task.engine_kind);
      } else {
        await this.deps.jobs.enqueueGeneration(
          task.id,
          task.task_type,
          task.priority,
          task.engine_kind,
        );
      }
    }
    return waiting.length;
  }

  /**
   * Fails the tasks that have waited longer than the limit on a queue no worker is connected to
   * (an engine kind nobody runs, a fleet that is down), saying why; each type's effects apply (a
   * training's slot, a generation's credit, goes back). Run periodically; returns the ids failed.
   */
  async failUnservedTasks(now = new Date()): Promise<string[]> {
    const olderThan = new Date(now.getTime() - this.deps.noWorkerTimeoutMs);
    const failed: string[] = [];
    for (const { type, kind } of taskQueues()) {
      const waiting = await this.deps.tasks.waitingSince(type, kind, olderThan);
      if (waiting.length === 0) continue;
      const { workers } = await this.deps.jobs.counts(type, kind);
      if (workers > 0) continue;
      const error =
        type === 'training' ? MESSAGES.noWorkerForTraining : MESSAGES.noWorkerForGeneration;
      for (const task of waiting) {
        await this.deps.jobs.removeWaitingJob(type, kind, task.id);
        if (await this.deps.tasks.endWaiting(task.id, { status: 'failed', error })) {
          failed.push(task.id);
          await this.deps.events.announce(task.id);
        }
      }
    }
    return failed;
  }

  private async ownedTask(userId: string, taskId: string): Promise<Task> {
    const task = await this.deps.tasks.findForUser(userId, taskId);
    if (!task) throw new AppError('not_found', MESSAGES.taskNotFound);
    return task;
  }

  private async toQueueTask(task: Task): Promise<QueueTask> {
    const waiting = task.status === 'queued' || task.status === 'pending';
    const position = waiting
      ? await this.deps.jobs.waitingPosition(task.task_type, task.engine_kind, task.id)
      : null;
    return {
      id: task.id,
      task_id: task.id,
      task_type: task.task_type,
      priority: task.priority,
      status: task.status,
      progress: task.progress,
      message: task.message,
      error_message: task.error_message,
      created_at: task.created_at.toISOString(),
      started_at: task.started_at?.toISOString() ?? null,
      completed_at: task.completed_at?.toISOString() ?? null,
      position,
      estimated_completion: await this.deps.estimates.completion(task, Date.now(), position),
    };
  }
}

/** Every task queue: each task type on each engine kind. */
function taskQueues(): { type: TaskType; kind: EngineKind }[] {
  return TASK_TYPES.flatMap((type) => ENGINE_KINDS.map((kind) => ({ type, kind })));
}

function refuseUnlessWaiting(task: Task): void {
  if (FINAL_TASK_STATUSES.includes(task.status))
    throw new AppError('conflict', MESSAGES.taskNotCancellable);
  if (task.status === 'running') throw new AppError('conflict', notCancellable(task));
}

function notCancellable(task: Task): string {
  return task.task_type === 'training'
    ? MESSAGES.trainingNotCancellable
    : MESSAGES.generationNotCancellable;
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
