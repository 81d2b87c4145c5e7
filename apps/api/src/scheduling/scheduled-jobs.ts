import { QUEUES, SCHEDULED_JOB_PAYLOADS } from '@studioshot/contracts';
import { DelayedError, Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { Logger } from '@studioshot/observability';

/**
 * The API's one job facility, on BullMQ: a `scheduled` queue, and one worker per API process that
 * runs each job by its name's handler. Timed work, exports and deletions all run here.
 *
 * Two kinds of work:
 * - Repeating: `every(name, { every: ms }, handler)` registers the handler and upserts a BullMQ
 *   job scheduler whose id is the name. Upserting is idempotent, so every replica registers the
 *   same schedule at start and each tick still runs once, on one replica: a tick is one job
 *   (`repeat:{name}:{millis}`), taken by one worker.
 * - At a point in time: `handle(name, handler)` once, then `at(name, { id, runAt, data })` adds a
 *   delayed job with that deterministic id. Adding the same id again (another replica, a retried
 *   request) is a no-op while the job exists, so a subscription's period end fires once.
 *
 * A handler that throws is retried with exponential backoff (`attempts`, `backoffMs`, or the
 * name's own `policies` entry) and every failure is logged; the last one says the job failed for
 * good. A handler that throws `NotYet` (a worker still holds what it must wait for) has its job
 * come back a moment later without using an attempt. A job whose process dies is taken up again by
 * BullMQ's stalled-job check. A job whose name has no handler in this process (a replica of an
 * older release, or one that registered only part of the work) waits for one that has it.
 * Handlers must be idempotent
 * (decide from the database, not from the job): a job may run again after a crash, and a one-off
 * id can be added again once its finished job has been cleaned away.
 *
 * Every job name and its payload's schema come from one catalogue (`SCHEDULED_JOBS` and
 * `SCHEDULED_JOB_PAYLOADS` in packages/contracts): a handler is typed by its name's payload, a job
 * whose payload does not match is refused when added, and one that reaches the worker malformed
 * fails for good without running.
 *
 * Example, a later feature's nightly purge (its name and empty payload in the catalogue):
 *
 *   scheduled.every(SCHEDULED_JOBS.retentionPurge, { every: 24 * 60 * 60_000 }, () => retention.purge());
 *
 * Each area registers the handlers of its own jobs with only the services they call. The container
 * starts the worker (the deletions must run in every API process); main.ts then registers the
 * timed work (scheduling/scheduled-work.ts), which tests register only when they ask for it.
 */

/** Job names and the schema of each one's payload. */
export type JobCatalogue = Record<string, z.ZodType<Record<string, unknown>>>;

/** What a handler is told about the job it runs. */
export interface ScheduledJobRun<Data = Record<string, unknown>> {
  id: string;
  name: string;
  data: Data;
  /** 1 for the first attempt. */
  attempt: number;
  /** Reports the steps done so far (read back by `progress`). */
  stepDone(step: number): Promise<void>;
}

/** A job cannot run yet (a worker still holds a task): it comes back soon without an attempt. */
export class NotYet extends Error {
  override name = 'NotYet';
}

/** How a job name is retried, when it is not the facility's default. */
export interface JobPolicy {
  attempts: number;
  /** First retry delay; doubles each time. */
  backoffMs: number;
  /** A finished job is removed at once (its id then reads as finished) rather than kept a day. */
  forgetFinished?: boolean;
  /** How long a job failed for good is kept for an operator (default a week). */
  keepFailedDays?: number;
}

export type ScheduledJobHandler<Data = Record<string, unknown>> = (
  run: ScheduledJobRun<Data>,
) => Promise<unknown>;

export interface ScheduledJobsOptions<C extends JobCatalogue> {
  /** The job names this facility runs and their payloads (default: the API's catalogue). */
  catalogue?: C;
  /** Shared connection for queue commands; the worker opens its own blocking one from its options. */
  connection: Redis;
  /** BullMQ key prefix (the deployment's REDIS_PREFIX + 'bull'), shared by every replica. */
  prefix: string;
  logger: Logger;
  /** Runs of a job before it fails for good (default 5). */
  attempts?: number;
  /** First retry delay; doubles each time (default 30 s). */
  backoffMs?: number;
  /** Jobs one worker runs at once (default 8). */
  concurrency?: number;
  /** Names retried otherwise than by `attempts` and `backoffMs`. */
  policies?: Partial<Record<NoInfer<keyof C & string>, JobPolicy>>;
}

/** BullMQ refuses custom job ids with ':' (its own repeat ids use it) or that read as integers. */
const JOB_ID = /^[A-Za-z0-9._-]+$/;
/** How soon a job that is `NotYet`, or has no handler here, is looked at again. */
const RECHECK_MS = 1_000;

export class ScheduledJobs<C extends JobCatalogue = typeof SCHEDULED_JOB_PAYLOADS> {
  readonly queue: Queue;
  private readonly catalogue: C;
  private readonly handlers = new Map<string, ScheduledJobHandler>();
  private worker: Worker | undefined;
  private events: QueueEvents | undefined;
  private readonly jobOptions: {
    attempts: number;
    backoff: { type: 'exponential'; delay: number };
  };

  constructor(private readonly options: ScheduledJobsOptions<C>) {
    this.catalogue = options.catalogue ?? (SCHEDULED_JOB_PAYLOADS as unknown as C);
    this.jobOptions = {
      attempts: options.attempts ?? 5,
      backoff: { type: 'exponential', delay: options.backoffMs ?? 30_000 },
    };
    this.queue = new Queue(QUEUES.scheduled, {
      connection: options.connection,
      prefix: options.prefix,
      defaultJobOptions: {
        ...this.jobOptions,
        // Kept a while for a look at what ran; a failure longer, to see why.
        removeOnComplete: { age: 24 * 3600, count: 1000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
  }

  /** Registers the handler of a job name of the catalogue; one handler per name. */
  handle<N extends keyof C & string>(name: N, handler: ScheduledJobHandler<z.output<C[N]>>): this {
    if (!(name in this.catalogue)) throw new Error(`scheduled job ${name} is not in the catalogue`);
    if (this.handlers.has(name)) throw new Error(`scheduled job ${name} already has a handler`);
    this.handlers.set(name, handler as ScheduledJobHandler);
    return this;
  }

  /**
   * A repeating job: the handler, and a job scheduler (id = name) running it every `every` ms,
   * the first run at once. Safe to call from every replica at every start.
   */
  async every<N extends keyof C & string>(
    name: N,
    schedule: { every: number },
    handler: ScheduledJobHandler<z.output<C[N]>>,
  ): Promise<void> {
    this.handle(name, handler);
    await this.queue.upsertJobScheduler(
      name,
      { every: schedule.every },
      { name, data: {}, opts: this.jobOptions },
    );
  }

  /**
   * A one-off job at `runAt` (at once when that has passed), under a deterministic id: while a
   * job with that id exists, adding it again adds nothing. Answers the id.
   */
  async at<N extends keyof C & string>(
    name: N,
    job: { id: string; runAt: Date; data?: z.input<C[N]> },
  ): Promise<string> {
    if (!JOB_ID.test(job.id) || /^\d+$/.test(job.id))
      throw new Error(`scheduled job id ${job.id} must be letters, digits, '.', '_' or '-'`);
    const schema = this.catalogue[name];
    if (!schema) throw new Error(`scheduled job ${name} is not in the catalogue`);
    const data = schema.parse(job.data ?? {});
    // The job's own timestamp is this moment, so timestamp + delay is `runAt` to the millisecond.
    const now = Date.now();
    await this.queue.add(name, data, {
      ...this.policyOptions(name),
      jobId: job.id,
      timestamp: now,
      delay: Math.max(0, job.runAt.getTime() - now),
    });
    return job.id;
  }

  /**
   * Waits up to `ms` for the job to finish; whether it did. A job that is gone has finished (a
   * name that forgets finished jobs); one failed for good never counts.
   */
  async finished(id: string, ms: number): Promise<boolean> {
    const job = await this.queue.getJob(id);
    if (!job) return true;
    if (await job.isCompleted()) return true;
    try {
      await job.waitUntilFinished(await this.queueEvents(), ms);
    } catch {
      // Timed out, an attempt failed (it is retried), or the job was removed as it completed
      // (BullMQ reports a job it cannot find as a failure): the queue says which.
    }
    const after = await this.queue.getJob(id);
    return after === undefined || (await after.isCompleted());
  }

  /** Steps a job reported done; undefined when there is no such job (finished, or never added). */
  async progress(id: string): Promise<number | undefined> {
    const job = await this.queue.getJob(id);
    if (!job) return undefined;
    return typeof job.progress === 'number' ? job.progress : 0;
  }

  /** The job with this id, if it still exists (for tests and the monitor). */
  async job(id: string): Promise<{ name: string; state: string; runAt: Date } | undefined> {
    const job = await this.queue.getJob(id);
    if (!job) return undefined;
    return {
      name: job.name,
      state: await job.getState(),
      runAt: new Date(job.timestamp + (job.opts.delay ?? 0)),
    };
  }

  /** Starts this process's worker: every registered name must have its handler by now. */
  start(): Worker {
    if (this.worker) return this.worker;
    const { logger } = this.options;
    const worker = new Worker(QUEUES.scheduled, (job, token) => this.run(job, token), {
      connection: { ...this.options.connection.options, maxRetriesPerRequest: null },
      prefix: this.options.prefix,
      concurrency: this.options.concurrency ?? 8,
    });
    worker.on('error', (error) => logger.error({ err: error }, 'scheduled job worker error'));
    worker.on('failed', (job, error) => {
      const context = {
        err: error,
        jobId: job?.id,
        jobName: job?.name,
        attempt: job?.attemptsMade,
      };
      // finishedOn is set only once BullMQ gives up on the job.
      if (job?.finishedOn) logger.error(context, 'scheduled job failed for good');
      else logger.warn(context, 'scheduled job failed; it will be retried');
    });
    this.worker = worker;
    return worker;
  }

  /** Runs a job's handler; what it answers (a purge's report) is kept as the job's return value. */
  private async run(job: Job, token: string | undefined): Promise<unknown> {
    // Retrying cannot mend a payload: it fails for good at once, and says why.
    const data = this.catalogue[job.name]?.safeParse(job.data ?? {});
    if (!data?.success) throw new UnrecoverableError(`malformed ${job.name} job`);
    const handler = this.handlers.get(job.name);
    if (!handler) return this.later(job, token, `no handler for ${job.name} in this process`);
    try {
      return await handler({
        id: job.id ?? '',
        name: job.name,
        data: data.data,
        attempt: job.attemptsMade + 1,
        stepDone: (step) => job.updateProgress(step),
      });
    } catch (error) {
      if (!(error instanceof NotYet)) throw error;
      return this.later(job, token, error.message);
    }
  }

  /** The job comes back in a moment without using an attempt: waiting is not a failure. */
  private async later(job: Job, token: string | undefined, reason: string): Promise<never> {
    this.options.logger.debug({ jobId: job.id, jobName: job.name, reason }, 'scheduled job waits');
    await job.moveToDelayed(Date.now() + RECHECK_MS, token);
    throw new DelayedError();
  }

  /** The queue options of a name's own policy, if it has one. */
  private policyOptions(name: string) {
    const policy = this.options.policies?.[name as keyof C & string];
    if (!policy) return {};
    return {
      attempts: policy.attempts,
      backoff: { type: 'exponential' as const, delay: policy.backoffMs },
      ...(policy.forgetFinished ? { removeOnComplete: true } : {}),
      ...(policy.keepFailedDays
        ? { removeOnFail: { age: policy.keepFailedDays * 24 * 3600 } }
        : {}),
    };
  }

  private async queueEvents(): Promise<QueueEvents> {
    if (!this.events) {
      this.events = new QueueEvents(QUEUES.scheduled, {
        connection: { ...this.options.connection.options, maxRetriesPerRequest: null },
        prefix: this.options.prefix,
      });
      this.events.on('error', (error) =>
        this.options.logger.warn({ err: error }, 'scheduled job events error'),
      );
      await this.events.waitUntilReady();
    }
    return this.events;
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.events?.close();
    await this.queue.close();
  }
}
