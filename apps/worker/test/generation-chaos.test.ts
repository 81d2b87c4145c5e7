import { applyLedgerEntry, generationRefundKey, generationReservationKey } from '@studioshot/db';
import { generationImageKey } from '@studioshot/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../src/worker-app.js';
import {
  createSuite,
  enqueueTraining,
  generatedImages,
  processAlive,
  seedGeneration,
  seedTraining,
  taskRow,
  waitFor,
  waitForFinalTask,
  type SeededGeneration,
  type SeededTraining,
  type Suite,
} from './support/harness.js';
import { engineStartFor, LogCapture, type LogRecord } from './support/log-capture.js';
import { WorkerProcess } from './support/worker-process.js';

/**
 * Generation under failure, with real worker processes, the real engine, Postgres and Redis: a
 * worker killed mid-generation, and an engine that dies on every attempt. Credits are reserved in
 * the ledger as the API reserves them, so what is kept and what comes back can be counted.
 */

// A dead worker's job is picked up again after its lock expires and a stalled check runs.
const FAST_STALL = { WORKER_LOCK_MS: '1500', WORKER_STALLED_INTERVAL_MS: '500' };

let suite: Suite;
/** One trained model (real face analyses), shared by the tests. */
let trained: SeededTraining;

beforeAll(async () => {
  suite = await createSuite();
  const trainer = await startWorker(suite.env(), {
    db: suite.db,
    storage: suite.storage,
    logger: new LogCapture('warn').logger,
  });
  try {
    trained = await seedTraining(suite, { analyze: true });
    await enqueueTraining(suite, trained);
    expect((await waitForFinalTask(suite, trained.taskId, 120_000)).status).toBe('completed');
  } finally {
    await trainer.close();
  }
});

afterAll(async () => {
  await suite?.close();
});

/** A queued generation whose one credit is reserved, as the API accepts one. */
async function paidGeneration(seed: number): Promise<SeededGeneration> {
  await applyLedgerEntry(suite.db, {
    userId: trained.userId,
    delta: 1,
    reason: 'test_grant',
    idempotencyKey: `grant:${seed}`,
  });
  const generation = await seedGeneration(suite, trained, { seed });
  const reserved = await applyLedgerEntry(suite.db, {
    userId: trained.userId,
    delta: -1,
    reason: 'generation',
    idempotencyKey: generationReservationKey(generation.generationId),
  });
  expect(reserved.outcome).toBe('applied');
  return generation;
}

async function ledgerOf(generationId: string) {
  return suite.db
    .selectFrom('credit_ledger')
    .select(['delta', 'idempotency_key'])
    .where('idempotency_key', 'in', [
      generationReservationKey(generationId),
      generationRefundKey(generationId),
    ])
    .execute();
}

async function balance(): Promise<number> {
  const row = await suite.db
    .selectFrom('users')
    .select('credits_balance')
    .where('id', '=', trained.userId)
    .executeTakeFirstOrThrow();
  return row.credits_balance;
}

async function totalGenerations(): Promise<number> {
  const row = await suite.db
    .selectFrom('users')
    .select('total_generations')
    .where('id', '=', trained.userId)
    .executeTakeFirstOrThrow();
  return row.total_generations;
}

/** Every stored object under the generation's prefix, by name. */
async function storedFiles(generationId: string): Promise<string[]> {
  const prefix = generationImageKey(trained.userId, generationId, 'x').slice(0, -1);
  const names: string[] = [];
  for await (const object of suite.storage.list(prefix))
    names.push(object.key.slice(prefix.length));
  return names.sort();
}

const generateStartFor = (taskId: string) => (record: LogRecord) =>
  engineStartFor(taskId)(record) && record.task === 'generate';

describe('generation when a worker dies', () => {
  it('a worker killed with SIGKILL mid-generation: another finishes it once, 4 images, 1 credit spent', async () => {
    const balanceBefore = await balance();
    const generation = await paidGeneration(101);
    const generationsBefore = await totalGenerations();
    const first = await WorkerProcess.start(suite, new LogCapture(), FAST_STALL);
    await first.logs.next(generateStartFor(generation.taskId), 'the engine starts rendering');
    await waitFor(async () => {
      const task = await taskRow(suite, generation.taskId);
      return task.status === 'running' && task.progress > 0 ? task : undefined;
    }, 'generation under way');
    first.kill('SIGKILL');
    await first.exited;
    for (const pid of first.enginePids())
      await waitFor(
        async () => ((await processAlive(pid)) ? undefined : true),
        `orphaned engine ${pid} to exit`,
        15_000,
      );

    const second = await WorkerProcess.start(suite, new LogCapture(), FAST_STALL);
    try {
      const task = await waitForFinalTask(suite, generation.taskId, 120_000);
      expect(task).toMatchObject({ status: 'completed', progress: 100, attempts: 2 });
      const images = await generatedImages(suite, generation.generationId);
      expect(images.map((i) => i.position)).toEqual([0, 1, 2, 3]);
      // Exactly four images and their thumbnails, under fixed keys: the re-run overwrote.
      expect(await storedFiles(generation.generationId)).toHaveLength(8);
      expect((await ledgerOf(generation.generationId)).map((e) => e.delta)).toEqual([-1]);
      // Granted 1, reserved 1, kept: the balance is where it was.
      expect(await balance()).toBe(balanceBefore);
      expect(await totalGenerations()).toBe(generationsBefore + 1);
    } finally {
      second.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    }
  });
});

describe('generation when the engine dies on every attempt', () => {
  let worker: RunningWorker;
  const logs = new LogCapture('info');

  beforeAll(async () => {
    worker = await startWorker(suite.env(), {
      db: suite.db,
      storage: suite.storage,
      logger: logs.logger,
    });
  });
  afterAll(async () => {
    await worker?.close();
  });

  it('the task fails as Generation failed, the credit comes back once, and nothing is stored', async () => {
    const before = await balance();
    const generation = await paidGeneration(202);
    expect(await balance()).toBe(before);
    const killed: number[] = [];
    // The seeded job has 3 attempts: kill the engine of each as it starts rendering.
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const start = await logs.next(
        (r) => generateStartFor(generation.taskId)(r) && !killed.includes(r.enginePid as number),
        `engine start of attempt ${attempt}`,
      );
      killed.push(start.enginePid as number);
      process.kill(start.enginePid as number, 'SIGKILL');
    }
    const task = await waitForFinalTask(suite, generation.taskId, 120_000);
    expect(task).toMatchObject({ status: 'failed', attempts: 3, message: 'Generation failed' });
    expect(task.error_message).toMatch(/stopped unexpectedly/);
    expect(await generatedImages(suite, generation.generationId)).toHaveLength(0);
    expect((await ledgerOf(generation.generationId)).map((e) => e.delta).sort()).toEqual([-1, 1]);
    expect(await balance()).toBe(before + 1);
    expect(await storedFiles(generation.generationId)).toEqual([]);
  });
});
