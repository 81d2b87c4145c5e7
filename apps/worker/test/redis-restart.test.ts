import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../src/worker-app.js';
import {
  createSuite,
  enqueueTraining,
  seedTraining,
  storedModelFiles,
  taskRow,
  trainingState,
  waitFor,
  waitForFinalTask,
  type SeededTraining,
  type Suite,
} from './support/harness.js';
import { LogCapture } from './support/log-capture.js';

/** A Redis server of this test's own, persisted as production's is (append-only file). */
class OwnRedis {
  private server: ChildProcess | undefined;

  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = spawn(
      'redis-server',
      [
        ...['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir],
        ...['--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''],
        ...['--maxmemory-policy', 'noeviction'],
      ],
      { stdio: 'ignore' },
    );
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    probe.on('error', () => undefined); // refused until the server listens: retried below
    for (let tries = 0; ; tries += 1) {
      try {
        await probe.connect();
        await probe.ping();
        break;
      } catch (error) {
        probe.disconnect();
        if (tries > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    probe.disconnect();
  }

  /** SHUTDOWN: the server writes its append-only file out and exits, as on a clean restart. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    const client = new Redis(this.url, { maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    await client.call('SHUTDOWN').catch(() => undefined); // the connection drops as it exits
    client.disconnect();
    await exited;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let redisDir: string;
let redis: OwnRedis;
let suite: Suite;

beforeAll(async () => {
  redisDir = await mkdtemp(path.join(tmpdir(), 'worker-redis-'));
  redis = new OwnRedis(await freePort(), redisDir);
  await redis.start();
  suite = await createSuite({ redisUrl: redis.url });
});

afterAll(async () => {
  await suite?.close();
  await redis?.stop();
  await rm(redisDir, { recursive: true, force: true });
});

describe('Redis restarts', () => {
  it('lose no queued training, and a running worker rides one out: every training completes once', async () => {
    const trainings: SeededTraining[] = [];
    for (let i = 0; i < 3; i += 1) trainings.push(await seedTraining(suite));
    for (const training of trainings) await enqueueTraining(suite, training);

    await redis.stop();
    await redis.start();

    const worker = await startWorker(suite.env(), {
      db: suite.db,
      storage: suite.storage,
      logger: new LogCapture('warn').logger,
    });
    try {
      // Down again while the worker runs the first training.
      await waitFor(async () => {
        const task = await taskRow(suite, trainings[0]!.taskId);
        return task.status === 'running' ? true : undefined;
      }, 'the first training to run');
      await redis.stop();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await redis.start();
      for (const training of trainings) {
        const task = await waitForFinalTask(suite, training.taskId);
        expect(task).toMatchObject({ status: 'completed', attempts: 1 });
        const state = await trainingState(suite, training);
        expect(state.model.status).toBe('completed');
        expect(state.modelsTrained).toBe(1);
        expect(await storedModelFiles(suite, training)).toEqual(['model.npz', 'preview.jpg']);
      }
    } finally {
      await worker.close();
    }
  });
});
