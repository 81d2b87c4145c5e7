import type { QueueTask } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts/messages';
import { ApiError, CLIENT_ERROR_CODES } from '../../lib/api-client';
import type { GenerationResult } from './generation-api';

/**
 * One generation, end to end, as a pure state machine (the hook in use-generation.ts drives it):
 *
 *   idle -> submitting (the Generate call is in flight; the server waits up to 8 s)
 *        -> done                (200: the images)
 *        -> running             (202: queued or running; followed over /ws or the task poll)
 *             -> collecting     (the task ended: the same call again, same key, for the outcome)
 *                  -> done | failed | running (it was not quite over)
 *        -> failed              (402, 502 generation_failed, a refusal, or no answer at all)
 */

const FINAL: readonly QueueTask['status'][] = ['completed', 'failed', 'cancelled'];

/**
 * How far apart the server's and the browser's clocks may be when a task pushed over /ws during
 * the Generate call is recognised as the one this click started.
 */
export const CLOCK_SKEW_MS = 30_000;

export type FailureKind =
  /** 402: the balance cannot pay for it. */
  | 'credits'
  /** The generation ran and failed (502 generation_failed); its credit is back. */
  | 'failed'
  /** The server refused the request (a 4xx): nothing was generated. */
  | 'rejected'
  /** No answer (network, timeout, a server fault): it may or may not have been accepted. */
  | 'interrupted';

export interface GenerationFailure {
  kind: FailureKind;
  message: string;
  /** The HTTP status, 0 when there was no answer. */
  status: number;
}

interface Live {
  key: string;
  /** When the click happened (browser clock). */
  startedAt: number;
  progress: number;
  message: string | null;
}

export type GenerationState =
  | { phase: 'idle' }
  /** The call is in flight; `taskId` is the task /ws showed starting meanwhile, if any. */
  | (Live & { phase: 'submitting'; taskId: string | null })
  /** `attempt` counts the answers that said "still running" (re-evaluates a cached task). */
  | (Live & { phase: 'running'; taskId: string; attempt: number })
  | (Live & { phase: 'collecting'; taskId: string; attempt: number })
  | { phase: 'done'; key: string; result: GenerationResult }
  | { phase: 'failed'; key: string; failure: GenerationFailure };

export type GenerationEvent =
  | { type: 'start'; key: string; at: number }
  | { type: 'answered'; key: string; result: GenerationResult }
  | { type: 'task'; task: QueueTask }
  /** The task can no longer be read (a 404): ask the Generate call for the outcome. */
  | { type: 'task-lost'; taskId: string }
  | { type: 'error'; key: string; failure: GenerationFailure }
  | { type: 'reset' };

export const IDLE: GenerationState = { phase: 'idle' };

const isGenerationTask = (task: QueueTask) =>
  task.task_type === 'generation' || task.task_type === 'batch_generation';

const clamp = (value: number) => Math.round(Math.min(100, Math.max(0, value)));

function keyOf(state: GenerationState): string | null {
  return state.phase === 'idle' ? null : state.key;
}

/** The task /ws shows while the call is in flight is ours if it is new, live and a generation. */
function startedByThisClick(task: QueueTask, startedAt: number): boolean {
  const created = Date.parse(task.created_at);
  return (
    isGenerationTask(task) &&
    !FINAL.includes(task.status) &&
    Number.isFinite(created) &&
    created >= startedAt - CLOCK_SKEW_MS
  );
}

function fromAnswer(state: GenerationState, key: string, result: GenerationResult) {
  if (result.status === 'completed' && result.images.length > 0) {
    return { phase: 'done', key, result } as const;
  }
  if (FINAL.includes(result.status)) {
    // The server answers a final failure with a 502; a body saying so is read the same way.
    const message =
      result.status === 'completed'
        ? MESSAGES.noImagesGenerated
        : (result.error_message ?? MESSAGES.generationFailed);
    return { phase: 'failed', key, failure: { kind: 'failed', message, status: 502 } } as const;
  }
  const previous =
    state.phase === 'submitting' || state.phase === 'running' || state.phase === 'collecting'
      ? state
      : null;
  const sameTask = previous && 'taskId' in previous && previous.taskId === result.task_id;
  return {
    phase: 'running',
    key,
    startedAt: previous?.startedAt ?? Date.now(),
    taskId: result.task_id,
    progress: sameTask
      ? Math.max(previous.progress, clamp(result.progress))
      : clamp(result.progress),
    message: result.message ?? (sameTask ? previous.message : null),
    attempt: previous && previous.phase !== 'submitting' ? previous.attempt + 1 : 0,
  } as const;
}

export function generationReducer(state: GenerationState, event: GenerationEvent): GenerationState {
  switch (event.type) {
    case 'start':
      return {
        phase: 'submitting',
        key: event.key,
        startedAt: event.at,
        taskId: null,
        progress: 0,
        message: null,
      };
    case 'answered':
      if (keyOf(state) !== event.key || state.phase === 'done' || state.phase === 'failed') {
        return state;
      }
      return fromAnswer(state, event.key, event.result);
    case 'error':
      if (keyOf(state) !== event.key || state.phase === 'done' || state.phase === 'failed') {
        return state;
      }
      return { phase: 'failed', key: event.key, failure: event.failure };
    case 'task': {
      const { task } = event;
      if (state.phase === 'submitting') {
        const ours =
          state.taskId === task.id ||
          (state.taskId === null && startedByThisClick(task, state.startedAt));
        if (!ours) return state;
        // Only shown: the call's own answer decides the outcome.
        return {
          ...state,
          taskId: task.id,
          progress: Math.max(state.progress, clamp(task.progress)),
          message: task.message ?? state.message,
        };
      }
      if (state.phase !== 'running' || task.id !== state.taskId) return state;
      const progress = Math.max(state.progress, clamp(task.progress));
      const message = task.message ?? state.message;
      if (FINAL.includes(task.status)) {
        return { ...state, phase: 'collecting', progress: Math.max(progress, 100), message };
      }
      return { ...state, progress, message };
    }
    case 'task-lost':
      if (state.phase !== 'running' || state.taskId !== event.taskId) return state;
      return { ...state, phase: 'collecting' };
    case 'reset':
      return IDLE;
  }
}

/** The key for the next click: the same one when the last call's outcome is unknown. */
export function nextIdempotencyKey(state: GenerationState, fresh: () => string): string {
  if (state.phase === 'failed' && state.failure.kind === 'interrupted') return state.key;
  return fresh();
}

export function isBusy(
  state: GenerationState,
): state is Extract<GenerationState, { phase: 'submitting' | 'running' | 'collecting' }> {
  return state.phase === 'submitting' || state.phase === 'running' || state.phase === 'collecting';
}

/** The spec's fallbacks by failure (error catalogue: Generation, Credits, Network). */
export function failureOf(error: unknown): GenerationFailure {
  if (!(error instanceof ApiError)) {
    return { kind: 'interrupted', message: MESSAGES.network, status: 0 };
  }
  const { status, code } = error;
  if (status === 402 || code === 'insufficient_credits') {
    return { kind: 'credits', message: MESSAGES.insufficientCredits, status: 402 };
  }
  if (status === 502 || code === 'generation_failed') {
    return { kind: 'failed', message: error.detail ?? MESSAGES.generationFailed, status };
  }
  if (
    status === 0 ||
    status === 429 ||
    status >= 500 ||
    code === CLIENT_ERROR_CODES.invalidResponse
  ) {
    return {
      kind: 'interrupted',
      message: error.detail ?? MESSAGES.network,
      status,
    };
  }
  return { kind: 'rejected', message: error.detail ?? MESSAGES.generationFailed, status };
}

/** What the progress bar says: the worker's message, else where the generation stands. */
export function progressMessage(state: GenerationState): string {
  if (state.phase === 'submitting' || state.phase === 'running') {
    if (state.message?.trim()) return state.message.trim();
    return state.phase === 'submitting' && state.taskId === null
      ? 'Sending your request...'
      : 'Waiting for a worker';
  }
  if (state.phase === 'collecting') return 'Collecting your headshots...';
  return '';
}
