import { DEV_CONVENIENCES } from '@studioshot/contracts';
import { describe, expect, it } from 'vitest';
import { availableCpus } from './cpu-quota.js';
import { loadWorkerEnv, WORKER_POOLS } from './env.js';

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
        ENGINE_ANSWER_AFTER_MS: { ENGINE_ANSWER_AFTER_MS: '100' },
      };
      const on = turnOn[setting];
      // A convenience added to the list needs its case here: this test walks the whole list.
      expect(on, `how to turn on ${setting}`).toBeDefined();
      expect(() =>
        loadWorkerEnv({ ...required, ...on, NODE_ENV: 'production', WORKER_POOL: 'all' }),
      ).toThrow(setting);
      expect(() => loadWorkerEnv({ ...required, ...on, NODE_ENV: 'test' })).not.toThrow();
      expect(() =>
        loadWorkerEnv({ ...required, NODE_ENV: 'production', WORKER_POOL: 'all' }),
      ).not.toThrow();
    },
  );

  it('has production defaults: studio engine, one training per GPU, 30 minute limit', () => {
    expect(loadWorkerEnv(required)).toMatchObject({
      ENGINE_KIND: 'studio',
      PHOTO_CHECK_THREADS: availableCpus(),
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
    expect(
      loadWorkerEnv({ ...required, NODE_ENV: 'production', WORKER_POOL: 'studio' }).METRICS_PORT,
    ).toBe(9465);
    expect(loadWorkerEnv(required).METRICS_PORT).toBe(0);
    expect(loadWorkerEnv({ ...required, METRICS_PORT: '9100' }).METRICS_PORT).toBe(9100);
    expect(() => loadWorkerEnv({ ...required, METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  it('refuses a missing WORKER_POOL in production, naming the pools; elsewhere takes every queue', () => {
    expect(() => loadWorkerEnv({ ...required, NODE_ENV: 'production' })).toThrow(
      'WORKER_POOL is required in production: photo-checks, studio, flux, all',
    );
    for (const pool of ['photo-checks', 'all', 'studio'] as const) {
      expect(
        loadWorkerEnv({ ...required, NODE_ENV: 'production', WORKER_POOL: pool }).WORKER_POOL,
      ).toBe(pool);
    }
    expect(loadWorkerEnv({ ...required, NODE_ENV: 'test' }).WORKER_POOL).toBe('all');
    expect(loadWorkerEnv(required).WORKER_POOL).toBe('all');
    expect(() => loadWorkerEnv({ ...required, WORKER_POOL: 'gpu' })).toThrow(/WORKER_POOL/);
    expect(WORKER_POOLS).toEqual(['photo-checks', 'studio', 'flux', 'all']);
  });

  it('a studio or flux pool runs its own engine kind only', () => {
    expect(() => loadWorkerEnv({ ...required, WORKER_POOL: 'flux' })).toThrow(
      'WORKER_POOL=flux runs the flux engine: set ENGINE_KIND=flux (it is studio)',
    );
    expect(() =>
      loadWorkerEnv({ ...required, WORKER_POOL: 'studio', ENGINE_KIND: 'flux' }),
    ).toThrow('set ENGINE_KIND=studio');
    expect(
      loadWorkerEnv({ ...required, WORKER_POOL: 'flux', ENGINE_KIND: 'flux' }).WORKER_POOL,
    ).toBe('flux');
  });

  it('runs as many photo-check threads as PHOTO_CHECK_THREADS says, else the CPUs it may use', () => {
    expect(loadWorkerEnv({ ...required, PHOTO_CHECK_THREADS: '3' }).PHOTO_CHECK_THREADS).toBe(3);
    expect(() => loadWorkerEnv({ ...required, PHOTO_CHECK_THREADS: '0' })).toThrow(
      /PHOTO_CHECK_THREADS/,
    );
  });
});
