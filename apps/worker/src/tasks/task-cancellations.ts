import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** Why a running task was stopped before its engine finished. */
export type TaskStopReason =
  /** The worker is shutting down: the job goes back to the queue. */
  | 'shutdown'
  /** The task ran past its time limit (a hung engine): a failed, retryable attempt. */
  | 'timeout'
  /** An operator cancelled it on the cancel channel: the task ends as cancelled. */
  | 'cancelled';

/** The abort reason of every signal that stops a task. */
export class TaskStopped extends Error {
  override name = 'TaskStopped';
  constructor(readonly reason: TaskStopReason) {
    super(`task stopped (${reason})`);
  }
}

/**
 * The cancel channel: a task id published on it stops that task's engine on whichever worker
 * runs it (workers that do not run it ignore the message). Uses its own connection, as a
 * subscribed Redis connection can do nothing else.
 */
export class TaskCancellations {
  private readonly running = new Map<string, AbortController>();
  private subscriber: Redis | undefined;

  constructor(private readonly logger: Logger) {}

  /** Subscribes to `channel`; ioredis subscribes again by itself after a reconnect. */
  async listen(redisUrl: string, channel: string): Promise<void> {
    const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.subscriber = subscriber;
    subscriber.on('error', (error) =>
      this.logger.warn({ err: error }, 'cancel channel connection error'),
    );
    subscriber.on('message', (_channel: string, taskId: string) => this.cancel(taskId));
    await subscriber.subscribe(channel);
  }

  /** A signal that aborts when `taskId` is cancelled; call `release` when the task is over. */
  track(taskId: string): { signal: AbortSignal; release(): void } {
    const controller = new AbortController();
    this.running.set(taskId, controller);
    return {
      signal: controller.signal,
      release: () => {
        if (this.running.get(taskId) === controller) this.running.delete(taskId);
      },
    };
  }

  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    await subscriber?.quit().catch(() => subscriber.disconnect());
  }

  private cancel(taskId: string): void {
    const controller = this.running.get(taskId);
    if (!controller) return;
    this.logger.info({ taskId }, 'task cancelled on the cancel channel');
    controller.abort(new TaskStopped('cancelled'));
  }
}
