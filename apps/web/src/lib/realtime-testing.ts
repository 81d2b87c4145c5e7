import type { QueueTask } from '@studioshot/contracts';

/** Test data: a queue task as GET /api/v1/queue/status/{id} and a /ws `task` push carry it. */
export const TASK_ID = '5b7e2c1a-9d3f-4e8a-b6c4-1f2e3d4c5b6a';

export function queueTask(overrides: Partial<QueueTask> = {}): QueueTask {
  const id = overrides.id ?? TASK_ID;
  return {
    id,
    task_id: id,
    task_type: 'generation',
    priority: 'normal',
    status: 'running',
    progress: 40,
    message: 'Rendering your headshots',
    error_message: null,
    created_at: '2026-11-23T10:00:00.000Z',
    started_at: '2026-11-23T10:00:05.000Z',
    completed_at: null,
    position: null,
    estimated_completion: null,
    ...overrides,
  };
}
