import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './auth.js';
import { NO_NUL_PATTERN, NUL_REFUSED } from './text.js';

// Deleting what a person gave us: a model (its files and every image made with it), a photo set,
// or the whole account. Each runs as a job of the API's one job facility (SCHEDULED_JOBS), so a
// process that dies halfway leaves work a retry finishes; the calls wait a little for the job
// and answer 200 when it finished in that time, else 202 with where it stands.

export const DELETION_STATUSES = ['deleting', 'deleted'] as const;
export type DeletionStatus = (typeof DELETION_STATUSES)[number];

/** DELETE /api/v1/models/{id}: 200 once gone, 202 while running work for it is being stopped. */
export const ZModelDeletionSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(DELETION_STATUSES),
  message: z.string(),
});
export type ModelDeletion = z.infer<typeof ZModelDeletionSchema>;

/** DELETE /api/v1/upload/sessions/{id}: the set's photos, their files and the session. */
export const ZPhotoSetDeletionSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(DELETION_STATUSES),
  message: z.string(),
});
export type PhotoSetDeletion = z.infer<typeof ZPhotoSetDeletionSchema>;

/** DELETE /api/v1/users/me: the account's password, so a borrowed session cannot do it. */
export const ZDeleteAccountRequestSchema = z.strictObject({
  password: z
    .string({ error: 'Enter your password to confirm' })
    .min(1, { error: 'Enter your password to confirm' })
    .max(PASSWORD_MAX_LENGTH)
    .regex(NO_NUL_PATTERN, NUL_REFUSED),
});
export type DeleteAccountRequest = z.infer<typeof ZDeleteAccountRequestSchema>;

/**
 * An account deletion as its page follows it. The request signs every session out at once, so
 * the page follows it without a token: GET /api/v1/account-deletions/{deletion_id} (the id is
 * random and names nothing about the person).
 */
export const ZAccountDeletionSchema = z.object({
  deletion_id: z.string().uuid(),
  status: z.enum(DELETION_STATUSES),
  /** Steps finished, of `steps_total` (progress for the page). */
  steps_done: z.number().int().min(0),
  steps_total: z.number().int().positive(),
  message: z.string(),
});
export type AccountDeletion = z.infer<typeof ZAccountDeletionSchema>;

/** What an account deletion removes, in the words the confirmation lists. */
export const ACCOUNT_DELETION_REMOVES = [
  'Your uploaded photos and every copy we made of them',
  'Your trained models and their files',
  'Every headshot you generated',
  'Your sign-ins, on every device',
  'Your profile: name, e-mail address, password, age and gender',
  'Your data exports',
  'Your subscription, which is cancelled, and your remaining credits',
] as const;

/** What is kept: the accounting, tied to an id that no longer leads to you. */
export const ACCOUNT_DELETION_KEEPS =
  'Records of payments and credit movements are kept for accounting, under an anonymous id with no name or e-mail address.';

/** The payloads of the deletion jobs (SCHEDULED_JOBS' accountDelete, modelDelete, photoSetDelete): ids only. */
export const ZAccountDeletionJobSchema = z.strictObject({ deletion_id: z.string().uuid() });
export const ZModelDeletionJobSchema = z.strictObject({ model_id: z.string().uuid() });
export const ZPhotoSetDeletionJobSchema = z.strictObject({ session_id: z.string().uuid() });
