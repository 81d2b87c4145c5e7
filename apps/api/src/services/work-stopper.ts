import { endTask, UNFINISHED_TASK_STATUSES, type Db } from '@studioshot/db';
import type { Redis } from 'ioredis';
import { NotYet } from '../scheduling/scheduled-jobs.js';
import type { WorkItem } from '../repositories/deletion.repository.js';
import type { JobQueueRepository } from '../repositories/job-queue.repository.js';

/**
 * Stops the work of something being deleted before its files go, so no worker writes into what
 * was just deleted: unfinished tasks end cancelled through the task store (a generation's credits
 * come back; a training's slot stays used when the model is deleted), waiting jobs leave their
 * queue, and a worker running one is told on the task cancel channel. Then `assertReleased`
 * holds the deletion back (NotYet) until no worker holds any of the tasks' jobs.
 */
export class WorkStopper {
  constructor(
    private readonly deps: {
      db: Db;
      jobs: JobQueueRepository;
      /** Publishes on the cancel channel (REDIS_PREFIX + TASK_CANCEL_CHANNEL). */
      redis: Redis;
      cancelChannel: string;
    },
  ) {}

  async stop(work: readonly WorkItem[], ending: { reason: string; keepTrainingSlot: boolean }) {
    const { db, jobs, redis, cancelChannel } = this.deps;
    for (const task of work) {
      if (!UNFINISHED_TASK_STATUSES.includes(task.status)) continue;
      await jobs.removeWaitingJob(task.task_type, task.engine_kind, task.id);
      // Not announced on the task events stream: what is being deleted is not a training that
      // failed (the pages would say so), and its rows go in a moment.
      await endTask(db, task.id, {
        status: 'cancelled',
        message: ending.reason,
        errorMessage: ending.reason,
        keepTrainingSlot: ending.keepTrainingSlot,
      });
      // Workers that do not run it ignore the message; the one that does stops its engine.
      await redis.publish(cancelChannel, task.id);
    }
  }

  /** NotYet while a worker still holds the job of one of these tasks. */
  async assertReleased(work: readonly WorkItem[]): Promise<void> {
    const held = await this.deps.jobs.tasksHeldByWorkers();
    const holding = work.find((task) => held.has(task.id));
    if (holding) throw new NotYet(`a worker still holds task ${holding.id}`);
  }
}
