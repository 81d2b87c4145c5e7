import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  engineCommandLine,
  EngineFailure,
  EngineProcess,
  type EngineProcessOptions,
  type EngineProgress,
} from '../src/bridge/engine-process.js';
import { EnginePool } from '../src/bridge/engine-pool.js';
import {
  ENGINE_PYTHON,
  FIXTURES,
  processAlive,
  TRAINING_PHOTOS,
  waitFor,
} from './support/harness.js';
import { LogCapture } from './support/log-capture.js';

const CANCEL_GRACE_MS = 700;
const TERM_GRACE_MS = 700;

let logs: LogCapture;
let out: string;
const started: EngineProcess[] = [];

function options(overrides: Partial<EngineProcessOptions> = {}): EngineProcessOptions {
  return {
    command: engineCommandLine(ENGINE_PYTHON, 'studio'),
    kind: 'studio',
    logger: logs.logger,
    readyTimeoutMs: 20_000,
    cancelGraceMs: CANCEL_GRACE_MS,
    termGraceMs: TERM_GRACE_MS,
    ...overrides,
  };
}

function engine(overrides: Partial<EngineProcessOptions> = {}): EngineProcess {
  const process = new EngineProcess(options(overrides));
  started.push(process);
  return process;
}

const request = (photos = TRAINING_PHOTOS) => ({
  job_id: 'job-1',
  task: 'train' as const,
  params: {
    photos: photos.map((file) => ({
      id: file,
      path: path.join(FIXTURES, file),
      original_path: null,
      descriptor: null,
    })),
    output_dir: out,
    trigger_word: 'person',
    model_name: 'Bridge test',
  },
});

/** The run's failure (or a test failure if it succeeded). */
const failureOf = (run: Promise<unknown>) =>
  run.then(
    () => {
      throw new Error('the run succeeded');
    },
    (error: unknown) => error as EngineFailure,
  );

beforeEach(async () => {
  logs = new LogCapture();
  out = await mkdtemp(path.join(tmpdir(), 'engine-out-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.stop()));
  await rm(out, { recursive: true, force: true });
});

describe('the engine bridge, with the real studio engine', () => {
  it('handshakes, trains with progress and artifacts, then the process exits', async () => {
    const lifecycle = { starts: 0, crashes: 0 };
    const studio = engine({
      lifecycle: {
        started: () => (lifecycle.starts += 1),
        crashed: () => (lifecycle.crashes += 1),
      },
    });
    expect(await studio.ready).toMatchObject({ v: 2, type: 'ready', engine: 'studio' });
    const progress: EngineProgress[] = [];
    const artifacts: string[] = [];
    const result = await studio.run(request(), {
      logger: logs.logger.child({ jobId: 'job-1' }),
      onProgress: (p) => progress.push(p),
      onArtifact: (a) => artifacts.push(a.kind),
    });
    expect(result.summary).toMatchObject({ photos_used: expect.any(Number) });
    expect(result.artifacts.map((a) => a.kind)).toEqual(['model', 'preview']);
    expect(artifacts).toEqual(['model', 'preview']);
    for (const artifact of result.artifacts) {
      expect(path.dirname(artifact.path)).toBe(out);
      expect((await stat(artifact.path)).size).toBeGreaterThan(0);
    }
    expect(progress.length).toBeGreaterThan(TRAINING_PHOTOS.length);
    const steps = progress.map((p) => p.step);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ step: progress.at(-1)!.total });
    // One task per process: it is stopped once the result is in.
    expect(await studio.exited).toEqual({ code: 0, signal: null });
    // A clean exit after its answer is no crash (what /metrics counts).
    expect(lifecycle).toEqual({ starts: 1, crashes: 0 });
    await expect(studio.run(request())).rejects.toThrow(/runs one task/);
    // Its output went to the log with the job's bindings.
    expect(logs.find((r) => r.msg === 'engine start sent')).toMatchObject({
      jobId: 'job-1',
      enginePid: studio.pid,
    });
    const stderr = logs.filter((r) => r.engineOutput === 'stderr' && r.jobId === 'job-1');
    expect(stderr.map((r) => r.msg).join('\n')).toMatch(/closed the protocol pipe/);
  });

  it('reports an engine error with its own sentence and retryable flag', async () => {
    const studio = engine();
    const failure = await failureOf(
      studio.run(request(['no-face-texture.jpg', 'no-face-background.jpg', 'astronaut.jpg'])),
    );
    expect(failure).toBeInstanceOf(EngineFailure);
    expect(failure).toMatchObject({
      kind: 'failed',
      retryable: false,
      details: { code: 'bad_input' },
    });
    expect(failure.message).toMatch(/photo/i);
  });

  it('fails to start clearly', async () => {
    const broken = engine({ command: engineCommandLine(ENGINE_PYTHON, 'no-such-engine') });
    await expect(broken.ready).rejects.toThrow(
      'The engine could not be started: it exited (exit code 2) before it was ready',
    );
    const missing = engine({ command: { file: '/nonexistent/python', args: [] } });
    await expect(missing.ready).rejects.toMatchObject({ kind: 'unavailable', retryable: true });
  });

  it('a crash (no result) fails the run as retryable, naming the signal', async () => {
    const crashes: unknown[] = [];
    const studio = engine({
      lifecycle: { started: () => undefined, crashed: (exit) => crashes.push(exit) },
    });
    await studio.ready;
    const run = studio.run(request(), { onProgress: () => process.kill(studio.pid!, 'SIGKILL') });
    const failure = await failureOf(run);
    expect(failure).toMatchObject({
      kind: 'crashed',
      retryable: true,
      message: 'The training engine stopped unexpectedly (signal SIGKILL)',
    });
    // Counted once as a crash on /metrics.
    expect(crashes).toEqual([{ code: null, signal: 'SIGKILL' }]);
  });

  it('cancel: the engine stops by itself within the grace period', async () => {
    const studio = engine({ cancelGraceMs: 10_000 });
    let cancelledAt = 0;
    const run = studio.run(request(), {
      onProgress: () => {
        if (cancelledAt) return;
        cancelledAt = performance.now();
        void studio.cancel('operator');
      },
    });
    const failure = await failureOf(run);
    expect(failure).toMatchObject({ kind: 'cancelled', details: { cancelReason: 'operator' } });
    expect(await studio.exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - cancelledAt).toBeLessThan(10_000);
    expect(logs.find((r) => /SIGTERM|SIGKILL/.test(r.msg))).toBeUndefined();
  });

  it('cancel: an engine that ignores it gets SIGTERM after the grace', async () => {
    const studio = engine();
    await studio.ready;
    let cancelled = false;
    const run = studio.run(request(), {
      onProgress: () => {
        if (cancelled) return;
        cancelled = true;
        // Stopped, it reads nothing; SIGTERM stays pending until it runs again.
        process.kill(studio.pid!, 'SIGSTOP');
        void studio.cancel('timeout');
      },
    });
    await logs.next((r) => r.msg.includes('SIGTERM'), 'SIGTERM');
    process.kill(studio.pid!, 'SIGCONT');
    expect(await failureOf(run)).toMatchObject({ kind: 'cancelled' });
    expect(await studio.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(logs.find((r) => r.msg.includes('SIGKILL'))).toBeUndefined();
  });

  it('cancel: an engine that ignores SIGTERM too is SIGKILLed after both graces', async () => {
    let crashes = 0;
    const studio = engine({
      lifecycle: { started: () => undefined, crashed: () => (crashes += 1) },
    });
    await studio.ready;
    let cancelledAt = 0;
    const run = studio.run(request(), {
      onProgress: () => {
        if (cancelledAt) return;
        process.kill(studio.pid!, 'SIGSTOP'); // a hang: no reading, no signal but KILL
        cancelledAt = performance.now();
        void studio.cancel('timeout');
      },
    });
    expect(await failureOf(run)).toMatchObject({
      kind: 'cancelled',
      details: { cancelReason: 'timeout' },
    });
    expect(await studio.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const elapsed = performance.now() - cancelledAt;
    expect(elapsed).toBeGreaterThanOrEqual(CANCEL_GRACE_MS + TERM_GRACE_MS - 50);
    expect(elapsed).toBeLessThan(CANCEL_GRACE_MS + TERM_GRACE_MS + 2000);
    const order = logs.filter((r) => /SIGTERM|SIGKILL/.test(r.msg)).map((r) => r.msg);
    expect(order).toEqual([
      'engine did not stop in its grace period: SIGTERM',
      'engine did not stop after SIGTERM: SIGKILL',
    ]);
    expect(await processAlive(studio.pid!)).toBe(false);
    // Killed on our orders: no crash.
    expect(crashes).toBe(0);
  });
});

describe('the engine pool', () => {
  const pool = () =>
    new EnginePool({ ...options(), exclusive: false, sessionIdleMs: 60_000, sessionMaxTasks: 2 });

  it('hands a training the spare made ready ahead, starts the next, and stops its own on close', async () => {
    const engines = pool();
    try {
      await engines.start();
      const readyPids = () =>
        logs.filter((r) => r.msg === 'engine ready').map((r) => r.enginePid as number);
      // The spare and the generation session, both ready before any task.
      expect(readyPids()).toHaveLength(2);
      const first = await engines.leaseTraining();
      expect(readyPids()).toContain(first.engine.pid);
      started.push(first.engine);
      await waitFor(() => (readyPids().length === 3 ? true : undefined), 'the next spare');
      const spare = readyPids()[2]!;
      expect(spare).not.toBe(first.engine.pid);

      const second = await engines.leaseTraining();
      started.push(second.engine);
      expect(second.engine.pid).toBe(spare);
      await waitFor(() => (readyPids().length === 4 ? true : undefined), 'the third spare');
      await engines.close();
      const kept = readyPids().at(-1)!;
      await waitFor(async () => ((await processAlive(kept)) ? undefined : true), 'spare stop');
      // Engines leased to tasks belong to them, not to the pool, until released.
      expect(await processAlive(first.engine.pid!)).toBe(true);
      await first.release();
      expect(await processAlive(first.engine.pid!)).toBe(false);
    } finally {
      await engines.close();
    }
  });

  it('keeps one generation session across leases and replaces it after its task limit', async () => {
    const engines = pool();
    try {
      await engines.start();
      const a = await engines.leaseGeneration();
      await a.release();
      const b = await engines.leaseGeneration();
      // Nothing ran on it: a lease that runs no task leaves the session as it was.
      expect(b.engine.pid).toBe(a.engine.pid);
      await b.release();
    } finally {
      await engines.close();
    }
  });

  it('refuses an engine whose ready names another kind', async () => {
    const engines = new EnginePool({
      ...options({ kind: 'flux' }),
      exclusive: true,
      sessionIdleMs: 60_000,
      sessionMaxTasks: 2,
    });
    try {
      const failure = await failureOf(engines.start());
      expect(failure).toMatchObject({ kind: 'unavailable' });
      expect(failure.message).toContain('it is a studio engine; this worker runs flux');
    } finally {
      await engines.close();
    }
  });
});
