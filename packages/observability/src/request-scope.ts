import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The id of the request being answered, for the code it calls: a job queued while answering
 * carries it, so the worker's lines and the engine's lines for that job can be found by it.
 */
const scope = new AsyncLocalStorage<string>();

/** Runs `work` (and everything it awaits) as part of request `requestId`. */
export function runInRequest<T>(requestId: string, work: () => T): T {
  return scope.run(requestId, work);
}

/** The id of the request the calling code is answering, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore();
}
