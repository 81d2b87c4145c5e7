import { z } from 'zod';
import { TASK_TYPES } from './training.js';

/**
 * The one stream of task changes, for every task type and every queue. Whoever changes a task row
 * (the worker: claim, progress, requeue, completion, failure; the API: cancel) publishes
 * `task-changed` here once the change is committed; each API process reads the stream and
 * relays the task to its owner's /ws sockets.
 *
 * It is a BullMQ events stream without a queue: written with `QueueEventsProducer` and read with
 * `QueueEvents`, both named TASK_EVENTS_STREAM under the deployment's bull prefix
 * (`${REDIS_PREFIX}bull`), so its Redis key is `${REDIS_PREFIX}bull:task-events:events`.
 */
export const TASK_EVENTS_STREAM = 'task-events';
export const TASK_CHANGED_EVENT = 'task-changed';
/** Events the stream keeps (approximately); readers only need the latest few. */
export const TASK_EVENTS_MAX_EVENTS = 10_000;

/**
 * A task changed. Only a hint: the receiver always reads the row (owner, status, progress), and
 * uses these fields to skip work (no socket of that user here) or to read in parallel.
 */
export const ZTaskChangedSchema = z.object({
  task_id: z.string().uuid(),
  user_id: z.string().uuid(),
  task_type: z.enum(TASK_TYPES),
});
export type TaskChanged = z.infer<typeof ZTaskChangedSchema>;

/**
 * The argument of `QueueEventsProducer.publishEvent` for a change (BullMQ stores each field as a
 * stream field; these are strings already):
 *
 *   new QueueEventsProducer(TASK_EVENTS_STREAM, { connection, prefix })
 *     .publishEvent(taskChangedEvent({ task_id, user_id, task_type }), TASK_EVENTS_MAX_EVENTS)
 */
export function taskChangedEvent(
  change: TaskChanged,
): TaskChanged & { eventName: typeof TASK_CHANGED_EVENT } {
  const { task_id, user_id, task_type } = ZTaskChangedSchema.parse(change);
  return { eventName: TASK_CHANGED_EVENT, task_id, user_id, task_type };
}
