import { MESSAGES, ZIdempotencyKeySchema } from '@studioshot/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_ERROR_CODES } from '../../lib/api-client';
import { queueTask } from '../../lib/realtime-testing';
import { newIdempotencyKey, paymentIdempotencyKey } from './generation-api';
import {
  CLOCK_SKEW_MS,
  failureOf,
  generationReducer,
  IDLE,
  isBusy,
  nextIdempotencyKey,
  progressMessage,
  type GenerationEvent,
  type GenerationState,
} from './generation-machine';
import { GENERATION_ID, generationResult } from './testing';

const CLICK = Date.parse('2026-11-23T10:00:00.000Z');
const KEY = 'gen-key-1';

function run(events: GenerationEvent[], from: GenerationState = IDLE): GenerationState {
  return events.reduce(generationReducer, from);
}

const start: GenerationEvent = { type: 'start', key: KEY, at: CLICK };
const queued = generationResult({ status: 'queued', progress: 0, message: 'Waiting for a worker' });
const ourTask = (overrides: Parameters<typeof queueTask>[0] = {}) =>
  queueTask({ id: GENERATION_ID, created_at: '2026-11-23T10:00:00.500Z', ...overrides });

describe('the generation state machine', () => {
  it('200: submitting, then done with the images', () => {
    const state = run([start, { type: 'answered', key: KEY, result: generationResult() }]);
    expect(state.phase).toBe('done');
    expect(state.phase === 'done' && state.result.images).toHaveLength(4);
    expect(isBusy(state)).toBe(false);
  });

  it('202: follows the task with its progress and message, then collects with the same key', () => {
    let state = run([start, { type: 'answered', key: KEY, result: queued }]);
    expect(state).toMatchObject({ phase: 'running', taskId: GENERATION_ID, progress: 0 });
    expect(progressMessage(state)).toBe('Waiting for a worker');

    state = generationReducer(state, {
      type: 'task',
      task: ourTask({ progress: 45, message: 'Rendering headshot 2 of 4' }),
    });
    expect(state).toMatchObject({ phase: 'running', progress: 45 });
    expect(progressMessage(state)).toBe('Rendering headshot 2 of 4');

    // Progress never goes back, and another task changes nothing.
    state = generationReducer(state, { type: 'task', task: ourTask({ progress: 30 }) });
    expect(state).toMatchObject({ progress: 45 });
    const other = queueTask({ id: crypto.randomUUID(), progress: 90 });
    expect(generationReducer(state, { type: 'task', task: other })).toBe(state);

    state = generationReducer(state, {
      type: 'task',
      task: ourTask({ status: 'completed', progress: 100 }),
    });
    expect(state).toMatchObject({ phase: 'collecting', key: KEY, progress: 100 });
    expect(isBusy(state)).toBe(true);

    state = generationReducer(state, { type: 'answered', key: KEY, result: generationResult() });
    expect(state.phase).toBe('done');
  });

  it('a collect that still says running goes back to following, with a new attempt', () => {
    const state = run([
      start,
      { type: 'answered', key: KEY, result: queued },
      { type: 'task', task: ourTask({ status: 'completed', progress: 100 }) },
      { type: 'answered', key: KEY, result: generationResult({ status: 'running', progress: 99 }) },
    ]);
    expect(state).toMatchObject({ phase: 'running', attempt: 1, progress: 100 });
  });

  it('while the call is in flight, shows the progress of the task /ws reports starting', () => {
    let state = run([start]);
    expect(progressMessage(state)).toBe('Sending your request...');
    // An older task (from before the click, beyond the clock allowance) is not ours.
    const old = queueTask({
      id: crypto.randomUUID(),
      created_at: new Date(CLICK - CLOCK_SKEW_MS - 1000).toISOString(),
    });
    expect(generationReducer(state, { type: 'task', task: old })).toBe(state);
    // Nor a training.
    const training = queueTask({ task_type: 'training', created_at: '2026-11-23T10:00:01Z' });
    expect(generationReducer(state, { type: 'task', task: training })).toBe(state);

    state = generationReducer(state, {
      type: 'task',
      task: ourTask({ progress: 20, message: 'Rendering headshot 1 of 4' }),
    });
    expect(state).toMatchObject({ phase: 'submitting', taskId: GENERATION_ID, progress: 20 });
    // Its end does not decide anything: the call's answer does.
    state = generationReducer(state, {
      type: 'task',
      task: ourTask({ status: 'completed', progress: 100 }),
    });
    expect(state).toMatchObject({ phase: 'submitting', progress: 100 });
    state = generationReducer(state, { type: 'answered', key: KEY, result: generationResult() });
    expect(state.phase).toBe('done');
  });

  it('a failure is final; answers to an older click are ignored', () => {
    const failure = { kind: 'failed' as const, message: 'The engine crashed', status: 502 };
    const failed = run([start, { type: 'error', key: KEY, failure }]);
    expect(failed).toEqual({ phase: 'failed', key: KEY, failure });

    const retried = run([{ type: 'start', key: 'gen-key-2', at: CLICK }], failed);
    const late = generationReducer(retried, {
      type: 'answered',
      key: KEY,
      result: generationResult(),
    });
    expect(late).toBe(retried);
  });

  it('a final status in the body is a failure with its reason', () => {
    const state = run([
      start,
      {
        type: 'answered',
        key: KEY,
        result: generationResult({ status: 'failed', error_message: 'No face found' }),
      },
    ]);
    expect(state).toMatchObject({
      phase: 'failed',
      failure: { kind: 'failed', message: 'No face found' },
    });
  });

  it('a task that can no longer be read is collected', () => {
    const state = run([
      start,
      { type: 'answered', key: KEY, result: queued },
      { type: 'task-lost', taskId: GENERATION_ID },
    ]);
    expect(state.phase).toBe('collecting');
  });

  it('retry: a fresh key after an outcome, the same key when the last call got no answer', () => {
    const fresh = () => 'gen-fresh';
    expect(nextIdempotencyKey(IDLE, fresh)).toBe('gen-fresh');
    const interrupted = run([
      start,
      { type: 'error', key: KEY, failure: failureOf(new TypeError('fetch failed')) },
    ]);
    expect(nextIdempotencyKey(interrupted, fresh)).toBe(KEY);
    const failed = run([
      start,
      {
        type: 'error',
        key: KEY,
        failure: failureOf(new ApiError({ status: 502, code: 'generation_failed' })),
      },
    ]);
    expect(nextIdempotencyKey(failed, fresh)).toBe('gen-fresh');
    const done = run([start, { type: 'answered', key: KEY, result: generationResult() }]);
    expect(nextIdempotencyKey(done, fresh)).toBe('gen-fresh');
  });
});

describe('failureOf', () => {
  it('402 is out of credits with the spec message', () => {
    expect(
      failureOf(new ApiError({ status: 402, code: 'insufficient_credits', detail: 'x' })),
    ).toEqual({ kind: 'credits', message: MESSAGES.insufficientCredits, status: 402 });
  });

  it('502 generation_failed keeps the reason, else the spec fallback', () => {
    expect(
      failureOf(new ApiError({ status: 502, code: 'generation_failed', detail: 'No face' })),
    ).toMatchObject({ kind: 'failed', message: 'No face' });
    expect(failureOf(new ApiError({ status: 502, code: 'generation_failed' }))).toMatchObject({
      kind: 'failed',
      message: MESSAGES.generationFailed,
    });
  });

  it('no answer, a timeout or a server fault: outcome unknown', () => {
    for (const error of [
      new ApiError({ status: 0, code: CLIENT_ERROR_CODES.timeout, detail: MESSAGES.network }),
      new ApiError({
        status: 503,
        code: 'service_unavailable',
        detail: 'Queue system initializing...',
      }),
      new ApiError({ status: 0, code: CLIENT_ERROR_CODES.invalidResponse }),
      new Error('boom'),
    ]) {
      expect(failureOf(error).kind).toBe('interrupted');
    }
  });

  it('other refusals keep the server detail', () => {
    expect(
      failureOf(new ApiError({ status: 404, code: 'not_found', detail: 'Payment not found' })),
    ).toEqual({ kind: 'rejected', message: 'Payment not found', status: 404 });
  });
});

describe('idempotency keys', () => {
  it('a fresh, valid key per click', () => {
    const a = newIdempotencyKey();
    expect(ZIdempotencyKeySchema.safeParse(a).success).toBe(true);
    expect(newIdempotencyKey()).not.toBe(a);
  });

  it('one key per payment, the same on every reload, valid whatever the address held', () => {
    expect(paymentIdempotencyKey('pi_test_123')).toBe('payment:pi_test_123');
    expect(paymentIdempotencyKey('pi_test_123')).toBe(paymentIdempotencyKey('pi_test_123'));
    for (const odd of ['pi test/ü?x', 'p', 'x'.repeat(300)]) {
      expect(ZIdempotencyKeySchema.safeParse(paymentIdempotencyKey(odd)).success).toBe(true);
    }
  });
});
