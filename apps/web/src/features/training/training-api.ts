// Not the contracts index: it would bring every schema into this chunk.
import type { TrainingJob, TrainingStatus, UserModel } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts/messages';
import {
  ZStartTrainingResponseSchema,
  ZTrainingJobSchema,
  ZTrainingJobsResponseSchema,
} from '@studioshot/contracts/training';
import { ZUserModelsResponseSchema } from '@studioshot/contracts/upload';
import { api } from '../../lib/api';

export type { TrainingJob, TrainingStatus, UserModel };

/**
 * The training calls (docs/spec/calls.md#74-training), each answer checked against its contract
 * and read as it is: the server lists newest first and reports a finished job at 100.
 */

export async function fetchTrainingJobs(signal?: AbortSignal): Promise<TrainingJob[]> {
  const answer = await api.get('/api/v1/training/jobs', {
    signal,
    schema: ZTrainingJobsResponseSchema,
    invalid: MESSAGES.trainingStatusFailed,
  });
  return answer.jobs;
}

/** One job by its id or by its upload session's id. */
export async function fetchTrainingJob(id: string, signal?: AbortSignal): Promise<TrainingJob> {
  return api.get(`/api/v1/training/jobs/${encodeURIComponent(id)}`, {
    signal,
    schema: ZTrainingJobSchema,
    invalid: MESSAGES.trainingStatusFailed,
  });
}

export interface StartTrainingInput {
  model_name: string;
  session_id: string;
  user_id?: string;
}

export async function startTraining(
  input: StartTrainingInput,
): Promise<{ job: TrainingJob; message: string }> {
  const job = await api.post(
    '/api/v1/training/start',
    {
      model_name: input.model_name,
      trigger_word: 'person',
      user_id: input.user_id,
      session_id: input.session_id,
    },
    { schema: ZStartTrainingResponseSchema, invalid: MESSAGES.trainingStartFailed },
  );
  return { job, message: job.message };
}

export async function fetchUserModels(signal?: AbortSignal): Promise<UserModel[]> {
  const answer = await api.get('/api/v1/upload/user-models', {
    signal,
    schema: ZUserModelsResponseSchema,
  });
  return answer.models;
}
