import { JOB_NAMES, JOB_PAYLOADS, type JobName } from '@studioshot/contracts';
import { UnrecoverableError } from 'bullmq';

export type JobHandlers = { [N in JobName]: (payload: unknown) => Promise<void> };

/** Every job type must have a handler: a missing one stops the process at start, not at 3 a.m. */
export function assertHandlers(
  handlers: Partial<Record<string, unknown>>,
): asserts handlers is JobHandlers {
  const missing = Object.values(JOB_NAMES).filter((name) => typeof handlers[name] !== 'function');
  if (missing.length)
    throw new Error(`No handler registered for job type(s): ${missing.join(', ')}`);
}

/** Validates a job's payload against its contract and runs its handler. */
export async function dispatch(handlers: JobHandlers, name: string, data: unknown): Promise<void> {
  const schema = JOB_PAYLOADS[name as JobName];
  const handler = handlers[name as JobName];
  if (!schema || !handler) throw new UnrecoverableError(`unknown job type ${name}`);
  const payload = schema.safeParse(data);
  // A malformed payload will be malformed on every retry too.
  if (!payload.success)
    throw new UnrecoverableError(`invalid ${name} payload: ${payload.error.message}`);
  await handler(payload.data);
}
