import {
  TASK_CHANGED_EVENT,
  TASK_EVENTS_MAX_EVENTS,
  TASK_EVENTS_STREAM,
  TASK_TYPES,
  taskChangedEvent,
  type TaskType,
} from '@studioshot/contracts';
import { QueueEvents, QueueEventsProducer, type QueueEventsListener } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '@studioshot/observability';

/**
 * A task (any type) changed. `userId` and `taskType` are the publisher's hints: they only save
 * work (no socket of that user here, reads in parallel), never route: the row is always read.
 */
export interface TaskChange {
  taskId: string;
  userId?: string;
  taskType?: TaskType;
}

interface TaskChangedEvents extends QueueEventsListener {
  [TASK_CHANGED_EVENT]: (args: Record<string, string>) => void;
}

/** What a malformed event still tells: a task id, and whichever hints are readable. */
const ZLooseTaskChangedSchema = z.object({
  task_id: z.string().uuid(),
  user_id: z.string().uuid().optional().catch(undefined),
  task_type: z.enum(TASK_TYPES).optional().catch(undefined),
});

/**
 * The task events stream (TASK_EVENTS_STREAM, a Redis stream read from where it left off after a
 * reconnect): every task change of every type, whoever made it, published as `task-changed`.
 * One subscription per API process, which relays changes to /ws; the API publishes its own
 * changes (a cancellation) here too.
 */
export class TaskEventsRepository {
  private readonly readers: QueueEvents[] = [];
  private readonly producer: QueueEventsProducer;
  private readonly listeners = new Set<(change: TaskChange) => void>();
  private started = false;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.producer = new QueueEventsProducer(TASK_EVENTS_STREAM, { connection, prefix });
  }

  /** Starts reading; resolves once the subscriptions are live. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const events = this.reader(TASK_EVENTS_STREAM);
    events.on<TaskChangedEvents>(TASK_CHANGED_EVENT, (args: Record<string, string>) => {
      const change = ZLooseTaskChangedSchema.safeParse(args);
      if (!change.success) {
        this.logger.warn({ event: args }, 'malformed task-changed event');
        return;
      }
      this.emit({
        taskId: change.data.task_id,
        userId: change.data.user_id,
        taskType: change.data.task_type,
      });
    });
    await Promise.all(this.readers.map((reader) => reader.waitUntilReady()));
  }

  /** Calls `listener` on every change; returns the unsubscribe. */
  onChange(listener: (change: TaskChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells every API process that a task changed here (once the change is committed). The hint
   * (owner and type) saves the readers work; without it they read the row all the same.
   */
  async announce(taskId: string, hint?: { userId: string; taskType: TaskType }): Promise<void> {
    const event = hint
      ? taskChangedEvent({ task_id: taskId, user_id: hint.userId, task_type: hint.taskType })
      : { eventName: TASK_CHANGED_EVENT, task_id: z.string().uuid().parse(taskId) };
    await this.producer.publishEvent(event, TASK_EVENTS_MAX_EVENTS);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.allSettled([
      ...this.readers.splice(0).map((reader) => reader.close()),
      this.producer.close(),
    ]);
  }

  /** A subscription to one BullMQ events stream, on its own blocking connection. */
  private reader(name: string): QueueEvents {
    const events = new QueueEvents(name, {
      // A dedicated blocking connection: XREAD BLOCK returns as soon as an event is added, so the
      // block timeout only bounds how long an idle read waits before it is reissued.
      connection: { ...this.connection.options, maxRetriesPerRequest: null },
      prefix: this.prefix,
      blockingTimeout: 5000,
    });
    events.on('error', (error) =>
      this.logger.warn({ err: error, stream: name }, 'task events error'),
    );
    this.readers.push(events);
    return events;
  }

  private emit(change: TaskChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.error({ err: error }, 'task change listener failed');
      }
    }
  }
}
