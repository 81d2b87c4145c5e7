import {
  MESSAGES,
  ZModelsStatusSchema,
  ZStartTrainingRequestSchema,
  ZStartTrainingResponseSchema,
  ZTrainingHistoryResponseSchema,
  ZTrainingJobSchema,
  ZTrainingJobsResponseSchema,
} from '@studioshot/contracts';
import { z } from 'zod';
import type { DeclaringRouter } from '../http/declare.js';
import type { TrainingService } from '../services/training.service.js';

/**
 * docs/spec/calls.md#74-training, with the unprefixed /models/* paths the spec's client also calls.
 */
export function trainingRoutes(api: DeclaringRouter, training: TrainingService): void {
  for (const path of ['/api/v1/training/start', '/models/start-training']) {
    api.route(
      {
        method: 'post',
        path,
        summary: 'Train a model on a completed upload session (takes a training slot)',
        description:
          'The task is queued at the priority of the plan (a `priority` sent can only lower it).',
        tag: 'training',
        auth: 'required',
        body: ZStartTrainingRequestSchema,
        responses: { 201: ZStartTrainingResponseSchema },
        errors: [403, 404, 409, 503],
      },
      ({ userId, body }) => training.start(userId, body),
    );
  }

  api.route(
    {
      method: 'get',
      path: '/api/v1/training/jobs',
      summary: "The user's training jobs, newest first",
      tag: 'training',
      auth: 'required',
      responses: { 200: ZTrainingJobsResponseSchema },
    },
    async ({ userId }) => ({ jobs: await training.jobs(userId) }),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/training/history',
      summary: "The user's training jobs, as training_sessions",
      tag: 'training',
      auth: 'required',
      responses: { 200: ZTrainingHistoryResponseSchema },
    },
    async ({ userId }) => ({ training_sessions: await training.jobs(userId) }),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/training/jobs/:id',
      summary: 'One training job, by its id or its upload session id',
      tag: 'training',
      auth: 'required',
      params: z.object({ id: z.uuid() }),
      // A malformed id names no training: answered like a missing one.
      notFound: { params: MESSAGES.trainingNotFound },
      responses: { 200: ZTrainingJobSchema },
    },
    ({ userId, params }) => training.job(userId, params.id),
  );

  api.route(
    {
      method: 'get',
      path: '/models/training-status',
      summary: 'The latest training job, or the one named by training_id',
      tag: 'training',
      auth: 'required',
      query: z.object({ training_id: z.uuid().optional() }),
      notFound: { query: MESSAGES.trainingNotFound },
      responses: { 200: ZTrainingJobSchema },
      errors: [404],
    },
    ({ userId, query }) => training.latest(userId, query.training_id),
  );

  api.route(
    {
      method: 'get',
      path: '/models/status',
      summary: "The user's models and their training counts",
      tag: 'training',
      auth: 'required',
      responses: { 200: ZModelsStatusSchema },
    },
    ({ userId }) => training.modelsStatus(userId),
  );
}
