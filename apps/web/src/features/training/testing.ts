import type { TrainingJob, UserModel } from './training-api';

/** Test data: a training job as GET /api/v1/training/jobs answers it. */
export const JOB_ID = '3a1f0c2e-8b4d-4c6e-9f10-2b3c4d5e6f70';
export const SESSION_ID = '22222222-2222-4222-8222-222222222222';

export function trainingJob(overrides: Partial<TrainingJob> = {}): TrainingJob {
  const id = overrides.id ?? JOB_ID;
  const progress = overrides.progress ?? overrides.progress_percentage ?? 40;
  return {
    id,
    training_id: id,
    model_id: id,
    session_id: SESSION_ID,
    model_name: 'Ada Portraits',
    name: 'Ada Portraits',
    status: 'training',
    task_status: 'running',
    progress,
    progress_percentage: progress,
    message: 'Learning your features (step 4 of 10)',
    created_at: new Date(Date.now() - 60_000).toISOString(),
    started_at: new Date(Date.now() - 30_000).toISOString(),
    completed_at: null,
    estimated_completion: null,
    training_photos: 12,
    error_message: null,
    model_path: null,
    ...overrides,
  };
}

export function userModel(overrides: Partial<UserModel> = {}): UserModel {
  return {
    id: JOB_ID,
    name: 'Ada Portraits',
    model_type: 'lora',
    status: 'training',
    trigger_word: 'person',
    created_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}
