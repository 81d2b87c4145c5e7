import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { SCHEDULED_JOBS } from '@studioshot/contracts';
import { NotYet, ScheduledJobs, type ScheduledJobRun } from '../src/scheduling/scheduled-jobs.js';

/** This file's own job names, any payload. */
const anyPayload = z.record(z.string(), z.unknown());
const TEST_JOBS = {
  'test.tick': anyPayload,
  'test.renew': anyPayload,
  'test.x': anyPayload,
  'test.flaky': anyPayload,
  'test.broken': anyPayload,
  'test.steps': anyPayload,
  'test.elsewhere': anyPayload,
};
type TestFacility = ScheduledJobs<typeof TEST_JOBS>;

/** Two API replicas' facilities on one Redis prefix, as two processes of a deployment would be. */
const opened: { facilities: Pick<TestFacility, 'close'>[]; redis: Redis[]; prefix: string }[] = [];

function deployment(
  replicas: number,
  options: Pick<
    ConstructorParameters<typeof ScheduledJobs<typeof TEST_JOBS>>[0],
    'attempts' | 'backoffMs' | 'policies'
  > = {},
) {
  const prefix = `test:${randomBytes(6).toString('hex')}:bull`;
  const logLines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  const redis: Redis[] = [];
  const facilities = Array.from({ length: replicas }, () => {
    const connection = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 3 });
    redis.push(connection);
    return new ScheduledJobs({ connection, prefix, logger, catalogue: TEST_JOBS, ...options });
  });
  opened.push({ facilities, redis, prefix });
  return { facilities, logLines };
}

/** Resolves when `count` jobs have completed across the given facilities' workers. */
function completions(facilities: TestFacility[], count: number): Promise<string[]> {
  const ids: string[] = [];
  return new Promise((resolve) => {
    for (const facility of facilities)
      facility.start().on('completed', (job) => {
        ids.push(job.id ?? '');
        if (ids.length === count) resolve(ids);
      });
  });
}

afterEach(async () => {
  for (const { facilities, redis, prefix } of opened.splice(0)) {
    await Promise.all(facilities.map((f) => f.close()));
    const keys = await redis[0]!.keys(`${prefix}*`);
    if (keys.length) await redis[0]!.del(...keys);
    await Promise.all(redis.map((r) => r.quit()));
  }
});

describe('scheduled jobs', () => {
  it('runs a repeating schedule once per tick when two replicas register it', async () => {
    const { facilities } = deployment(2);
    const runs: string[] = [];
    // Both replicas register the same hourly schedule at their start.
    for (const facility of facilities)
      await facility.every('test.tick', { every: 3_600_000 }, async (run) => {
        runs.push(run.id);
      });
    const [queue] = facilities.map((f) => f.queue);
    expect(await queue!.getJobSchedulers()).toHaveLength(1);

    const first = completions(facilities, 1);
    expect(await first).toHaveLength(1);
    expect(runs).toHaveLength(1);
    // The tick that ran made the next one, an hour on; nothing else is in line.
    const counts = await queue!.getJobCounts('wait', 'active', 'delayed', 'completed');
    expect(counts).toEqual({ wait: 0, active: 0, delayed: 1, completed: 1 });

    // Bring the next tick forward: it too runs exactly once, on one of the two workers.
    const second = completions(facilities, 1);
    const [next] = await queue!.getDelayed();
    await next!.promote();
    await second;
    expect(runs).toHaveLength(2);
    expect(new Set(runs).size).toBe(2);
    expect(await queue!.getJobCounts('wait', 'active', 'delayed', 'completed')).toEqual({
      wait: 0,
      active: 0,
      delayed: 1,
      completed: 2,
    });
  });

  it('adds a one-off job once under its id, from any replica, and runs it once', async () => {
    const { facilities } = deployment(2);
    const runs: Omit<ScheduledJobRun, 'stepDone'>[] = [];
    for (const facility of facilities)
      facility.handle('test.renew', async ({ id, name, data, attempt }) => {
        runs.push({ id, name, data, attempt });
      });
    const runAt = new Date(Date.now() + 86_400_000);
    await Promise.all(
      facilities.flatMap((facility) => [
        facility.at('test.renew', { id: 'renew.user-1.1767225600000', runAt, data: { user: 1 } }),
        facility.at('test.renew', { id: 'renew.user-1.1767225600000', runAt, data: { user: 1 } }),
      ]),
    );
    const queue = facilities[0]!.queue;
    expect(await queue.getJobCounts('wait', 'delayed')).toEqual({ wait: 0, delayed: 1 });
    expect(await facilities[1]!.job('renew.user-1.1767225600000')).toMatchObject({
      name: 'test.renew',
      state: 'delayed',
    });

    const done = completions(facilities, 1);
    await (await queue.getJob('renew.user-1.1767225600000'))!.promote();
    expect(await done).toEqual(['renew.user-1.1767225600000']);
    expect(runs).toEqual([
      { id: 'renew.user-1.1767225600000', name: 'test.renew', data: { user: 1 }, attempt: 1 },
    ]);
    // Added again while the finished job is still kept: still nothing new.
    await facilities[1]!.at('test.renew', { id: 'renew.user-1.1767225600000', runAt });
    expect(await queue.getJobCounts('wait', 'delayed', 'completed')).toEqual({
      wait: 0,
      delayed: 0,
      completed: 1,
    });
  });

  it("refuses a name or a payload the API's catalogue does not know; a malformed job fails for good unrun", async () => {
    const connection = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 3 });
    const prefix = `test:${randomBytes(6).toString('hex')}:bull`;
    const facility = new ScheduledJobs({ connection, prefix, logger: pino({ level: 'silent' }) });
    opened.push({ facilities: [facility], redis: [connection], prefix });
    expect(() => facility.handle('test.unknown' as never, async () => {})).toThrow(
      /not in the catalogue/,
    );
    const runs: string[] = [];
    facility.handle(SCHEDULED_JOBS.billingRenew, async (run) => {
      runs.push(run.data.user_id);
    });
    await expect(
      facility.at(SCHEDULED_JOBS.billingRenew, {
        id: 'renew.bad.1',
        runAt: new Date(),
        data: { user_id: 'not-a-uuid' },
      }),
    ).rejects.toThrow();
    expect(await facility.job('renew.bad.1')).toBeUndefined();
    // One that reaches the queue malformed anyway (an older release, a hand-made job).
    const failed = new Promise<{ finishedOn?: number }>((resolve) =>
      facility.start().on('failed', (job) => resolve({ finishedOn: job?.finishedOn })),
    );
    await facility.queue.add(
      SCHEDULED_JOBS.billingRenew,
      { user_id: 42 },
      { jobId: 'renew.bad.2' },
    );
    expect((await failed).finishedOn).toEqual(expect.any(Number));
    expect(runs).toEqual([]);
  });

  it('refuses an id BullMQ would misread', async () => {
    const { facilities } = deployment(1);
    facilities[0]!.handle('test.x', async () => {});
    await expect(
      facilities[0]!.at('test.x', { id: 'renew:u:2026-01-01T00:00:00Z', runAt: new Date() }),
    ).rejects.toThrow(/must be letters/);
    await expect(facilities[0]!.at('test.x', { id: '42', runAt: new Date() })).rejects.toThrow(
      /must be letters/,
    );
  });

  it('retries a failing handler with backoff, and logs each failure', async () => {
    const { facilities, logLines } = deployment(1, { attempts: 3, backoffMs: 10 });
    const attempts: number[] = [];
    facilities[0]!.handle('test.flaky', async (run) => {
      attempts.push(run.attempt);
      if (run.attempt < 3) throw new Error(`provider unavailable (attempt ${run.attempt})`);
    });
    const done = completions(facilities, 1);
    await facilities[0]!.at('test.flaky', { id: 'flaky-1', runAt: new Date() });
    await done;
    expect(attempts).toEqual([1, 2, 3]);
    const warnings = logLines.filter(
      (line) => line.msg === 'scheduled job failed; it will be retried',
    );
    expect(warnings.map((line) => line.jobId)).toEqual(['flaky-1', 'flaky-1']);
  });

  it('gives up after the last attempt and says so', async () => {
    const { facilities, logLines } = deployment(1, { attempts: 2, backoffMs: 10 });
    facilities[0]!.handle('test.broken', async () => {
      throw new Error('always');
    });
    const failed = new Promise<void>((resolve) => {
      facilities[0]!.start().on('failed', (job) => {
        if (job?.finishedOn) resolve();
      });
    });
    await facilities[0]!.at('test.broken', { id: 'broken-1', runAt: new Date() });
    await failed;
    expect(await facilities[0]!.job('broken-1')).toMatchObject({ state: 'failed' });
    expect(logLines.map((line) => line.msg)).toEqual([
      'scheduled job failed; it will be retried',
      'scheduled job failed for good',
    ]);
  });

  it('a job that is NotYet comes back without using an attempt; its steps are read back, and a name that forgets finished jobs reads as finished once gone', async () => {
    const { facilities, logLines } = deployment(1, {
      attempts: 1,
      policies: { 'test.steps': { attempts: 2, backoffMs: 10, forgetFinished: true } },
    });
    const seen: { attempt: number; progress: number | undefined }[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    facilities[0]!.handle('test.steps', async (run) => {
      seen.push({ attempt: run.attempt, progress: await facilities[0]!.progress(run.id) });
      await run.stepDone(1);
      // The first three runs wait for a worker to let go, as a deletion does.
      if (seen.length <= 3) throw new NotYet('a worker still holds it');
      await released;
      await run.stepDone(2);
    });
    facilities[0]!.start();
    const id = await facilities[0]!.at('test.steps', { id: 'steps-1', runAt: new Date() });
    expect(id).toBe('steps-1');
    // Not finished while it waits and while it runs.
    expect(await facilities[0]!.finished(id, 50)).toBe(false);
    for (;;) {
      if (seen.length === 4) break;
      await new Promise((next) => setTimeout(next, 20));
    }
    expect(await facilities[0]!.progress(id)).toBe(1);
    release();
    expect(await facilities[0]!.finished(id, 10_000)).toBe(true);
    // Every run was the first attempt: waiting is not a failure, and nothing was logged as one.
    expect(seen.map((run) => run.attempt)).toEqual([1, 1, 1, 1]);
    expect(logLines).toEqual([]);
    // Removed once finished (nothing kept about it), so its progress is gone too.
    expect(await facilities[0]!.job(id)).toBeUndefined();
    expect(await facilities[0]!.progress(id)).toBeUndefined();
  });

  it('a job whose name has no handler in this process waits for a replica that has it', async () => {
    const { facilities } = deployment(2);
    // The first replica alone runs a worker, without the handler (an older release, say).
    facilities[0]!.start();
    await facilities[0]!.at('test.elsewhere', { id: 'elsewhere-1', runAt: new Date() });
    await new Promise<void>((resolve) => {
      const check = async () => {
        const state = (await facilities[0]!.job('elsewhere-1'))?.state;
        if (state === 'delayed') resolve();
        else setTimeout(() => void check(), 20);
      };
      void check();
    });
    expect(await facilities[0]!.job('elsewhere-1')).toMatchObject({ state: 'delayed' });
    const ran: number[] = [];
    facilities[1]!.handle('test.elsewhere', async (run) => {
      ran.push(run.attempt);
    });
    const done = new Promise<string | undefined>((resolve) =>
      facilities[1]!.start().on('completed', (job) => resolve(job.id)),
    );
    expect(await done).toBe('elsewhere-1');
    expect(ran).toEqual([1]);
    expect(await facilities[1]!.finished('elsewhere-1', 1_000)).toBe(true);
  });
});
