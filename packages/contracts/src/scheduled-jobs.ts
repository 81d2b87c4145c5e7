import { z } from 'zod';
import { ZDataExportJobSchema } from './account.js';
import {
  ZAccountDeletionJobSchema,
  ZModelDeletionJobSchema,
  ZPhotoSetDeletionJobSchema,
} from './deletion.js';

/**
 * The API's jobs (the `scheduled` queue, its one job facility): every job name with the schema of
 * its payload. A feature adding timed work adds its name and payload here; the API's job facility
 * refuses a job whose payload does not match, and a handler is typed by its name's payload.
 */
export const SCHEDULED_JOBS = {
  /** Subscriptions with billing due: renewed, retried, returned to free (a repeating sweep). */
  billingSweep: 'billing.sweep',
  /** One subscription's next due moment (period end, credit month, retry): a delayed job each. */
  billingRenew: 'billing.renew',
  /** Tasks waiting on a queue no worker of their engine kind serves fail, saying why. */
  unservedTasksSweep: 'tasks.unserved-sweep',
  /**
   * Paid generations whose refund their failure recorded: refunded at the provider. Added when a
   * generation ends failed, and repeating, so a refund the provider refused is tried again.
   */
  generationOrderRefunds: 'payments.refund-failed-generations',
  /** Training photos past their retention, export zips past their day. */
  retentionPurge: 'retention.purge',
  /** One 'Download my data' export, a job per request, run at once. */
  dataExport: 'data.export',
  /** Deleting an account, once per account (the job's id is the deletion's id). */
  accountDelete: 'account.delete',
  /** Deleting a model: its work stopped, its files, its traces in Redis, its rows. */
  modelDelete: 'model.delete',
  /** Deleting a photo set: its photos, their copies and checks, its rows. */
  photoSetDelete: 'photo-set.delete',
} as const;
export type ScheduledJobName = (typeof SCHEDULED_JOBS)[keyof typeof SCHEDULED_JOBS];

const ZNoPayloadSchema = z.strictObject({});

export const ZBillingRenewJobSchema = z.strictObject({ user_id: z.string().uuid() });

/** Each scheduled job's payload: ids only, the handler reads the rest from the database. */
export const SCHEDULED_JOB_PAYLOADS = {
  [SCHEDULED_JOBS.billingSweep]: ZNoPayloadSchema,
  [SCHEDULED_JOBS.billingRenew]: ZBillingRenewJobSchema,
  [SCHEDULED_JOBS.unservedTasksSweep]: ZNoPayloadSchema,
  [SCHEDULED_JOBS.generationOrderRefunds]: ZNoPayloadSchema,
  [SCHEDULED_JOBS.retentionPurge]: ZNoPayloadSchema,
  [SCHEDULED_JOBS.dataExport]: ZDataExportJobSchema,
  [SCHEDULED_JOBS.accountDelete]: ZAccountDeletionJobSchema,
  [SCHEDULED_JOBS.modelDelete]: ZModelDeletionJobSchema,
  [SCHEDULED_JOBS.photoSetDelete]: ZPhotoSetDeletionJobSchema,
} as const satisfies Record<ScheduledJobName, z.ZodType>;

export type ScheduledJobPayload<N extends ScheduledJobName> = z.infer<
  (typeof SCHEDULED_JOB_PAYLOADS)[N]
>;
