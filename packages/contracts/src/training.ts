import { z } from 'zod';
import { ENGINE_KINDS } from './engine.js';
import { requiredText, text } from './text.js';
import { ZUserModelSchema } from './upload.js';

/**
 * Training and the queue (docs/spec/calls.md#74-training, docs/spec/calls.md#77-queue). A training
 * run is a queue task of type `training`;
 * its task id is also its model's id, so /training/{id}, the jobs list and the dashboard's models
 * all speak of one id.
 */
export const TASK_TYPES = ['training', 'generation', 'batch_generation'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_PRIORITIES = ['urgent', 'high', 'normal'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
/** BullMQ runs lower numbers first. */
export const BULL_PRIORITY: Record<TaskPriority, number> = { urgent: 1, high: 5, normal: 10 };

export const TASK_STATUSES = [
  'pending',
  'queued',
  'running',
  'completed',
  'failed',
  'cancelled',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const FINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/**
 * The training job status the client reads (docs/spec/calls.md#4-states): pending, training,
 * completed, failed.
 */
export const TRAINING_STATUSES = ['pending', 'training', 'completed', 'failed'] as const;
export type TrainingStatus = (typeof TRAINING_STATUSES)[number];

/** How a training's task status reads to the client: waiting is pending, a cancelled one failed. */
export const TRAINING_STATUS_OF_TASK: Record<TaskStatus, TrainingStatus> = {
  pending: 'pending',
  queued: 'pending',
  running: 'training',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'failed',
};

export const DEFAULT_TRIGGER_WORD = 'person';

export const ZStartTrainingRequestSchema = z.strictObject({
  model_name: requiredText(80, 'Model name is required'),
  trigger_word: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_-]{1,31}$/, 'Trigger word: 2-32 letters, digits, - or _')
    .default(DEFAULT_TRIGGER_WORD),
  /** Sent by the spec's client; the server uses the signed-in user and checks it matches. */
  user_id: text(255).optional(),
  session_id: z.string().uuid('Upload session not found'),
  /** A request at most: the server queues at the plan's priority, or this one when it is lower. */
  priority: z.enum(TASK_PRIORITIES).optional(),
});
export type StartTrainingRequest = z.infer<typeof ZStartTrainingRequestSchema>;

export const ZTrainingJobSchema = z.object({
  id: z.string().uuid(),
  training_id: z.string().uuid(),
  model_id: z.string().uuid(),
  session_id: z.string().uuid().nullable(),
  model_name: z.string(),
  name: z.string(),
  status: z.enum(TRAINING_STATUSES),
  task_status: z.enum(TASK_STATUSES),
  progress: z.number().int().min(0).max(100),
  progress_percentage: z.number().int().min(0).max(100),
  message: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  estimated_completion: z.string().nullable(),
  training_photos: z.number().int(),
  error_message: z.string().nullable(),
  model_path: z.string().nullable(),
});
export type TrainingJob = z.infer<typeof ZTrainingJobSchema>;

export const ZStartTrainingResponseSchema = ZTrainingJobSchema.extend({ message: z.string() });
export type StartTrainingResponse = z.infer<typeof ZStartTrainingResponseSchema>;

/** GET /api/v1/training/jobs, newest first. */
export const ZTrainingJobsResponseSchema = z.object({ jobs: z.array(ZTrainingJobSchema) });
/** GET /api/v1/training/history: the same jobs under the name the spec's client reads. */
export const ZTrainingHistoryResponseSchema = z.object({
  training_sessions: z.array(ZTrainingJobSchema),
});

/** The Model entity (docs/spec/screens.md#3-entities), as the models lists show it. */
export type UserModel = z.infer<typeof ZUserModelSchema>;

/** GET /models/status: the user's models and where their training stands. */
export const ZModelsStatusSchema = z.object({
  models: z.array(ZUserModelSchema),
  total: z.number().int(),
  completed: z.number().int(),
  /** pending or training */
  in_progress: z.number().int(),
  failed: z.number().int(),
  models_trained: z.number().int(),
  training_limit: z.number().int(),
});
export type ModelsStatus = z.infer<typeof ZModelsStatusSchema>;

// POST /api/v1/queue/submit's body (ZQueueSubmitRequestSchema) is in generation.ts, beside its params.

export const ZQueueTaskSchema = z.object({
  id: z.string().uuid(),
  task_id: z.string().uuid(),
  task_type: z.enum(TASK_TYPES),
  priority: z.enum(TASK_PRIORITIES),
  status: z.enum(TASK_STATUSES),
  progress: z.number().int(),
  message: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** Tasks ahead of this one in its queue; null unless it waits in line (running, retrying, done). */
  position: z.number().int().nullable(),
  /**
   * When it should be done: waiting, from its place in line and the measured median run of its
   * type on its engine kind; running, from its progress so far. null when that is not known (no
   * run measured yet, no worker connected) and once it has ended.
   */
  estimated_completion: z.string().nullable(),
});
export type QueueTask = z.infer<typeof ZQueueTaskSchema>;

export const ZUserQueueStatusSchema = z.object({
  pending_tasks: z.number().int(),
  running_tasks: z.number().int(),
  total_tasks: z.number().int(),
});
export type UserQueueStatus = z.infer<typeof ZUserQueueStatusSchema>;

const ZQueueNameSchema = z.object({ task_type: z.enum(TASK_TYPES), queue: z.string() });

/** GET /api/v1/queue/status: every task queue of the fleet. */
export const ZQueueOverviewSchema = z.object({
  queues: z.array(
    ZQueueNameSchema.extend({
      /** Waiting to run, every priority. */
      waiting: z.number().int(),
      active: z.number().int(),
      /** Backing off before a retry. */
      delayed: z.number().int(),
      /** Still kept in Redis (completed jobs are kept a day, failed ones a week). */
      completed: z.number().int(),
      failed: z.number().int(),
      workers: z.number().int(),
      /**
       * For a task submitted now behind every waiting one, at this engine kind's measured median
       * run; null while no worker is connected, or while tasks wait and no run was measured.
       */
      estimated_wait_seconds: z.number().int().nullable(),
    }),
  ),
  checked_at: z.string(),
});
export type QueueOverview = z.infer<typeof ZQueueOverviewSchema>;

/** GET /api/v1/queue/monitor/health: 200 when healthy, 503 when degraded. */
export const ZQueueHealthSchema = z.object({
  status: z.enum(['healthy', 'degraded']),
  redis: z.object({ up: z.boolean(), latency_ms: z.number().nullable() }),
  queues: z.array(
    ZQueueNameSchema.extend({
      workers: z.number().int(),
      waiting: z.number().int(),
      active: z.number().int(),
      failed: z.number().int(),
      /** Running jobs whose worker stopped renewing their lock (it died or hangs). */
      stalled: z.number().int(),
      oldest_waiting_seconds: z.number().int().nullable(),
    }),
  ),
  /** Why the status is degraded, in words; empty when healthy. */
  issues: z.array(z.string()),
  checked_at: z.string(),
});

/** GET /api/v1/queue/estimate/wait-time/{task_type}/{priority}. */
export const ZWaitTimeEstimateSchema = z.object({
  task_type: z.enum(TASK_TYPES),
  priority: z.enum(TASK_PRIORITIES),
  /** The engine kind the estimate is for: the one new trainings run on. */
  engine_kind: z.enum(ENGINE_KINDS),
  /** Waiting tasks of equal or better priority: they run first. */
  jobs_ahead: z.number().int(),
  workers: z.number().int(),
  /**
   * Median run time of recent completed tasks of this type on this engine kind; null while none
   * has been measured (the client then says the spec's words, not an invented figure).
   */
  median_duration_seconds: z.number().int().nullable(),
  /** How many completed runs the median is taken over (0: nothing measured). */
  sample_size: z.number().int(),
  /** null while no worker is connected, or while tasks are ahead and no run has been measured. */
  estimated_wait_seconds: z.number().int().nullable(),
});

/** One kind of work in the public estimate, for a new visitor's task submitted now. */
export const ZPublicDurationSchema = z.object({
  /** Median run time of recent completed tasks; null while none has been measured. */
  median_duration_seconds: z.number().int().nullable(),
  /** How many completed runs the median is taken over (0: nothing measured). */
  sample_size: z.number().int(),
  /** Until it would start; null while no worker is connected or the wait cannot be told. */
  estimated_wait_seconds: z.number().int().nullable(),
  /** The wait plus a typical run; null unless both are known. */
  expected_seconds: z.number().int().nullable(),
  /** Whether a worker that would run it is connected. */
  worker_connected: z.boolean(),
});

/**
 * GET /api/v1/queue/estimate/public: how long training and generation take now on the default
 * engine kind, from measured durations. No sign-in; cacheable for `max_age_seconds`.
 */
export const ZPublicWaitEstimateSchema = z.object({
  engine_kind: z.enum(ENGINE_KINDS),
  training: ZPublicDurationSchema,
  generation: ZPublicDurationSchema,
  /** The figures hold this long (the answer's Cache-Control max-age). */
  max_age_seconds: z.number().int(),
});
export type PublicWaitEstimate = z.infer<typeof ZPublicWaitEstimateSchema>;

export const ZCostProjectionSchema = z.object({
  projected_monthly_cost: z.number(),
  always_on_cost: z.number(),
  savings_percent: z.number(),
  efficiency_rating: z.enum(['excellent', 'good', 'fair', 'poor']),
  gpu_seconds_last_30_days: z.number(),
  gpu_hourly_rate: z.number(),
});
