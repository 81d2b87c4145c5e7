import { z } from 'zod';
import { TASK_STATUSES } from './training.js';

/**
 * Background jobs: queue names, job names and their payloads. Payloads are small and carry ids
 * only; the handler reads everything else from Postgres and storage.
 */
export const QUEUES = {
  photoChecks: 'photo-checks',
  /** One per task type of spec 7.7; a GPU worker consumes them. */
  training: 'training',
  generation: 'generation',
  batchGeneration: 'batch-generation',
} as const;

/** The queue each task type of spec 7.7 runs on. */
export const TASK_QUEUES = {
  training: QUEUES.training,
  generation: QUEUES.generation,
  batch_generation: QUEUES.batchGeneration,
} as const;

export const JOB_NAMES = {
  checkPhoto: 'photo.check',
  /** Re-judges a set after a photo left it (same_person depends on the others). */
  rejudgePhotoSet: 'photo.rejudge-set',
  /** Trains a personal model; the task id is the model id. */
  trainModel: 'model.train',
} as const;
export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** The one queue each job type is produced to and consumed from. */
export const JOB_QUEUE = {
  [JOB_NAMES.checkPhoto]: QUEUES.photoChecks,
  [JOB_NAMES.rejudgePhotoSet]: QUEUES.photoChecks,
  [JOB_NAMES.trainModel]: QUEUES.training,
} as const satisfies Record<JobName, QueueName>;

export const ZCheckPhotoJobSchema = z.strictObject({
  photo_id: z.string().uuid(),
  session_id: z.string().uuid(),
});
export type CheckPhotoJob = z.infer<typeof ZCheckPhotoJobSchema>;

export const ZRejudgePhotoSetJobSchema = z.strictObject({
  session_id: z.string().uuid(),
});
export type RejudgePhotoSetJob = z.infer<typeof ZRejudgePhotoSetJobSchema>;

export const ZTrainModelJobSchema = z.strictObject({
  task_id: z.string().uuid(),
});
export type TrainModelJob = z.infer<typeof ZTrainModelJobSchema>;

export const JOB_PAYLOADS = {
  [JOB_NAMES.checkPhoto]: ZCheckPhotoJobSchema,
  [JOB_NAMES.rejudgePhotoSet]: ZRejudgePhotoSetJobSchema,
  [JOB_NAMES.trainModel]: ZTrainModelJobSchema,
} as const satisfies Record<JobName, z.ZodType>;

/**
 * Redis pub/sub channel, after the deployment's REDIS_PREFIX, on which a task id is published to
 * stop that task's engine on whichever worker runs it.
 */
export const TASK_CANCEL_CHANNEL = 'task-cancel';

/**
 * What a task's worker reports with BullMQ's `job.updateProgress`, after the task row already
 * says the same (the API relays the event and may read the row).
 */
export const ZTaskProgressSchema = z.strictObject({
  task_id: z.string().uuid(),
  user_id: z.string().uuid(),
  progress: z.number().int().min(0).max(100),
  message: z.string(),
  status: z.enum(TASK_STATUSES),
});
export type TaskProgress = z.infer<typeof ZTaskProgressSchema>;
