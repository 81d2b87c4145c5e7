import type { TaskType } from '@studioshot/contracts';
import {
  claimTask,
  completeTask,
  endTask,
  requeueTask,
  type Db,
  type Task,
  type TaskCompletion,
} from '@studioshot/db';
import { UnrecoverableError, WaitingError } from 'bullmq';
import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import {
  EngineFailure,
  type EngineRunOptions,
  type EngineRunResult,
  type EngineStartRequest,
} from '../bridge/engine-process.js';
import type { EngineLease } from '../bridge/engine-pool.js';
import { isFinalAttempt, type JobContext, type JobHandler } from '../jobs/registry.js';
import { TaskStopped, type TaskCancellations } from './task-cancellations.js';
import type { TaskEvents } from './task-events.js';
import { TaskProgressReporter } from './task-progress.js';
import { createTaskWorkspace } from './task-workspaces.js';

/**
 * The one way a task job runs, whatever its type: claim the task, stage a workspace, run the
 * type's work under a stop signal (operator cancel, per-task timeout, worker shutdown), report
 * progress (row first, then the event), and end the attempt by the same ladder: back to the
 * queue without using an attempt on shutdown, cancelled, retried when the failure is retryable
 * and attempts remain, else failed for good. Every ending goes through the task store
 * (`@studioshot/db` task-store), whose per-type effects give back what the task held.
 */

export interface TaskRunnerDeps {
  db: Db;
  events: Pick<TaskEvents, 'changed'>;
  cancellations: Pick<TaskCancellations, 'track'>;
  /** Parent of each task's temporary directory. */
  tmpDir: string;
}

/** What users read about a task type's run. */
export interface TaskMessages {
  starting: string;
  completed: string;
  failed: string;
  cancelled: string;
  cancelledError: string;
  requeued: string;
  internal: string;
  abandoned: string;
  /** `{duration}` is replaced by the time limit, e.g. "30 minutes". */
  timedOut: string;
}

/** A task type's part: what to do with a claimed task. */
export interface TaskWork {
  /** Task types this job claims (a job for another type's task is skipped). */
  types: readonly TaskType[];
  messages: TaskMessages;
  /** A run (inputs, engine, storing) taking longer is stopped and retried. */
  timeoutMs: number;
  /**
   * Does the work; what it returns completes the task (with `messages.completed` unless it says
   * otherwise). Throws to fail the attempt.
   */
  execute(
    run: TaskRun,
  ): Promise<Omit<TaskCompletion, 'gpuSeconds' | 'message'> & { message?: string }>;
}

/** A problem with what the user gave us: retrying cannot help, the message is for them. */
export class TaskInputError extends Error {
  override name = 'TaskInputError';
}

/** Maps an engine's steps onto a slice of the task's 0-100 progress. */
export interface ProgressBand {
  start: number;
  end: number;
}

/** One attempt of a claimed task: what the type's work gets to do its job. */
export class TaskRun {
  readonly logger: Logger;
  readonly progress: TaskProgressReporter;
  /** Seconds engines held their device for this attempt: what the cost projection bills. */
  engineSeconds = 0;
  private readonly cleanups: (() => Promise<unknown>)[] = [];

  constructor(
    readonly task: Task,
    readonly stop: AbortSignal,
    readonly workspace: string,
    private readonly context: JobContext,
    deps: TaskRunnerDeps,
  ) {
    // The job's logger already names the task; the task type is added.
    this.logger = context.logger.child({ taskType: task.task_type });
    this.progress = new TaskProgressReporter(deps.db, context.job, task, deps.events, this.logger);
  }

  /** Runs `release` when the attempt ends, however it ends (downloaded files, leases). */
  onCleanup(release: () => Promise<unknown>): void {
    this.cleanups.push(release);
  }

  /** Reports `fraction` (0..1) of a band, with a message. */
  report(band: ProgressBand, fraction: number, message: string): void {
    const clamped = Math.min(1, Math.max(0, fraction));
    this.progress.report(band.start + Math.floor((band.end - band.start) * clamped), message);
  }

  /**
   * Runs one engine task on a leased engine: cancelled when the attempt is stopped, its steps
   * reported within `band`, its time billed. The lease is released when the run settles.
   */
  async runEngine(
    lease: EngineLease,
    request: EngineStartRequest,
    band: ProgressBand,
    options: Pick<EngineRunOptions, 'onArtifact'> = {},
  ): Promise<EngineRunResult> {
    const { engine } = lease;
    const cancel = () => void engine.cancel(this.stop.reason);
    this.stop.addEventListener('abort', cancel);
    const started = performance.now();
    try {
      if (this.stop.aborted) throw this.stop.reason;
      const requestId = this.context.requestId;
      return await engine.run(requestId ? { ...request, request_id: requestId } : request, {
        logger: this.logger,
        onProgress: ({ step, total, message, metrics, eta_seconds }) => {
          if (metrics || eta_seconds !== undefined) {
            this.logger.debug({ metrics, etaSeconds: eta_seconds }, 'engine metrics');
          }
          this.report(band, step / total, message);
        },
        onArtifact: options.onArtifact,
      });
    } finally {
      this.engineSeconds += (performance.now() - started) / 1000;
      this.stop.removeEventListener('abort', cancel);
      // A session engine goes back to its pool; a single-run one is stopped (it may still be
      // writing its output: it must be gone before the workspace is removed).
      await lease.release();
    }
  }

  async cleanup(): Promise<void> {
    await Promise.allSettled(this.cleanups.splice(0).map((release) => release()));
  }
}

/** The job handler of a task type: `{task_id}` in, the task row tells the rest. */
export function taskJobHandler(
  deps: TaskRunnerDeps,
  work: TaskWork,
): JobHandler<'model.train' | 'generation.run'> {
  return {
    async run({ task_id }, context) {
      const task = await claimTask(deps.db, task_id, work.types, work.messages.starting);
      if (!task) {
        context.logger.info({ taskId: task_id }, 'task missing or already final: skipped');
        return;
      }
      await attempt(deps, work, task, context);
    },
    // A run that failed settles its task itself; this is for a job BullMQ gave up on without a
    // run to do it (its workers kept dying). A no-op for a task already final.
    async failedForGood({ task_id }, logger) {
      const failed = await endTask(deps.db, task_id, {
        status: 'failed',
        message: work.messages.failed,
        errorMessage: work.messages.abandoned,
      });
      if (failed) {
        await deps.events.changed(failed);
        logger.warn({ taskId: task_id }, 'task abandoned: its workers kept stopping');
      }
    },
  };
}

async function attempt(
  deps: TaskRunnerDeps,
  work: TaskWork,
  task: Task,
  context: JobContext,
): Promise<void> {
  const cancellation = deps.cancellations.track(task.id);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new TaskStopped('timeout')), work.timeoutMs);
  const stop = AbortSignal.any([context.shutdown, cancellation.signal, timeout.signal]);
  const workspace = await createTaskWorkspace(deps.tmpDir);
  const run = new TaskRun(task, stop, workspace, context, deps);
  try {
    void run.progress.announce({ progress: 0, message: work.messages.starting, status: 'running' });
    const outcome = await work.execute(run);
    await run.progress.flush();
    const completed = await completeTask(deps.db, task.id, {
      ...outcome,
      message: outcome.message ?? work.messages.completed,
      gpuSeconds: run.engineSeconds,
    });
    if (completed) await deps.events.changed(completed);
    run.logger.info(
      { completed: Boolean(completed), gpuSeconds: run.engineSeconds },
      'task finished',
    );
  } catch (error) {
    await run.progress.flush();
    await fail(deps, work, run, context, error);
  } finally {
    clearTimeout(timer);
    cancellation.release();
    await run.cleanup();
    await rm(workspace, { recursive: true, force: true });
  }
}

/** Ends a failed attempt by the ladder above. Always throws. */
async function fail(
  deps: TaskRunnerDeps,
  work: TaskWork,
  run: TaskRun,
  context: JobContext,
  error: unknown,
): Promise<never> {
  const { db, events } = deps;
  const { job, token } = context;
  const { messages } = work;
  const taskId = run.task.id;
  const seconds = run.engineSeconds;
  // A stopped task is judged by why it was stopped, whatever error the stop caused.
  const stopReason =
    run.stop.aborted && run.stop.reason instanceof TaskStopped ? run.stop.reason.reason : undefined;

  if (stopReason === 'shutdown') {
    run.logger.info('worker shutting down: task returned to the queue');
    await requeueTask(db, taskId, messages.requeued, seconds);
    await run.progress.announce({ progress: 0, message: messages.requeued, status: 'queued' });
    await job.moveToWait(token);
    throw new WaitingError();
  }
  if (stopReason === 'cancelled') {
    const cancelled = await endTask(db, taskId, {
      status: 'cancelled',
      message: messages.cancelled,
      errorMessage: messages.cancelledError,
      gpuSeconds: seconds,
    });
    if (cancelled) await events.changed(cancelled);
    throw new UnrecoverableError(messages.cancelledError);
  }

  const { message, retryable } =
    stopReason === 'timeout'
      ? {
          message: messages.timedOut.replace('{duration}', formatDuration(work.timeoutMs)),
          retryable: true,
        }
      : describeError(error, messages);
  const expected = error instanceof EngineFailure || error instanceof TaskInputError;
  run.logger[expected || stopReason ? 'warn' : 'error']({ err: error }, 'task attempt failed');
  if (retryable && !isFinalAttempt(job)) {
    const retrying = `Retrying: ${message}`;
    await requeueTask(db, taskId, retrying, seconds);
    await run.progress.announce({ progress: 0, message: retrying, status: 'queued' });
    throw new Error(message);
  }
  const failed = await endTask(db, taskId, {
    status: 'failed',
    message: messages.failed,
    errorMessage: message,
    gpuSeconds: seconds,
  });
  if (failed) await events.changed(failed);
  throw new UnrecoverableError(message);
}

/** The sentence a user reads on the failed task, and whether another attempt could succeed. */
function describeError(
  error: unknown,
  messages: TaskMessages,
): { message: string; retryable: boolean } {
  if (error instanceof EngineFailure) return { message: error.message, retryable: error.retryable };
  if (error instanceof TaskInputError) return { message: error.message, retryable: false };
  return { message: messages.internal, retryable: true };
}

function formatDuration(ms: number): string {
  const [amount, unit] =
    ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}
