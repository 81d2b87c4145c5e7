import { JOB_NAMES } from '@studioshot/contracts';
import { describe, expect, it } from 'vitest';
import { assertHandlers, MissingHandlersError } from './registry.js';

describe('job handler registry', () => {
  it('names every job type that has no handler', () => {
    expect(() => assertHandlers({})).toThrow(
      `No handler registered for job type(s): ${Object.values(JOB_NAMES).join(', ')}`,
    );
    const handler = { run: async () => undefined };
    expect(() =>
      assertHandlers({
        [JOB_NAMES.checkPhoto]: handler,
        [JOB_NAMES.rejudgePhotoSet]: handler,
        [JOB_NAMES.trainModel]: handler,
      }),
    ).toThrow(new MissingHandlersError([JOB_NAMES.generate]));
  });

  it('accepts a complete set', () => {
    const handler = { run: async () => undefined };
    const handlers = Object.fromEntries(Object.values(JOB_NAMES).map((name) => [name, handler]));
    expect(() => assertHandlers(handlers)).not.toThrow();
  });
});
