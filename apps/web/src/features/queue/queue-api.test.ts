import type { QueueOverview } from '@studioshot/contracts';
import { describe, expect, it } from 'vitest';
import { formatGpuTime, formatPercent, formatUsd, trainingQueue } from './queue-api';

describe('queue answers', () => {
  it("the panel reads the training queue's line of the overview", () => {
    const queue = (task_type: 'training' | 'generation', waiting: number, workers: number) => ({
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
    const overview: QueueOverview = {
      queues: [queue('generation', 9, 4), queue('training', 2, 1)],
      checked_at: '2026-11-20T10:00:00.000Z',
    };
    expect(trainingQueue(overview)).toMatchObject({
      waiting: 2,
      active: 1,
      workers: 1,
      estimated_wait_seconds: 300,
    });
    expect(trainingQueue({ ...overview, queues: [queue('generation', 9, 4)] })).toBeNull();
  });

  it('formats GPU time and dollars', () => {
    expect(formatGpuTime(null)).toBe('—');
    expect(formatGpuTime(35)).toBe('35 s');
    expect(formatGpuTime(240)).toBe('4 min');
    expect(formatGpuTime(5400)).toBe('1 h 30 min');
    expect(formatGpuTime(7200)).toBe('2 h');
    expect(formatUsd(1130)).toBe('$1,130.00');
    expect(formatPercent(99.96)).toBe('99.9%');
    expect(formatPercent(40)).toBe('40%');
  });
});
