import { useCallback, useEffect, useLayoutEffect, useReducer, useRef } from 'react';
import { ApiError } from '../../lib/api-client';
import { realtime } from '../../lib/realtime';
import { useTaskUpdates } from '../../lib/realtime-tasks';
import { newIdempotencyKey, type GenerationResult } from './generation-api';
import {
  failureOf,
  generationReducer,
  IDLE,
  nextIdempotencyKey,
  type GenerationState,
} from './generation-machine';

export interface UseGeneration {
  state: GenerationState;
  /**
   * Starts a generation with `key`, or by default a fresh key per click (the same one again when
   * the last attempt got no answer, so it is never charged twice).
   */
  start: (key?: string) => void;
  reset: () => void;
}

/**
 * Runs one generation end to end: the Generate call (`send`, with the idempotency key), then,
 * when it answers 202, the task followed live over /ws (polled while the socket is down) with its
 * progress and message, and once the task ends the same call again with the same key for the
 * images or the reason it failed. `onSettled` runs once per outcome (done or failed).
 */
export function useGeneration(
  send: (key: string) => Promise<GenerationResult>,
  onSettled?: (state: GenerationState) => void,
): UseGeneration {
  const [state, dispatch] = useReducer(generationReducer, IDLE);
  const latest = useRef({ send, onSettled, state });
  // A layout effect: current before any click can reach `start` after this render.
  useLayoutEffect(() => {
    latest.current = { send, onSettled, state };
  });

  const call = useCallback((key: string) => {
    latest.current.send(key).then(
      (result) => dispatch({ type: 'answered', key, result }),
      (error: unknown) => dispatch({ type: 'error', key, failure: failureOf(error) }),
    );
  }, []);

  const start = useCallback(
    (key?: string) => {
      const next = key ?? nextIdempotencyKey(latest.current.state, newIdempotencyKey);
      dispatch({ type: 'start', key: next, at: Date.now() });
      call(next);
    },
    [call],
  );
  const reset = useCallback(() => dispatch({ type: 'reset' }), []);

  // While the call is in flight the server is already working: show its task's progress.
  const submitting = state.phase === 'submitting';
  useEffect(() => {
    if (!submitting) return;
    return realtime.onTask((task) => dispatch({ type: 'task', task }));
  }, [submitting]);

  const followed = state.phase === 'running' ? state.taskId : null;
  const attempt = state.phase === 'running' ? state.attempt : -1;
  const { task, error } = useTaskUpdates(followed);
  useEffect(() => {
    if (followed && task?.id === followed) dispatch({ type: 'task', task });
    // `attempt`: an answer that still said "running" must look at a cached final task again.
  }, [followed, task, attempt]);
  useEffect(() => {
    if (followed && error instanceof ApiError && error.status === 404) {
      dispatch({ type: 'task-lost', taskId: followed });
    }
  }, [followed, error]);

  // The task ended: the same call with the same key answers the outcome.
  const collectingKey = state.phase === 'collecting' ? `${state.key}#${state.attempt}` : null;
  useEffect(() => {
    const current = latest.current.state;
    if (collectingKey && current.phase === 'collecting') call(current.key);
  }, [collectingKey, call]);

  const settled = state.phase === 'done' || state.phase === 'failed' ? state : null;
  useEffect(() => {
    if (settled) latest.current.onSettled?.(settled);
  }, [settled]);

  return { state, start, reset };
}
