import {
  IDEMPOTENCY_KEY_HEADER,
  MESSAGES,
  TASK_PRIORITIES,
  TASK_TYPES,
  ZCostProjectionSchema,
  ZIdempotencyKeySchema,
  ZPublicWaitEstimateSchema,
  ZQueueHealthSchema,
  ZQueueOverviewSchema,
  ZQueueSubmitRequestSchema,
  ZQueueTaskSchema,
  ZStartQueuedGenerationRequestSchema,
  ZStartTrainingRequestSchema,
  ZUserQueueStatusSchema,
  ZWaitTimeEstimateSchema,
} from '@studioshot/contracts';
import etag from 'etag';
import { z } from 'zod';
import { reply, type DeclaringRouter } from '../http/declare.js';
import { PUBLIC_ESTIMATE_MAX_AGE_SECONDS, type QueueService } from '../services/queue.service.js';

/** A malformed id names no task: answered like a missing one. */
const taskParams = z.object({ id: z.uuid() });
const notFoundTask = { params: MESSAGES.taskNotFound };

/** The Idempotency-Key header of a generation (contracts: generation.ts). */
const idempotencyHeader = z.object({
  [IDEMPOTENCY_KEY_HEADER]: ZIdempotencyKeySchema.optional().describe(
    'A fresh key per generation: a repeat answers the first and reserves nothing more',
  ),
});

/**
 * docs/spec/calls.md#77-queue: every call needs a signed-in user, but the public estimate the
 * landing page shows.
 */
export function queueRoutes(api: DeclaringRouter, queue: QueueService): void {
  api.route(
    {
      method: 'get',
      path: '/api/v1/queue/user/status',
      summary: "The user's pending, running and total tasks",
      tag: 'queue',
      auth: 'required',
      responses: { 200: ZUserQueueStatusSchema },
    },
    ({ userId }) => queue.userStatus(userId),
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/queue/submit',
      summary:
        'Queue a task: a training, or a generation or batch_generation (params: QueueGenerationParams)',
      description:
        'A generation reserves its credits and needs an Idempotency-Key header (or params.idempotency_key). The task is queued at the priority of the plan (a `priority` sent can only lower it).',
      tag: 'queue',
      auth: 'required',
      headers: idempotencyHeader,
      body: ZQueueSubmitRequestSchema,
      responses: { 201: ZQueueTaskSchema },
      errors: [402, 403, 404, 409, 503],
    },
    ({ userId, body, headers }) => queue.submit(userId, body, headers[IDEMPOTENCY_KEY_HEADER]),
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/queue/training/start-queued',
      summary: 'Queue a training with a priority',
      tag: 'queue',
      auth: 'required',
      body: ZStartTrainingRequestSchema,
      responses: { 201: ZQueueTaskSchema },
      errors: [403, 404, 409, 503],
    },
    ({ userId, body }) =>
      queue.submit(userId, { task_type: 'training', priority: body.priority, params: body }),
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/queue/generation/start-queued',
      summary:
        'Queue a generation or batch_generation (credits reserved); answers the task at once',
      tag: 'queue',
      auth: 'required',
      headers: idempotencyHeader,
      body: { schema: ZStartQueuedGenerationRequestSchema, whenAbsent: {} },
      responses: { 201: ZQueueTaskSchema },
      errors: [402, 404, 409, 503],
    },
    ({ userId, body, headers }) => {
      const { task_type, priority, ...params } = body;
      return queue.submit(userId, { task_type, priority, params }, headers[IDEMPOTENCY_KEY_HEADER]);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/queue/status/:id',
      summary: "One of the user's tasks, with its place in line",
      tag: 'queue',
      auth: 'required',
      params: taskParams,
      notFound: notFoundTask,
      responses: { 200: ZQueueTaskSchema },
    },
    ({ userId, params }) => queue.task(userId, params.id),
  );

  api.route(
    {
      method: 'delete',
      path: '/api/v1/queue/cancel/:id',
      summary: 'Cancel a task that has not started (its training slot or credits come back)',
      tag: 'queue',
      auth: 'required',
      params: taskParams,
      notFound: notFoundTask,
      responses: { 200: ZQueueTaskSchema },
      errors: [409],
    },
    ({ userId, params }) => queue.cancel(userId, params.id),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/queue/status',
      summary: 'Every task queue: counts, workers, estimated wait',
      tag: 'queue',
      auth: 'required',
      responses: { 200: ZQueueOverviewSchema },
    },
    () => queue.overview(),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/queue/monitor/health',
      summary: 'Queue health',
      tag: 'queue',
      auth: 'required',
      responses: {
        200: { schema: ZQueueHealthSchema, description: 'Healthy' },
        503: { schema: ZQueueHealthSchema, description: 'Degraded (same body; `issues` says why)' },
      },
    },
    async () => {
      const health = await queue.health();
      return health.status === 'healthy' ? health : reply(503, health);
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/queue/cost/projection',
      summary: 'Monthly GPU cost at the rate the fleet really ran, against an always-on GPU',
      tag: 'queue',
      auth: 'required',
      responses: { 200: ZCostProjectionSchema },
    },
    () => queue.costProjection(),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/queue/estimate/wait-time/:task_type/:priority',
      summary: 'How long a task of this type and priority would wait if submitted now',
      tag: 'queue',
      auth: 'required',
      params: z.object({ task_type: z.enum(TASK_TYPES), priority: z.enum(TASK_PRIORITIES) }),
      notFound: { params: MESSAGES.unknownWaitEstimate },
      responses: { 200: ZWaitTimeEstimateSchema },
    },
    ({ params }) => queue.estimateWait(params.task_type, params.priority),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/queue/estimate/public',
      summary: 'How long a training and a generation take now, for anyone (no sign-in)',
      description: `The queue's wait plus the measured median run, on the default engine kind, at a new visitor's priority; \`median_duration_seconds\` is null (and \`sample_size\` 0) until a run has been measured. Cacheable: \`Cache-Control: public, max-age=${PUBLIC_ESTIMATE_MAX_AGE_SECONDS}\`, with an ETag.`,
      tag: 'queue',
      auth: 'none',
      responses: {
        200: ZPublicWaitEstimateSchema,
        304: { description: 'Not modified: If-None-Match named the current ETag' },
      },
    },
    async ({ res }) => {
      const estimate = await queue.publicEstimate();
      res.setHeader('Cache-Control', `public, max-age=${PUBLIC_ESTIMATE_MAX_AGE_SECONDS}`);
      // The app sends no ETags (app.ts); this answer is cacheable, so it names its own, and
      // Express answers 304 when If-None-Match holds it.
      res.setHeader('ETag', etag(JSON.stringify(estimate), { weak: true }));
      return estimate;
    },
  );
}
