import {
  JOB_NAMES,
  JOB_PAYLOADS,
  jobQueues,
  type EngineKind,
  type JobName,
} from '@studioshot/contracts';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { z } from 'zod';

export type JobPayload<N extends JobName> = z.infer<(typeof JOB_PAYLOADS)[N]>;

export interface JobContext {
  job: Job;
  /** The worker's lock token, for moving the job out of `active` by hand. */
  token: string | undefined;
  /** Aborts when the worker shuts down and the job ran past the grace period. */
  shutdown: AbortSignal;
  /** Bound to the job's id and name, and to the task id and the request id its payload names. */
  logger: Logger;
  /** The id of the API request that queued the job, if one did (handed on to the engine). */
  requestId?: string;
}

export interface JobHandler<N extends JobName> {
  run(payload: JobPayload<N>, context: JobContext): Promise<void>;
  /**
   * Called once the job has failed for good, however that happened (its last attempt threw, or
   * its worker died more often than BullMQ allows a job to stall), so that nothing it owned is
   * left half-done. Must be idempotent.
   */
  failedForGood?(payload: JobPayload<N>, logger: Logger): Promise<void>;
}

export type JobHandlers = { [N in JobName]: JobHandler<N> };

export class MissingHandlersError extends Error {
  override name = 'MissingHandlersError';
  constructor(readonly jobNames: string[]) {
    super(`No handler registered for job type(s): ${jobNames.join(', ')}`);
  }
}

/** Every job type must have a handler: a missing one stops the process at start, not at 3 a.m. */
export function assertHandlers(
  handlers: Partial<Record<string, unknown>>,
): asserts handlers is JobHandlers {
  const missing = Object.values(JOB_NAMES).filter(
    (name) =>
      typeof (handlers[name] as Partial<JobHandler<JobName>> | undefined)?.run !== 'function',
  );
  if (missing.length) throw new MissingHandlersError(missing);
}

const isJobName = (name: string): name is JobName => Object.hasOwn(JOB_PAYLOADS, name);

/**
 * A job checked against its contract (known type, on its own queue, valid payload) with its
 * handler. A job that fails these checks would fail on every retry too, so it fails for good.
 */
function resolve(handlers: JobHandlers, job: Job, kind: EngineKind) {
  if (!isJobName(job.name)) throw new UnrecoverableError(`unknown job type ${job.name}`);
  const queues = jobQueues(job.name, kind);
  if (!queues.includes(job.queueName)) {
    throw new UnrecoverableError(`${job.name} jobs belong on ${queues.join(' or ')}`);
  }
  const payload = JOB_PAYLOADS[job.name].safeParse(job.data);
  if (!payload.success) {
    throw new UnrecoverableError(`invalid ${job.name} payload: ${payload.error.message}`);
  }
  // Each handler takes its own payload type, which the schema lookup above has just checked.
  return {
    handler: handlers[job.name] as JobHandler<JobName>,
    payload: payload.data as JobPayload<JobName>,
  };
}

/** Runs a job's handler. */
export async function dispatch(
  handlers: JobHandlers,
  job: Job,
  kind: EngineKind,
  context: Omit<JobContext, 'job'>,
): Promise<void> {
  const { handler, payload } = resolve(handlers, job, kind);
  // Every line about the job can be found by the request that caused it and by its task.
  const requestId = 'request_id' in payload ? payload.request_id : undefined;
  const taskId = 'task_id' in payload ? payload.task_id : undefined;
  const logger = context.logger.child({
    ...(requestId === undefined ? {} : { requestId }),
    ...(taskId === undefined ? {} : { taskId }),
  });
  await handler.run(payload, { ...context, logger, requestId, job });
}

/** After a job failed for good: its handler's `failedForGood`, if it has one. */
export async function dispatchFailedForGood(
  handlers: JobHandlers,
  job: Job,
  kind: EngineKind,
  logger: Logger,
): Promise<void> {
  let resolved;
  try {
    resolved = resolve(handlers, job, kind);
  } catch {
    return; // a job that never matched its contract never ran: nothing to settle
  }
  await resolved.handler.failedForGood?.(resolved.payload, logger);
}

/** Whether BullMQ will not retry this attempt if it fails (it has no attempts left). */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
