import type { QueueOverview, UserQueueStatus } from '@studioshot/contracts';
import { ZQueueOverviewSchema, ZUserQueueStatusSchema } from '@studioshot/contracts/training';
import { MESSAGES } from '@studioshot/contracts/messages';
import { api } from '../../lib/api';

/**
 * The queue calls of docs/spec/calls.md#77-queue that the dashboard's queue panel reads, each
 * answer checked against its contract and read as it is.
 */

export type { QueueOverview, UserQueueStatus };

export async function fetchUserQueueStatus(signal?: AbortSignal): Promise<UserQueueStatus> {
  return api.get('/api/v1/queue/user/status', {
    signal,
    schema: ZUserQueueStatusSchema,
    invalid: MESSAGES.queueInitializing,
  });
}

export async function fetchQueueOverview(signal?: AbortSignal): Promise<QueueOverview> {
  return api.get('/api/v1/queue/status', { signal, schema: ZQueueOverviewSchema });
}

/** The training queue's line of the overview (every task type has one). */
export function trainingQueue(overview: QueueOverview): QueueOverview['queues'][number] | null {
  return overview.queues.find((queue) => queue.task_type === 'training') ?? null;
}

// Durations are formatted in one place (durations.ts, light enough for the landing page).
export { formatGpuTime } from './durations';

export function formatUsd(dollars: number): string {
  return `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** 98.9 -> "98.9%", 40 -> "40%": never rounds 99.6 up to a claimed 100%. */
export function formatPercent(value: number): string {
  const rounded = Math.floor(Math.max(0, value) * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
}
