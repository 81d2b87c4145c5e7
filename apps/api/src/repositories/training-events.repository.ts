import { QUEUES } from '@studioshot/contracts';
import { QueueEvents, QueueEventsProducer, type QueueEventsListener } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

/** A training task changed; `userId` is the worker's hint (only used to skip work, never to route). */
export interface TrainingChange {
  taskId: string;
  userId?: string;
}

/**
 * BullMQ's job events that mean a training task's row changed. The worker writes Postgres before
 * it reports progress or finishes; 'waiting' and 'delayed' follow a failed attempt that will be
 * retried, 'active' a worker taking the job.
 */
const JOB_EVENTS = ['active', 'progress', 'completed', 'failed', 'waiting', 'delayed'] as const;
/** Ours: published after the API itself changes a task (a cancellation), once it is committed. */
const TASK_CHANGED = 'task-changed';
/** BullMQ's own events with ours added, each carrying the job (task) id. */
interface RelayedEvents extends QueueEventsListener {
  [TASK_CHANGED]: (args: { jobId: string }) => void;
}
/** BullMQ's default length for a queue's event stream; a smaller one would trim its events. */
const MAX_STREAM_EVENTS = 10_000;

/**
 * The training queue's event stream (a Redis stream, read from where it left off after a
 * reconnect): one subscription per API process, which relays changes to /ws.
 */
export class TrainingEventsRepository {
  private events: QueueEvents | undefined;
  private readonly producer: QueueEventsProducer;
  private readonly listeners = new Set<(change: TrainingChange) => void>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.producer = new QueueEventsProducer(QUEUES.training, { connection, prefix });
  }

  /** Starts reading the stream; resolves once the subscription is live. */
  async start(): Promise<void> {
    if (this.events) return;
    const events = new QueueEvents(QUEUES.training, {
      // A dedicated blocking connection: XREAD BLOCK returns as soon as an event is added, so the
      // block timeout only bounds how long an idle read waits before it is reissued.
      connection: { ...this.connection.options, maxRetriesPerRequest: null },
      prefix: this.prefix,
      blockingTimeout: 5000,
    });
    this.events = events;
    events.on('error', (error) => this.logger.warn({ err: error }, 'training events error'));
    for (const name of [...JOB_EVENTS, TASK_CHANGED] as const) {
      events.on<RelayedEvents>(name, (args: { jobId: string; data?: unknown }) => {
        this.emit({ taskId: args.jobId, userId: userHint(args.data) });
      });
    }
    await events.waitUntilReady();
  }

  /** Calls `listener` on every change; returns the unsubscribe. */
  onChange(listener: (change: TrainingChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every API process that a task changed outside the worker. */
  async announce(taskId: string): Promise<void> {
    await this.producer.publishEvent({ eventName: TASK_CHANGED, jobId: taskId }, MAX_STREAM_EVENTS);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.allSettled([this.events?.close(), this.producer.close()]);
  }

  private emit(change: TrainingChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.error({ err: error }, 'training change listener failed');
      }
    }
  }
}

function userHint(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('user_id' in data)) return undefined;
  return typeof data.user_id === 'string' ? data.user_id : undefined;
}
