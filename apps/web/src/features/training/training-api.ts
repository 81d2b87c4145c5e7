// Not the contracts index: it would bring every schema into this chunk.
import type { TrainingJob, TrainingStatus } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts/messages';
import {
  ZStartTrainingResponseSchema,
  ZTrainingJobSchema,
  ZTrainingJobsResponseSchema,
} from '@studioshot/contracts/training';
import { ZUserModelsResponseSchema } from '@studioshot/contracts/upload';
import { api } from '../../lib/api';
import { ApiError, CLIENT_ERROR_CODES } from '../../lib/api-client';

export type { TrainingJob, TrainingStatus };

const TRAINING_STATUSES: readonly TrainingStatus[] = ['pending', 'training', 'completed', 'failed'];

/** A model of GET /api/v1/upload/user-models. */
export interface UserModel {
  id: string;
  name: string;
  model_type: string;
  status: TrainingStatus;
  trigger_word: string;
  created_at: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function count(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/**
 * The spec's statuses (docs/spec/calls.md#4-states: training, completed, failed, running, pending)
 * onto ours:
 * running is training; a queued task is pending; a cancelled one failed.
 */
export function normalizeStatus(value: unknown): TrainingStatus {
  if (typeof value !== 'string') return 'pending';
  const status = value.toLowerCase();
  if ((TRAINING_STATUSES as readonly string[]).includes(status)) return status as TrainingStatus;
  if (status === 'running' || status === 'processing' || status === 'in_progress') {
    return 'training';
  }
  if (status === 'cancelled' || status === 'canceled' || status === 'error') return 'failed';
  if (status === 'succeeded' || status === 'success' || status === 'done') return 'completed';
  return 'pending';
}

/**
 * One training job from any answer (jobs list, one job, a /ws push, the start answer), read
 * defensively: the spec allows `progress` or `progress_percentage`, `name` or `model_name`.
 * Null when it has no id.
 */
export function toTrainingJob(raw: unknown): TrainingJob | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id) ?? text(raw.training_id) ?? text(raw.model_id);
  if (!id) return null;
  const status = normalizeStatus(raw.status);
  const rawProgress = count(raw.progress) ?? count(raw.progress_percentage) ?? 0;
  // A finished job is at 100 whatever the last progress event said.
  const progress =
    status === 'completed' ? 100 : Math.round(Math.min(100, Math.max(0, rawProgress)));
  const name = text(raw.name)?.trim() || text(raw.model_name)?.trim() || '';
  const taskStatus = text(raw.task_status);
  return {
    id,
    training_id: text(raw.training_id) ?? id,
    model_id: text(raw.model_id) ?? id,
    session_id: text(raw.session_id),
    model_name: text(raw.model_name)?.trim() || name,
    name,
    status,
    task_status: (taskStatus as TrainingJob['task_status'] | null) ?? 'pending',
    progress,
    progress_percentage: progress,
    message: text(raw.message),
    created_at: text(raw.created_at) ?? '',
    started_at: text(raw.started_at),
    completed_at: text(raw.completed_at),
    estimated_completion: text(raw.estimated_completion),
    training_photos: count(raw.training_photos) ?? 0,
    error_message: text(raw.error_message),
    model_path: text(raw.model_path),
  };
}

/**
 * A list answer: an array, or an object holding the array under `key`
 * (docs/spec/calls.md#74-training).
 */
export function listFrom(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (isRecord(body) && Array.isArray(body[key])) return body[key];
  return [];
}

function time(value: string): number {
  const t = Date.parse(value);
  return Number.isNaN(t) ? 0 : t;
}

/** Newest first, by creation time. */
export function newestFirst<T extends { created_at: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => time(b.created_at) - time(a.created_at));
}

export function toTrainingJobs(body: unknown): TrainingJob[] {
  return newestFirst(
    listFrom(body, 'jobs')
      .map(toTrainingJob)
      .filter((job): job is TrainingJob => job !== null),
  );
}

export function toUserModel(raw: unknown): UserModel | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  if (!id) return null;
  return {
    id,
    name: text(raw.name)?.trim() || text(raw.model_name)?.trim() || 'Untitled model',
    model_type: text(raw.model_type) ?? '',
    status: normalizeStatus(raw.status),
    trigger_word: text(raw.trigger_word)?.trim() || 'person',
    created_at: text(raw.created_at) ?? '',
  };
}

export function toUserModels(body: unknown): UserModel[] {
  return newestFirst(
    listFrom(body, 'models')
      .map(toUserModel)
      .filter((model): model is UserModel => model !== null),
  );
}

function invalidResponse(detail: string): ApiError {
  return new ApiError({ status: 0, code: CLIENT_ERROR_CODES.invalidResponse, detail });
}

// Each answer is checked against its contract, then read as the pages show it (a finished job
// at 100, newest first).
export async function fetchTrainingJobs(signal?: AbortSignal): Promise<TrainingJob[]> {
  return toTrainingJobs(
    await api.get('/api/v1/training/jobs', {
      signal,
      schema: ZTrainingJobsResponseSchema,
      invalid: MESSAGES.trainingStatusFailed,
    }),
  );
}

/** One job by its id or by its upload session's id. */
export async function fetchTrainingJob(id: string, signal?: AbortSignal): Promise<TrainingJob> {
  const body = await api.get(`/api/v1/training/jobs/${encodeURIComponent(id)}`, {
    signal,
    schema: ZTrainingJobSchema,
    invalid: MESSAGES.trainingStatusFailed,
  });
  const job = toTrainingJob(body);
  if (!job) throw invalidResponse(MESSAGES.trainingStatusFailed);
  return job;
}

export interface StartTrainingInput {
  model_name: string;
  session_id: string;
  user_id?: string;
}

export async function startTraining(
  input: StartTrainingInput,
): Promise<{ job: TrainingJob; message: string | null }> {
  const body = await api.post(
    '/api/v1/training/start',
    {
      model_name: input.model_name,
      trigger_word: 'person',
      user_id: input.user_id,
      session_id: input.session_id,
    },
    { schema: ZStartTrainingResponseSchema, invalid: MESSAGES.trainingStartFailed },
  );
  const job = toTrainingJob(body);
  if (!job) throw invalidResponse(MESSAGES.trainingStartFailed);
  return { job, message: body.message };
}

export async function fetchUserModels(signal?: AbortSignal): Promise<UserModel[]> {
  return toUserModels(
    await api.get('/api/v1/upload/user-models', { signal, schema: ZUserModelsResponseSchema }),
  );
}
