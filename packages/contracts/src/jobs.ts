import { z } from 'zod';

/**
 * Background jobs: queue names, job names and their payloads. Payloads are small and carry ids
 * only; the handler reads everything else from Postgres and storage.
 */
export const QUEUES = {
  photoChecks: 'photo-checks',
} as const;

export const JOB_NAMES = {
  checkPhoto: 'photo.check',
  /** Re-judges a set after a photo left it (same_person depends on the others). */
  rejudgePhotoSet: 'photo.rejudge-set',
} as const;
export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

export const ZCheckPhotoJobSchema = z.strictObject({
  photo_id: z.string().uuid(),
  session_id: z.string().uuid(),
});
export type CheckPhotoJob = z.infer<typeof ZCheckPhotoJobSchema>;

export const ZRejudgePhotoSetJobSchema = z.strictObject({
  session_id: z.string().uuid(),
});
export type RejudgePhotoSetJob = z.infer<typeof ZRejudgePhotoSetJobSchema>;

export const JOB_PAYLOADS = {
  [JOB_NAMES.checkPhoto]: ZCheckPhotoJobSchema,
  [JOB_NAMES.rejudgePhotoSet]: ZRejudgePhotoSetJobSchema,
} as const satisfies Record<JobName, z.ZodType>;
