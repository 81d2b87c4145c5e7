import { z } from 'zod';
import { ENGINE_KINDS } from './engine.js';
import {
  ZCostProjectionSchema,
  ZPublicWaitEstimateSchema,
  ZQueueOverviewSchema,
} from './training.js';

/**
 * The ops console: the queue console (bull-board) at ADMIN_QUEUES_PATH, opened with a short-lived
 * cookie that POST /api/v1/admin/session mints for an admin, and the fleet page's figures. Every
 * address under the admin prefixes answers 404 to anyone who is not an admin.
 */
export const ADMIN_QUEUES_PATH = '/admin/queues' as const;
/** The cookie's path: the console's pages and their own calls, nothing else. */
export const ADMIN_COOKIE_PATH = '/admin' as const;
export const ADMIN_SESSION_COOKIE = 'studioshot_admin';

export const ZAdminSessionSchema = z.object({
  /** Seconds the cookie holds; the fleet page mints a fresh one each time it opens the console. */
  expires_in: z.number().int(),
  /** Where the console is. */
  console_path: z.literal(ADMIN_QUEUES_PATH),
});
export type AdminSession = z.infer<typeof ZAdminSessionSchema>;

/** A job a worker holds right now. */
export const ZFleetJobSchema = z.object({
  queue: z.string(),
  job_id: z.string(),
  job_name: z.string(),
  /** When the worker took it (ISO 8601), null when BullMQ has not said. */
  started_at: z.string().nullable(),
});

/** A worker process, by the name it gives BullMQ (its host and process id). */
export const ZFleetWorkerSchema = z.object({
  name: z.string(),
  /** The engine kind whose task queues it takes; null for a photo-checks-only worker. */
  engine_kind: z.enum(ENGINE_KINDS).nullable(),
  queues: z.array(z.string()),
  current_jobs: z.array(ZFleetJobSchema),
});
export type FleetWorker = z.infer<typeof ZFleetWorkerSchema>;

export const ZFleetSchema = z.object({
  workers: z.array(ZFleetWorkerSchema),
  /** GPU seconds billed by tasks finished since midnight UTC. */
  gpu_seconds_today: z.number(),
  cost_projection: ZCostProjectionSchema,
  wait_estimate: ZPublicWaitEstimateSchema,
  queues: ZQueueOverviewSchema.shape.queues,
  checked_at: z.string(),
});
export type Fleet = z.infer<typeof ZFleetSchema>;
