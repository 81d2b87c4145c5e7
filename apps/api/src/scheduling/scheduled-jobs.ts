import { QUEUES, SCHEDULED_JOB_PAYLOADS } from '@studioshot/contracts';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { Logger } from '../logger.js';

/**
 * The API's one facility for timed work, on BullMQ: a `scheduled` queue, and one worker per API
 * process that runs each job by its name's handler.
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
 * A handler that throws is retried with exponential backoff (`attempts`, `backoffMs`) and every
 * failure is logged; the last one says the job failed for good. Handlers must be idempotent
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
 * Register handlers before `start()`; `main.ts` starts the worker (tests construct the container
 * without it and start one only when a test asks for it).
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
  /** Jobs one worker runs at once (default 4). */
  concurrency?: number;
}

/** BullMQ refuses custom job ids with ':' (its own repeat ids use it) or that read as integers. */
const JOB_ID = /^[A-Za-z0-9._-]+$/;

export class ScheduledJobs<C extends JobCatalogue = typeof SCHEDULED_JOB_PAYLOADS> {
  readonly queue: Queue;
  private readonly catalogue: C;
  private readonly handlers = new Map<string, ScheduledJobHandler>();
  private worker: Worker | undefined;
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
   * job with that id exists, adding it again adds nothing.
   */
  async at<N extends keyof C & string>(
    name: N,
    job: { id: string; runAt: Date; data?: z.input<C[N]> },
  ): Promise<void> {
    if (!JOB_ID.test(job.id) || /^\d+$/.test(job.id))
      throw new Error(`scheduled job id ${job.id} must be letters, digits, '.', '_' or '-'`);
    const schema = this.catalogue[name];
    if (!schema) throw new Error(`scheduled job ${name} is not in the catalogue`);
    const data = schema.parse(job.data ?? {});
    // The job's own timestamp is this moment, so timestamp + delay is `runAt` to the millisecond.
    const now = Date.now();
    await this.queue.add(name, data, {
      jobId: job.id,
      timestamp: now,
      delay: Math.max(0, job.runAt.getTime() - now),
    });
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
    const worker = new Worker(QUEUES.scheduled, (job) => this.run(job), {
      connection: { ...this.options.connection.options, maxRetriesPerRequest: null },
      prefix: this.options.prefix,
      concurrency: this.options.concurrency ?? 4,
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
  private async run(job: Job): Promise<unknown> {
    const handler = this.handlers.get(job.name);
    if (!handler) throw new Error(`no handler for scheduled job ${job.name}`);
    // Retrying cannot mend a payload: it fails for good at once, and says why.
    const data = this.catalogue[job.name]?.safeParse(job.data ?? {});
    if (!data?.success) throw new UnrecoverableError(`malformed ${job.name} job`);
    return handler({
      id: job.id ?? '',
      name: job.name,
      data: data.data,
      attempt: job.attemptsMade + 1,
    });
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
