import { JOB_NAMES } from '@studioshot/contracts';
import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { assertHandlers, dispatch, type JobHandlers } from './registry.js';

describe('job handler registry', () => {
  it('stops with a clear message when a job type has no handler', () => {
    expect(() => assertHandlers({})).toThrow(
      `No handler registered for job type(s): ${JOB_NAMES.checkPhoto}`,
    );
  });

  it('validates payloads and refuses unknown job types without retries', async () => {
    const seen: unknown[] = [];
    const handlers: JobHandlers = {
      [JOB_NAMES.checkPhoto]: async (p) => void seen.push(p),
      [JOB_NAMES.rejudgePhotoSet]: async () => undefined,
    };
    const payload = {
      photo_id: '00000000-0000-4000-8000-000000000001',
      session_id: '00000000-0000-4000-8000-000000000002',
    };
    await dispatch(handlers, JOB_NAMES.checkPhoto, payload);
    expect(seen).toEqual([payload]);
    await expect(
      dispatch(handlers, JOB_NAMES.checkPhoto, { photo_id: 'x' }),
    ).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(dispatch(handlers, 'nope', {})).rejects.toBeInstanceOf(UnrecoverableError);
  });
});
