import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALWAYS_ON_COST,
  formatGpuTime,
  formatPercent,
  formatUsd,
  toCostProjection,
  toQueueOverview,
  toUserQueueStatus,
} from './queue-api';

describe('queue answers', () => {
  it('reads the user status, totalling when the total is missing', () => {
    expect(toUserQueueStatus({ pending_tasks: 2, running_tasks: 1, total_tasks: 5 })).toEqual({
      pending_tasks: 2,
      running_tasks: 1,
      total_tasks: 5,
    });
    expect(toUserQueueStatus({ pending_tasks: 2, running_tasks: 1 }).total_tasks).toBe(3);
    expect(toUserQueueStatus(null)).toEqual({ pending_tasks: 0, running_tasks: 0, total_tasks: 0 });
  });

  it('reads the cost projection; the always-on cost defaults to 1130', () => {
    expect(toCostProjection({ projected_monthly_cost: '3.5', efficiency_rating: 'Good' })).toEqual({
      projected_monthly_cost: 3.5,
      always_on_cost: DEFAULT_ALWAYS_ON_COST,
      savings_percent: 0,
      efficiency_rating: 'good',
      gpu_seconds_last_30_days: null,
      gpu_hourly_rate: null,
    });
    expect(DEFAULT_ALWAYS_ON_COST).toBe(1130);
    expect(toCostProjection({ efficiency_rating: 'stellar' }).efficiency_rating).toBeNull();
  });

  it('recognises common names in the overall queue status', () => {
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
    expect(
      toQueueOverview({ queues: [queue('generation', 9, 4), queue('training', 2, 1)] }),
    ).toEqual({ waiting: 2, running: 1, workers: 1, estimated_wait_seconds: 300 });
    expect(
      toQueueOverview({ queues: [queue('generation', 9, 4), queue('batch_generation', 1, 1)] }),
    ).toEqual({ waiting: 10, running: 2, workers: 5, estimated_wait_seconds: null });
    expect(toQueueOverview({ waiting: 3, active: 1, workers: [{}, {}] })).toEqual({
      waiting: 3,
      running: 1,
      workers: 2,
      estimated_wait_seconds: null,
    });
    expect(toQueueOverview({ counts: { pending: 7 }, workers_online: 1 })).toEqual({
      waiting: 7,
      running: null,
      workers: 1,
      estimated_wait_seconds: null,
    });
    expect(toQueueOverview('?')).toEqual({
      waiting: null,
      running: null,
      workers: null,
      estimated_wait_seconds: null,
    });
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
