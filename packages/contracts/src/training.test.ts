// The training and queue answers as the web app reads them: straight from these schemas, with no
// second reader after the parse. What the schemas refuse, the app never sees.
import { describe, expect, it } from 'vitest';
import {
  TASK_STATUSES,
  TRAINING_STATUS_OF_TASK,
  ZCostProjectionSchema,
  ZQueueOverviewSchema,
  ZStartTrainingResponseSchema,
  ZTrainingJobSchema,
  ZTrainingJobsResponseSchema,
  ZUserQueueStatusSchema,
} from './training.js';
import { ZUserModelsResponseSchema } from './upload.js';

const ID = '3a1f0c2e-8b4d-4c6e-9f10-2b3c4d5e6f70';

function job(overrides: Record<string, unknown> = {}) {
  return {
    id: ID,
    training_id: ID,
    model_id: ID,
    session_id: null,
    model_name: 'Me',
    name: 'Me',
    status: 'training',
    task_status: 'running',
    progress: 38,
    progress_percentage: 38,
    message: null,
    created_at: '2026-11-20T10:00:00.000Z',
    started_at: '2026-11-20T10:00:05.000Z',
    completed_at: null,
    estimated_completion: null,
    training_photos: 12,
    error_message: null,
    model_path: null,
    ...overrides,
  };
}

describe('training jobs', () => {
  it('are a {jobs} object; a bare list, a job without an id or another shape is refused', () => {
    const older = job({ created_at: '2026-11-20T10:00:00.000Z' });
    const newer = job({
      id: '4b2f0c2e-8b4d-4c6e-9f10-2b3c4d5e6f70',
      created_at: '2026-11-21T10:00:00.000Z',
    });
    // The server's order is kept as it is: newest first.
    expect(
      ZTrainingJobsResponseSchema.parse({ jobs: [newer, older] }).jobs.map((j) => j.id),
    ).toEqual([newer.id, older.id]);
    expect(ZTrainingJobsResponseSchema.safeParse([newer, older]).success).toBe(false);
    expect(ZTrainingJobsResponseSchema.safeParse({ nothing: true }).success).toBe(false);
    const { id: _id, ...withoutId } = older;
    expect(ZTrainingJobsResponseSchema.safeParse({ jobs: [withoutId] }).success).toBe(false);
    expect(ZTrainingJobSchema.safeParse('nonsense').success).toBe(false);
  });

  it('carry both names and both progress fields, progress a whole percent from 0 to 100', () => {
    expect(ZTrainingJobSchema.parse(job())).toMatchObject({
      id: ID,
      training_id: ID,
      status: 'training',
      progress: 38,
      progress_percentage: 38,
      name: 'Me',
      model_name: 'Me',
      training_photos: 12,
      error_message: null,
    });
    for (const progress of [37.6, 250, -1]) {
      expect(ZTrainingJobSchema.safeParse(job({ progress })).success).toBe(false);
      expect(ZTrainingJobSchema.safeParse(job({ progress_percentage: progress })).success).toBe(
        false,
      );
    }
    const { name: _name, ...withoutName } = job();
    expect(ZTrainingJobSchema.safeParse(withoutName).success).toBe(false);
  });

  it.each([
    ['pending', 'pending'],
    ['queued', 'pending'],
    ['running', 'training'],
    ['completed', 'completed'],
    ['failed', 'failed'],
    ['cancelled', 'failed'],
  ] as const)('task status %s reads as %s, the only statuses a job carries', (task, status) => {
    expect(TRAINING_STATUS_OF_TASK[task]).toBe(status);
    expect(ZTrainingJobSchema.safeParse(job({ task_status: task, status })).success).toBe(true);
  });

  it('a job never carries a task status as its status', () => {
    expect(Object.keys(TRAINING_STATUS_OF_TASK).sort()).toEqual([...TASK_STATUSES].sort());
    for (const status of ['running', 'queued', 'cancelled', 'processing', undefined])
      expect(ZTrainingJobSchema.safeParse(job({ status })).success).toBe(false);
  });

  it("the start answer is the job and the server's message", () => {
    const started = ZStartTrainingResponseSchema.parse({
      ...job(),
      message: 'Training started',
    });
    expect(started.message).toBe('Training started');
    expect(ZStartTrainingResponseSchema.safeParse(job()).success).toBe(false);
  });
});

describe('user models', () => {
  it('are a {models} object, each with its name, status and trigger word', () => {
    const model = {
      id: ID,
      name: 'One',
      model_type: 'lora',
      status: 'completed',
      trigger_word: 'person',
      created_at: '2026-11-20T10:00:00.000Z',
    };
    expect(ZUserModelsResponseSchema.parse({ models: [model] }).models).toEqual([model]);
    expect(ZUserModelsResponseSchema.safeParse([model]).success).toBe(false);
    const { trigger_word: _word, ...withoutTrigger } = model;
    expect(ZUserModelsResponseSchema.safeParse({ models: [withoutTrigger] }).success).toBe(false);
    expect(
      ZUserModelsResponseSchema.safeParse({ models: [{ ...model, status: 'running' }] }).success,
    ).toBe(false);
  });
});

describe('queue answers', () => {
  it("the user's tasks: all three counts, whole numbers", () => {
    const counts = { pending_tasks: 2, running_tasks: 1, total_tasks: 5 };
    expect(ZUserQueueStatusSchema.parse(counts)).toEqual(counts);
    expect(ZUserQueueStatusSchema.safeParse({ pending_tasks: 2, running_tasks: 1 }).success).toBe(
      false,
    );
    expect(ZUserQueueStatusSchema.safeParse({ ...counts, pending_tasks: '2' }).success).toBe(false);
    expect(ZUserQueueStatusSchema.safeParse(null).success).toBe(false);
  });

  it('the cost projection: numbers, the always-on cost included, and one of four ratings', () => {
    const projection = {
      projected_monthly_cost: 3.5,
      always_on_cost: 1130,
      savings_percent: 99.7,
      efficiency_rating: 'good',
      gpu_seconds_last_30_days: 4800,
      gpu_hourly_rate: 1.5,
    };
    expect(ZCostProjectionSchema.parse(projection)).toEqual(projection);
    const { always_on_cost: _cost, ...withoutCost } = projection;
    expect(ZCostProjectionSchema.safeParse(withoutCost).success).toBe(false);
    expect(
      ZCostProjectionSchema.safeParse({ ...projection, projected_monthly_cost: '3.5' }).success,
    ).toBe(false);
    for (const efficiency_rating of ['Good', 'stellar'])
      expect(ZCostProjectionSchema.safeParse({ ...projection, efficiency_rating }).success).toBe(
        false,
      );
  });

  it("the overview lists every task type's queue; flat counts are not an overview", () => {
    const queue = (task_type: string, waiting: number, workers: number) => ({
      task_type,
      queue: task_type,
      waiting,
      active: 1,
      delayed: 0,
      completed: 0,
      failed: 0,
      workers,
      estimated_wait_seconds: task_type === 'training' ? 300 : null,
    });
    const overview = {
      queues: [queue('generation', 9, 4), queue('training', 2, 1)],
      checked_at: '2026-11-20T10:00:00.000Z',
    };
    expect(ZQueueOverviewSchema.parse(overview)).toEqual(overview);
    for (const flat of [
      { waiting: 3, active: 1, workers: [{}, {}] },
      { counts: { pending: 7 }, workers_online: 1 },
      '?',
    ])
      expect(ZQueueOverviewSchema.safeParse(flat).success).toBe(false);
    expect(
      ZQueueOverviewSchema.safeParse({ ...overview, queues: [queue('upscale', 1, 1)] }).success,
    ).toBe(false);
  });
});
