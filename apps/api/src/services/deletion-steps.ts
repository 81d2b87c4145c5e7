import type { JobPolicy, ScheduledJobRun, ScheduledJobs } from '../scheduling/scheduled-jobs.js';

/** What a deletion job's run is told: where to report each step done. */
export type DeletionRun = Pick<ScheduledJobRun, 'stepDone'>;

/** What a deletion service does with the job facility: queue its job, follow it. */
export type DeletionJobs = Pick<ScheduledJobs, 'at' | 'finished' | 'progress'>;

/**
 * How a deletion job is retried: with backoff for about an hour before it is left failed for an
 * operator (kept a month); a finished one is removed at once, so the queue keeps nothing about
 * anyone.
 */
export const DELETION_JOB_POLICY: JobPolicy = {
  attempts: 12,
  backoffMs: 2_000,
  forgetFinished: true,
  keepFailedDays: 30,
};

/** One step of a deletion job. Each can run again after a crash and finds its work done. */
export interface DeletionStep<Context> {
  name: string;
  run(context: Context): Promise<void>;
}

/** Runs the steps in order, reporting each one done (the job's progress). */
export async function runSteps<Context>(
  steps: readonly DeletionStep<Context>[],
  context: Context,
  run: DeletionRun,
): Promise<void> {
  for (const [index, step] of steps.entries()) {
    await step.run(context);
    await run.stepDone(index + 1);
  }
}
