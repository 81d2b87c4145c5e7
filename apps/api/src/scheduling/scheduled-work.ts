import type { Container } from '../container.js';

/** Names of the API's scheduled jobs; a feature adding timed work adds its name here. */
export const SCHEDULED_JOBS = {
  /** Subscriptions with billing due: renewed, retried, returned to free (RenewalsService). */
  billingSweep: 'billing.sweep',
  /** One subscription's next due moment (period end, credit month, retry): a delayed job each. */
  billingRenew: 'billing.renew',
  /** Tasks waiting on a queue no worker of their engine kind serves fail, saying why. */
  unservedTasksSweep: 'tasks.unserved-sweep',
  /** Paid generations that failed and were not refunded yet (no page saw the failure). */
  paidGenerationRefunds: 'payments.refund-failed-generations',
  /** Training photos past their retention, export zips past their day (RetentionService). */
  retentionPurge: 'retention.purge',
  /** One 'Download my data' export, a job per request, run at once (ExportService). */
  dataExport: 'data.export',
} as const;

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
    if (typeof userId !== 'string') return;
    // Stripe mode: Stripe Billing charges; what it did is read back before anything is decided.
    await c.stripeWebhooks?.reconcile(userId);
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
  // A paid generation that failed is refunded when its page sees the failure; this catches the
  // ones no page saw, and retries refunds the provider refused.
  await scheduled.every(SCHEDULED_JOBS.paidGenerationRefunds, { every: MINUTE_MS }, async () => {
    const refunded = await c.payments.refundFailedPaidGenerations();
    if (refunded > 0) logger.info({ refunded }, 'failed paid generations refunded');
  });
  // Deletes what the privacy page says we do not keep; each run reports what it removed.
  await scheduled.every(SCHEDULED_JOBS.retentionPurge, { every: HOUR_MS }, () =>
    c.retention.purge(),
  );
  scheduled.handle(SCHEDULED_JOBS.dataExport, (run) => c.exports.runJob(run));
}
