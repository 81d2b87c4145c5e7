import {
  TASK_EVENTS_MAX_EVENTS,
  TASK_EVENTS_STREAM,
  taskChangedEvent,
  type TaskType,
} from '@studioshot/contracts';
import { QueueEventsProducer } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** A task as the event names it: which, whose, what type. */
export interface TaskRef {
  id: string;
  user_id: string;
  task_type: TaskType;
}

/**
 * Announces on the one task event stream (`@studioshot/contracts` task-events) that a task row
 * changed; the API reads the row and relays it over /ws. Called only after the change is
 * committed. A failed announcement is logged, never fatal: the row is the truth, and the page
 * also reads it on reconnect.
 */
export class TaskEvents {
  private readonly producer: QueueEventsProducer;

  constructor(
    connection: Redis,
    prefix: string,
    private readonly logger: Logger,
  ) {
    this.producer = new QueueEventsProducer(TASK_EVENTS_STREAM, { connection, prefix });
  }

  async changed(task: TaskRef): Promise<void> {
    try {
      await this.producer.publishEvent(
        taskChangedEvent({ task_id: task.id, user_id: task.user_id, task_type: task.task_type }),
        TASK_EVENTS_MAX_EVENTS,
      );
    } catch (error) {
      this.logger.warn({ err: error, taskId: task.id }, 'could not announce a task change');
    }
  }

  close(): Promise<void> {
    return this.producer.close();
  }
}
