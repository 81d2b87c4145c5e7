import { MESSAGES, ZStartTrainingRequestSchema } from '@studioshot/contracts';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { authOf } from '../middleware/auth.js';
import { parse } from '../middleware/validate.js';
import type { TrainingService } from '../services/training.service.js';

/** A malformed id names no training: answered like a missing one. */
function trainingId(value: unknown): string {
  const id = z.uuid().safeParse(value);
  if (!id.success) throw new AppError('not_found', MESSAGES.trainingNotFound);
  return id.data;
}

/** Spec 7.4, with the unprefixed /models/* paths the spec's client also calls. */
export function trainingRoutes(deps: {
  training: TrainingService;
  requireAuth: RequestHandler;
}): Router {
  const { training, requireAuth } = deps;
  const router = Router();

  const start = async (req: Request, res: Response) => {
    const body = parse(ZStartTrainingRequestSchema, req.body);
    res.status(201).json(await training.start(authOf(req).userId, body));
  };
  router.post('/api/v1/training/start', requireAuth, start);
  router.post('/models/start-training', requireAuth, start);

  router.get('/api/v1/training/jobs', requireAuth, async (req, res) => {
    res.json({ jobs: await training.jobs(authOf(req).userId) });
  });

  router.get('/api/v1/training/history', requireAuth, async (req, res) => {
    res.json({ training_sessions: await training.jobs(authOf(req).userId) });
  });

  router.get('/api/v1/training/jobs/:id', requireAuth, async (req, res) => {
    res.json(await training.job(authOf(req).userId, trainingId(req.params.id)));
  });

  router.get('/models/training-status', requireAuth, async (req, res) => {
    const requested = req.query.training_id;
    res.json(
      await training.latest(
        authOf(req).userId,
        requested === undefined ? undefined : trainingId(requested),
      ),
    );
  });

  router.get('/models/status', requireAuth, async (req, res) => {
    res.json(await training.modelsStatus(authOf(req).userId));
  });

  return router;
}
