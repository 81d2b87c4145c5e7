import {
  MESSAGES,
  TASK_PRIORITIES,
  TASK_TYPES,
  ZQueueSubmitRequestSchema,
  ZStartQueuedGenerationRequestSchema,
  ZStartTrainingRequestSchema,
} from '@studioshot/contracts';
import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { authOf } from '../middleware/auth.js';
import { parse } from '../middleware/validate.js';
import type { QueueService } from '../services/queue.service.js';
import { idempotencyKey } from './generation.routes.js';

/** A malformed id names no task: answered like a missing one. */
function taskId(req: Request): string {
  const id = z.uuid().safeParse(req.params.id);
  if (!id.success) throw new AppError('not_found', MESSAGES.taskNotFound);
  return id.data;
}

const ZWaitEstimateParamsSchema = z.object({
  taskType: z.enum(TASK_TYPES),
  priority: z.enum(TASK_PRIORITIES),
});

/** Spec 7.7: every call needs a signed-in user. */
export function queueRoutes(deps: { queue: QueueService; requireAuth: RequestHandler }): Router {
  const { queue } = deps;
  const router = Router();
  router.use('/api/v1/queue', deps.requireAuth);

  router.get('/api/v1/queue/user/status', async (req, res) => {
    res.json(await queue.userStatus(authOf(req).userId));
  });

  router.post('/api/v1/queue/submit', async (req, res) => {
    const body = parse(ZQueueSubmitRequestSchema, req.body);
    res
      .status(201)
      .json(await queue.submit(authOf(req).userId, body, idempotencyKey(req, undefined)));
  });

  router.post('/api/v1/queue/training/start-queued', async (req, res) => {
    const params = parse(ZStartTrainingRequestSchema, req.body);
    res.status(201).json(
      await queue.submit(authOf(req).userId, {
        task_type: 'training',
        priority: params.priority,
        params,
      }),
    );
  });

  router.post('/api/v1/queue/generation/start-queued', async (req, res) => {
    const { task_type, priority, ...params } = parse(
      ZStartQueuedGenerationRequestSchema,
      req.body ?? {},
    );
    res
      .status(201)
      .json(
        await queue.submit(
          authOf(req).userId,
          { task_type, priority, params },
          idempotencyKey(req, undefined),
        ),
      );
  });

  router.get('/api/v1/queue/status/:id', async (req, res) => {
    res.json(await queue.task(authOf(req).userId, taskId(req)));
  });

  router.delete('/api/v1/queue/cancel/:id', async (req, res) => {
    res.json(await queue.cancel(authOf(req).userId, taskId(req)));
  });

  router.get('/api/v1/queue/status', async (_req, res) => {
    res.json(await queue.overview());
  });

  router.get('/api/v1/queue/monitor/health', async (_req, res) => {
    const health = await queue.health();
    res.status(health.status === 'healthy' ? 200 : 503).json(health);
  });

  router.get('/api/v1/queue/cost/projection', async (_req, res) => {
    res.json(await queue.costProjection());
  });

  // {a} is the task type, {b} the priority of the task one is thinking of submitting.
  router.get('/api/v1/queue/estimate/wait-time/:taskType/:priority', async (req, res) => {
    const params = ZWaitEstimateParamsSchema.safeParse(req.params);
    if (!params.success) throw new AppError('not_found', MESSAGES.unknownWaitEstimate);
    res.json(await queue.estimateWait(params.data.taskType, params.data.priority));
  });

  return router;
}
