import { MESSAGES } from '@studioshot/contracts/messages';
import { ApiError, errorMessage } from '../../lib/api-client';

export type StartProblem =
  | { kind: 'auth' }
  | { kind: 'limit' }
  | { kind: 'plan' }
  | { kind: 'session'; message: string }
  | { kind: 'other'; message: string };

/** What a failed start means for the page (docs/spec/calls.md#74-training, docs/spec/errors.md). */
export function startProblem(error: unknown): StartProblem {
  if (!(error instanceof ApiError)) return { kind: 'other', message: MESSAGES.trainingStartFailed };
  if (error.status === 401) return { kind: 'auth' };
  if (error.detail === MESSAGES.trainingLimit) return { kind: 'limit' };
  if (error.detail === MESSAGES.planRequired) return { kind: 'plan' };
  // A refusal without a reason: the spec's only 403 on start is the training limit.
  if (error.status === 403 && !error.detail) return { kind: 'limit' };
  if (error.status === 404) {
    return { kind: 'session', message: error.detail ?? MESSAGES.sessionNotFound };
  }
  return { kind: 'other', message: errorMessage(error, MESSAGES.trainingStartFailed) };
}
