import type { TaskProgress } from '@studioshot/contracts';
import { writeTaskProgress, type Db } from '@studioshot/db';
import type { TaskEvents, TaskRef } from './task-events.js';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';

type Update = Omit<TaskProgress, 'task_id' | 'user_id'> & {
  /** Already in the task row (written by the caller): only the event is left to send. */
  written: boolean;
};

/**
 * Reports a task's progress: the task row first, then the task-changed event (the API relays it
 * to the browser after reading the row, so the row must already agree). Updates go out
 * one at a time, in order, without blocking the caller; a burst collapses into its latest update.
 * A failed write is logged, never fatal: the task's completion or failure writes the final state.
 */
export class TaskProgressReporter {
  private pending: Update | undefined;
  private last: Update | undefined;
  private draining = false;
  private drained: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly job: Job,
    private readonly task: TaskRef,
    private readonly events: Pick<TaskEvents, 'changed'>,
    private readonly logger: Logger,
  ) {}

  /** Progress of the running task (0-100, whole) and its message; a repeat is skipped. */
  report(progress: number, message: string): void {
    // The moment the engine's progress reached the worker (bench/ measures from it).
    this.logger.debug({ progress, progressMessage: message }, 'engine progress received');
    const latest = this.pending ?? this.last;
    if (
      latest?.status === 'running' &&
      latest.progress === progress &&
      latest.message === message
    ) {
      return;
    }
    this.enqueue({ progress, message, status: 'running', written: false });
  }

  /** Sends the event for a state the caller has just written to the row (started, requeued). */
  announce(update: Omit<TaskProgress, 'task_id' | 'user_id'>): Promise<void> {
    this.enqueue({ ...update, written: true });
    return this.flush();
  }

  /** Resolves once every update so far is out. */
  flush(): Promise<void> {
    return this.drained;
  }

  private enqueue(update: Update): void {
    this.pending = update;
    if (!this.draining) {
      this.draining = true;
      this.drained = this.drain();
    }
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending) {
        const next = this.pending;
        this.pending = undefined;
        this.last = next;
        await this.send(next);
      }
    } finally {
      this.draining = false;
    }
  }

  private async send({ written, ...update }: Update): Promise<void> {
    try {
      const { id, user_id } = this.task;
      // A task no longer running (cancelled meanwhile) gets no progress.
      if (!written && !(await writeTaskProgress(this.db, id, update.progress, update.message))) {
        return;
      }
      await this.events.changed(this.task);
      // Also on the job, for queue tooling (BullMQ's own progress).
      await this.job.updateProgress({ task_id: id, user_id, ...update });
    } catch (error) {
      this.logger.warn({ err: error }, 'could not report progress');
    }
  }
}
