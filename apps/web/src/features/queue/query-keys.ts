import type { EstimatedTask } from './durations';

/** The queue feature's query keys. */
export const queueKeys = {
  all: () => ['queue'] as const,
  /** The signed-in user's own tasks. */
  user: () => [...queueKeys.all(), 'user'] as const,
  /** Every task queue of the fleet. */
  overview: () => [...queueKeys.all(), 'overview'] as const,
  /** The wait for a task submitted now by the signed-in user. */
  waitEstimate: (task: EstimatedTask) => [...queueKeys.all(), 'estimate', task] as const,
  /** The same for a new visitor, without sign-in. */
  publicEstimate: () => [...queueKeys.all(), 'estimate', 'public'] as const,
};
