import {
  ZCostProjectionSchema,
  ZQueueOverviewSchema,
  ZUserQueueStatusSchema,
} from '@studioshot/contracts/training';
import { MESSAGES } from '@studioshot/contracts/messages';
import { api } from '../../lib/api';

/**
 * The queue calls of docs/spec/calls.md#77-queue that the dashboard's GPU cost / queue panel reads.
 */

export interface UserQueueStatus {
  pending_tasks: number;
  running_tasks: number;
  total_tasks: number;
}

export type EfficiencyRating = 'excellent' | 'good' | 'fair' | 'poor';

export interface CostProjection {
  projected_monthly_cost: number;
  always_on_cost: number;
  savings_percent: number;
  efficiency_rating: EfficiencyRating | null;
  gpu_seconds_last_30_days: number | null;
  gpu_hourly_rate: number | null;
}

/** The overall queue (GET /api/v1/queue/status): the training queue's figures. */
export interface QueueOverview {
  waiting: number | null;
  running: number | null;
  workers: number | null;
  /** For a training submitted now; null while no worker is connected. */
  estimated_wait_seconds: number | null;
}

/** The always-on cost when the server gives none (docs/spec/constants.md: default 1130). */
export const DEFAULT_ALWAYS_ON_COST = 1130;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function num(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

function first(record: Record<string, unknown>, keys: string[]): number | null {
  for (const key of keys) {
    const value = record[key];
    const n = Array.isArray(value) ? value.length : num(value);
    if (n !== null) return n;
  }
  return null;
}

export function toUserQueueStatus(body: unknown): UserQueueStatus {
  const record = isRecord(body) ? body : {};
  const pending = num(record.pending_tasks) ?? 0;
  const running = num(record.running_tasks) ?? 0;
  return {
    pending_tasks: pending,
    running_tasks: running,
    total_tasks: num(record.total_tasks) ?? pending + running,
  };
}

const RATINGS: readonly EfficiencyRating[] = ['excellent', 'good', 'fair', 'poor'];

export function toCostProjection(body: unknown): CostProjection {
  const record = isRecord(body) ? body : {};
  const rating = typeof record.efficiency_rating === 'string' ? record.efficiency_rating : '';
  return {
    projected_monthly_cost: num(record.projected_monthly_cost) ?? 0,
    always_on_cost: num(record.always_on_cost) ?? DEFAULT_ALWAYS_ON_COST,
    savings_percent: num(record.savings_percent) ?? 0,
    efficiency_rating: (RATINGS as readonly string[]).includes(rating.toLowerCase())
      ? (rating.toLowerCase() as EfficiencyRating)
      : null,
    gpu_seconds_last_30_days: num(record.gpu_seconds_last_30_days),
    gpu_hourly_rate: num(record.gpu_hourly_rate),
  };
}

/**
 * GET /api/v1/queue/status lists every task queue ({queues: [{task_type, waiting, active,
 * workers, estimated_wait_seconds}]}); the panel shows the training queue, else the sums.
 * Flat answers with the usual count names are read too.
 */
export function toQueueOverview(body: unknown): QueueOverview {
  const record = isRecord(body) ? body : {};
  if (Array.isArray(record.queues)) {
    const queues = record.queues.filter(isRecord);
    const training = queues.find((queue) => queue.task_type === 'training');
    const pick = training ? [training] : queues;
    const sum = (keys: string[]) =>
      pick.length === 0
        ? null
        : pick.reduce<number | null>((total, queue) => {
            const n = first(queue, keys);
            return n === null ? total : (total ?? 0) + n;
          }, null);
    return {
      waiting: sum(['waiting', 'pending']),
      running: sum(['active', 'running']),
      workers: training ? first(training, ['workers']) : sum(['workers']),
      estimated_wait_seconds: training ? num(training.estimated_wait_seconds) : null,
    };
  }
  const counts = isRecord(record.counts) ? { ...record, ...record.counts } : record;
  return {
    waiting: first(counts, ['pending_tasks', 'pending', 'waiting', 'queued', 'queue_length']),
    running: first(counts, ['running_tasks', 'running', 'active']),
    workers: first(counts, ['workers_online', 'active_workers', 'workers', 'worker_count']),
    estimated_wait_seconds: num(counts.estimated_wait_seconds),
  };
}

// Each answer is checked against its contract, then read as the panel shows it.
export async function fetchUserQueueStatus(signal?: AbortSignal): Promise<UserQueueStatus> {
  return toUserQueueStatus(
    await api.get('/api/v1/queue/user/status', {
      signal,
      schema: ZUserQueueStatusSchema,
      invalid: MESSAGES.queueInitializing,
    }),
  );
}

export async function fetchCostProjection(signal?: AbortSignal): Promise<CostProjection> {
  return toCostProjection(
    await api.get('/api/v1/queue/cost/projection', { signal, schema: ZCostProjectionSchema }),
  );
}

export async function fetchQueueOverview(signal?: AbortSignal): Promise<QueueOverview> {
  return toQueueOverview(
    await api.get('/api/v1/queue/status', { signal, schema: ZQueueOverviewSchema }),
  );
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
