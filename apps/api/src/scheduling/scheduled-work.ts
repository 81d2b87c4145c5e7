import { registerPrivacyJobs, type PrivacyArea } from '../areas/privacy.js';
import { registerWorkJobs, type WorkArea } from '../areas/work.js';
import type { Logger } from '@studioshot/observability';
import { registerMoneyJobs, type MoneyArea } from '../money/area.js';
import type { ScheduledJobs } from './scheduled-jobs.js';

/** What the timed work is registered from: the facility, and the areas whose services it calls. */
export type ScheduledWorkSources = { scheduled: ScheduledJobs; logger: Logger } & Pick<
  MoneyArea,
  'renewals' | 'subscriptionSync' | 'generationOrders'
> &
  Pick<WorkArea, 'queue' | 'taskEvents'> &
  Pick<PrivacyArea, 'retention' | 'exports'>;

/**
 * Registers the API's timed work, each area's handlers and repeating schedules by the area
 * itself: money (renewals, refunds), work (the unserved-tasks sweep) and privacy (the retention
 * purge, exports). The deletions' handlers are registered when the privacy area is wired, on
 * every container. Called by main.ts before the timed work may run; every replica calls it, and
 * the job schedulers make each tick run once across them.
 */
export async function registerScheduledWork(c: ScheduledWorkSources): Promise<void> {
  await registerMoneyJobs(c.scheduled, c);
  await registerWorkJobs(c.scheduled, c);
  await registerPrivacyJobs(c.scheduled, c);
}
