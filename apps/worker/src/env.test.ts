import { DEV_CONVENIENCES } from '@studioshot/contracts';
import { describe, expect, it } from 'vitest';
import { loadWorkerEnv } from './env.js';

const required = { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://u@127.0.0.1/db' };

describe('loadWorkerEnv', () => {
  it('names a bad variable', () => {
    expect(() => loadWorkerEnv({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
    expect(() => loadWorkerEnv({ ...required, TRAINING_CONCURRENCY: '0' })).toThrow(
      /TRAINING_CONCURRENCY/,
    );
    expect(() => loadWorkerEnv({ ...required, ENGINE_SESSION_MAX_TASKS: '0' })).toThrow(
      /ENGINE_SESSION_MAX_TASKS/,
    );
  });

  it.each(DEV_CONVENIENCES.filter((c) => c.apps.includes('worker')).map((c) => [c.setting]))(
    '%s on: refused in production, naming it',
    (setting) => {
      const turnOn: Record<string, Record<string, string>> = {
        ENGINE_FLAG_IMAGES: { ENGINE_FLAG_IMAGES: '1' },
      };
      const on = turnOn[setting];
      // A convenience added to the list needs its case here: this test walks the whole list.
      expect(on, `how to turn on ${setting}`).toBeDefined();
      expect(() => loadWorkerEnv({ ...required, ...on, NODE_ENV: 'production' })).toThrow(setting);
      expect(() => loadWorkerEnv({ ...required, ...on, NODE_ENV: 'test' })).not.toThrow();
      expect(() => loadWorkerEnv({ ...required, NODE_ENV: 'production' })).not.toThrow();
    },
  );

  it('has production defaults: studio engine, one training per GPU, 30 minute limit', () => {
    expect(loadWorkerEnv(required)).toMatchObject({
      ENGINE_KIND: 'studio',
      PHOTO_CHECK_CONCURRENCY: 1,
      TRAINING_CONCURRENCY: 1,
      TRAINING_TIMEOUT_MS: 1_800_000,
      GENERATION_CONCURRENCY: 1,
      GENERATION_TIMEOUT_MS: 300_000,
      ENGINE_SESSION_IDLE_MS: 600_000,
      ENGINE_SESSION_MAX_TASKS: 200,
      ENGINE_CANCEL_GRACE_MS: 5000,
      ENGINE_TERM_GRACE_MS: 5000,
      WORKER_SHUTDOWN_GRACE_MS: 25_000,
    });
  });

  it('runs each engine kind in its own virtualenv unless ENGINE_PYTHON names one', () => {
    expect(loadWorkerEnv(required).ENGINE_PYTHON).toMatch(/engine\/\.venv\/bin\/python$/);
    expect(loadWorkerEnv({ ...required, ENGINE_KIND: 'flux' }).ENGINE_PYTHON).toMatch(
      /engine\/\.venv-flux\/bin\/python$/,
    );
    expect(
      loadWorkerEnv({ ...required, ENGINE_KIND: 'flux', ENGINE_PYTHON: '/opt/flux/bin/python' })
        .ENGINE_PYTHON,
    ).toBe('/opt/flux/bin/python');
  });

  it('serves metrics on a private port: 9465 in production, any free one elsewhere', () => {
    expect(loadWorkerEnv({ ...required, NODE_ENV: 'production' }).METRICS_PORT).toBe(9465);
    expect(loadWorkerEnv(required).METRICS_PORT).toBe(0);
    expect(loadWorkerEnv({ ...required, METRICS_PORT: '9100' }).METRICS_PORT).toBe(9100);
    expect(() => loadWorkerEnv({ ...required, METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });
});
