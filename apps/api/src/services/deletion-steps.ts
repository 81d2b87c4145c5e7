import type { DeletionRun } from '../repositories/deletion-jobs.repository.js';

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
