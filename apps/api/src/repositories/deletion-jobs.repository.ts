import {
  DELETION_JOB_NAMES,
  DELETION_JOB_PAYLOADS,
  QUEUES,
  type DeletionJobName,
} from '@studioshot/contracts';
import { DelayedError, Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Logger } from '../logger.js';

/** Runs of a deletion before it is left failed for an operator (with backoff: about an hour). */
const ATTEMPTS = 12;
const FIRST_RETRY_MS = 2_000;
/** How soon a deletion waiting for a worker to let go of its task looks again. */
const RECHECK_MS = 1_000;

type Payload<N extends DeletionJobName> = z.infer<(typeof DELETION_JOB_PAYLOADS)[N]>;

/** A step cannot run yet (a worker still holds a task): the job comes back without an attempt. */
export class NotYet extends Error {
  override name = 'NotYet';
}

/** What a deletion job's run is told. */
export interface DeletionRun {
  /** Reports the steps done so far (read back by `progress`). */
  stepDone(step: number): Promise<void>;
}

export type DeletionHandlers = {
  [N in DeletionJobName]: (payload: Payload<N>, run: DeletionRun) => Promise<void>;
};

/**
 * The `deletions` queue: every deletion (an account, a model, a photo set) is a job, consumed in
 * the API process itself, which holds the database, storage, Redis and the payment provider. A
 * job whose process dies is taken up again by BullMQ's stalled-job check; one that throws is
 * retried with backoff; every step is idempotent, so a run after a crash finishes the work. The
 * payloads are ids only, and finished jobs are removed, so the queue keeps nothing about anyone.
 */
export class DeletionJobsRepository {
  private readonly queue: Queue;
  private events: QueueEvents | undefined;
  private worker: Worker | undefined;
  private workerConnection: Redis | undefined;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.queue = new Queue(QUEUES.deletions, {
      connection,
      prefix,
      defaultJobOptions: {
        attempts: ATTEMPTS,
        backoff: { type: 'exponential', delay: FIRST_RETRY_MS },
        removeOnComplete: true,
        removeOnFail: { age: 30 * 24 * 3600 },
      },
    });
  }

  /**
   * Queues a deletion. `jobId` makes a repeat a no-op while the job exists (an account's deletion
   * id); without one each call is its own run (its steps being idempotent, two runs do no harm).
   */
  async enqueue<N extends DeletionJobName>(
    name: N,
    payload: Payload<N>,
    jobId: string = randomUUID(),
  ): Promise<string> {
    const data = DELETION_JOB_PAYLOADS[name].parse(payload);
    await this.queue.add(name, data, { jobId });
    return jobId;
  }

  /**
   * Waits up to `ms` for the job to finish; whether it did. A finished job is removed, so a job
   * that is gone has finished; one failed for good stays (for an operator) and never counts.
   */
  async finished(jobId: string, ms: number): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job) return true;
    try {
      await job.waitUntilFinished(await this.queueEvents(), ms);
    } catch {
      // Timed out, an attempt failed (it is retried), or the job was removed as it completed
      // (BullMQ reports a job it cannot find as a failure): the queue says which.
    }
    return (await this.queue.getJob(jobId)) === undefined;
  }

  /** Steps a job reported done; undefined when there is no such job (finished, or never queued). */
  async progress(jobId: string): Promise<number | undefined> {
    const job = await this.queue.getJob(jobId);
    if (!job) return undefined;
    return typeof job.progress === 'number' ? job.progress : 0;
  }

  /** Starts consuming the queue in this process. */
  start(handlers: DeletionHandlers, concurrency = 4): void {
    if (this.worker) return;
    // A worker blocks on its connection waiting for jobs: its own, retrying forever.
    this.workerConnection = this.connection.duplicate({ maxRetriesPerRequest: null });
    this.worker = new Worker(QUEUES.deletions, (job, token) => this.run(handlers, job, token), {
      connection: this.workerConnection,
      prefix: this.prefix,
      concurrency,
    });
    this.worker.on('failed', (job, error) => {
      const final = error instanceof UnrecoverableError || (job?.attemptsMade ?? 0) >= ATTEMPTS;
      this.logger[final ? 'error' : 'warn'](
        { err: error, jobId: job?.id, jobName: job?.name, final },
        final ? 'deletion failed for good: it needs an operator' : 'deletion failed: retrying',
      );
    });
    this.worker.on('error', (error) => this.logger.warn({ err: error }, 'deletion worker error'));
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.events?.close();
    await this.queue.close();
    await this.workerConnection?.quit().catch(() => undefined);
  }

  private async run(handlers: DeletionHandlers, job: Job, token: string | undefined) {
    const name = job.name as DeletionJobName;
    const schema = DELETION_JOB_PAYLOADS[name] as z.ZodType | undefined;
    if (!schema || !Object.values(DELETION_JOB_NAMES).includes(name))
      throw new UnrecoverableError(`unknown deletion job ${job.name}`);
    const payload = schema.safeParse(job.data);
    if (!payload.success) throw new UnrecoverableError(`malformed ${name} job`);
    const run: DeletionRun = { stepDone: (step) => job.updateProgress(step) };
    try {
      await (handlers[name] as (p: unknown, r: DeletionRun) => Promise<void>)(payload.data, run);
    } catch (error) {
      if (!(error instanceof NotYet)) throw error;
      // Comes back soon without using an attempt: waiting for a worker is not a failure.
      this.logger.debug({ jobId: job.id, reason: error.message }, 'deletion waits');
      await job.moveToDelayed(Date.now() + RECHECK_MS, token);
      throw new DelayedError();
    }
  }

  private async queueEvents(): Promise<QueueEvents> {
    if (!this.events) {
      this.events = new QueueEvents(QUEUES.deletions, {
        connection: { ...this.connection.options, maxRetriesPerRequest: null },
        prefix: this.prefix,
      });
      this.events.on('error', (error) => this.logger.warn({ err: error }, 'deletion events error'));
      await this.events.waitUntilReady();
    }
    return this.events;
  }
}
