import { SCHEDULED_JOBS } from '@studioshot/contracts';
import type { Container } from '../container.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * Registers every handler and repeating schedule of the API's timed work on the container's
 * facility. Called by main.ts before it starts the worker; every replica calls it, and the job
 * schedulers make each tick run once across them.
 */
export async function registerScheduledWork(c: Container): Promise<void> {
  const { scheduled, logger } = c;
  // Each subscription's next due moment has its own delayed job; the sweep catches any a lost
  // job (a Redis flush, a crash between commit and scheduling) would have missed.
  scheduled.handle(SCHEDULED_JOBS.billingRenew, async (run) => {
    const userId = run.data.user_id;
    // Stripe mode: Stripe Billing charges; what it did is read back before anything is decided.
    await c.subscriptionSync?.reconcile(userId);
    await c.renewals.processDue(userId);
  });
  await scheduled.every(SCHEDULED_JOBS.billingSweep, { every: MINUTE_MS }, async () => {
    const processed = await c.renewals.processAllDue();
    if (processed > 0) logger.info({ processed }, 'subscriptions renewed, retried or ended');
  });
  await scheduled.every(SCHEDULED_JOBS.unservedTasksSweep, { every: MINUTE_MS }, async () => {
    const failed = await c.queue.failUnservedTasks();
    if (failed.length > 0) logger.warn({ failed }, 'failed tasks no worker could run');
  });
  // A paid generation's failure records its refund as due; this carries it out, and retries a
  // refund the provider refused.
  await scheduled.every(SCHEDULED_JOBS.generationOrderRefunds, { every: MINUTE_MS }, async () => {
    const refunded = await c.generationOrders.refundDue();
    if (refunded > 0) logger.info({ refunded }, 'failed paid generations refunded');
  });
  // ...and runs it as soon as this process sees a paid generation end (each replica sees every
  // end; the job's id makes it one run).
  queueRefundsAtGenerationEnd(c);
  // Deletes what the privacy page says we do not keep; each run reports what it removed.
  await scheduled.every(SCHEDULED_JOBS.retentionPurge, { every: HOUR_MS }, () =>
    c.retention.purge(),
  );
  scheduled.handle(SCHEDULED_JOBS.dataExport, (run) => c.exports.runJob(run));
}

/**
 * A generation that ended failed or cancelled with its order due back: the refund job runs now,
 * once (its id names the generation), rather than at the next sweep.
 */
export function queueRefundsAtGenerationEnd(
  c: Pick<Container, 'taskEvents' | 'scheduled' | 'generationOrders' | 'logger'>,
): () => void {
  return c.taskEvents.onChange((change) => {
    // A paid order renders one template: a plain generation (the hint may be missing).
    if (change.taskType && change.taskType !== 'generation') return;
    void (async () => {
      if (!(await c.generationOrders.refundDueFor(change.taskId))) return;
      await c.scheduled.at(SCHEDULED_JOBS.generationOrderRefunds, {
        id: `refund.${change.taskId}`,
        runAt: new Date(),
      });
    })().catch((error: unknown) =>
      c.logger.error({ err: error, taskId: change.taskId }, 'could not queue a refund'),
    );
  });
}
