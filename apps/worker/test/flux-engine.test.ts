import { JOB_NAMES, TASK_CANCEL_CHANNEL, taskQueueName } from '@studioshot/contracts';
import { modelArtifactKey } from '@studioshot/storage';
import { Redis } from 'ioredis';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../src/worker-app.js';
import {
  createSuite,
  generatedImages,
  processAlive,
  seedGeneration,
  seedTraining,
  storedModelFiles,
  taskRow,
  trainingState,
  waitFor,
  waitForFinalTask,
  WORKER_ROOT,
  type SeededTraining,
  type Suite,
} from './support/harness.js';
import { engineStartFor, LogCapture } from './support/log-capture.js';

/**
 * A worker running the flux engine (ENGINE_KIND=flux) through BullMQ, Postgres, storage and the
 * real bridge, on a tiny random-weight FLUX.1 pipeline made in the flux virtualenv (no GPU, no real
 * weights), with the golden transcripts' fast settings.
 */
const FLUX_PYTHON = path.join(WORKER_ROOT, 'engine/.venv-flux/bin/python');
const TRANSCRIPT_SETTINGS = path.resolve(
  WORKER_ROOT,
  '../../packages/contracts/engine-transcripts/flux/settings.json',
);
const TRAINING_QUEUE = taskQueueName('training', 'flux');

let suite: Suite;
let worker: RunningWorker;
let weightsDir: string;
const logs = new LogCapture('debug');
/** Trained here and reused: the first user's model, then a second user's. */
const trained: SeededTraining[] = [];

/** The flux engine's settings: the engines the worker starts read them from its environment. */
function useEngineSettings(settings: Record<string, string>): void {
  Object.assign(process.env, settings);
}

/** What the API leaves for a flux training: the model and its task on the flux queues. */
async function seedFluxTraining(): Promise<SeededTraining> {
  const training = await seedTraining(suite, { analyze: true });
  await suite.db
    .updateTable('models')
    .set({ model_type: 'flux' })
    .where('id', '=', training.modelId)
    .execute();
  await suite.db
    .updateTable('tasks')
    .set({ engine_kind: 'flux' })
    .where('id', '=', training.taskId)
    .execute();
  await suite.queue(TRAINING_QUEUE).add(
    JOB_NAMES.trainModel,
    { task_id: training.taskId },
    {
      jobId: training.taskId,
      attempts: 3,
      backoff: { type: 'fixed', delay: 10 },
    },
  );
  return training;
}

beforeAll(async () => {
  suite = await createSuite();
  weightsDir = await mkdtemp(path.join(tmpdir(), 'flux-weights-'));
  await promisify(execFile)(FLUX_PYTHON, [
    '-m',
    'studioshot_engine.flux.random_weights',
    weightsDir,
  ]);
  useEngineSettings({
    ...(JSON.parse(await readFile(TRANSCRIPT_SETTINGS, 'utf8')) as Record<string, string>),
    ENGINE_FLUX_WEIGHTS_DIR: weightsDir,
    // The tiny models gain nothing from a second thread on a busy two-core machine.
    OMP_NUM_THREADS: '1',
  });
  worker = await startWorker(
    suite.env({
      ENGINE_KIND: 'flux',
      ENGINE_PYTHON: FLUX_PYTHON,
      ENGINE_READY_TIMEOUT_MS: '120000',
    }),
    { db: suite.db, storage: suite.storage, logger: logs.logger },
  );
}, 240_000);

afterAll(async () => {
  await worker?.close();
  await suite?.close();
  if (weightsDir) await rm(weightsDir, { recursive: true, force: true });
});

describe('a flux worker', () => {
  it('says it runs the flux engine', () => {
    expect(worker.engine?.engine).toBe('flux');
  });

  it('trains a personal LoRA: crops on the photo checks’ faces, the model stored as one safetensors file', async () => {
    const training = await seedFluxTraining();
    const task = await waitForFinalTask(suite, training.taskId, 180_000);
    expect(task).toMatchObject({ status: 'completed', attempts: 1, error_message: null });
    const modelKey = modelArtifactKey(training.userId, training.modelId, 'model.safetensors');
    expect(task.result).toMatchObject({
      model_key: modelKey,
      summary: { photos_used: 4, steps: 4, resumed_from_step: null },
    });
    const state = await trainingState(suite, training);
    expect(state.model).toMatchObject({ status: 'completed', artifact_key: modelKey });
    expect(state.model.face_descriptors!.length).toBe(4);
    // The checkpoint stored during the run was discarded with the model stored.
    expect(
      logs.filter((r) => r.taskId === training.taskId && r.msg === 'training checkpoint stored'),
    ).not.toHaveLength(0);
    expect(await storedModelFiles(suite, training)).toEqual(['model.safetensors']);
    // Every photo came with its face box: no crop had to guess.
    expect(logs.filter((r) => String(r.msg).includes('no face box'))).toEqual([]);
    // Real progress: the loss and an ETA reached the worker.
    const metrics = logs.filter((r) => r.taskId === training.taskId && r.msg === 'engine metrics');
    expect(metrics.some((r) => typeof (r.metrics as { loss?: number })?.loss === 'number')).toBe(
      true,
    );
    trained.push(training);
  }, 240_000);

  it('resumes a training from its stored checkpoint when the engine was killed mid-run', async () => {
    useEngineSettings({
      ENGINE_FLUX_LORA_STEPS: '40',
      ENGINE_FLUX_LORA_CHECKPOINT_EVERY: '4',
      ENGINE_FLUX_LORA_RESOLUTION: '64',
    });
    const training = await seedFluxTraining();
    const start = await logs.next(engineStartFor(training.taskId), 'engine start', 120_000);
    await logs.next(
      (r) => r.taskId === training.taskId && r.msg === 'training checkpoint stored',
      'a stored checkpoint',
      120_000,
    );
    process.kill(start.enginePid as number, 'SIGKILL');
    const task = await waitForFinalTask(suite, training.taskId, 240_000);
    expect(task).toMatchObject({ status: 'completed', attempts: 2 });
    const summary = (task.result as { summary: { resumed_from_step: number | null } }).summary;
    expect(summary.resumed_from_step).toBeGreaterThanOrEqual(4);
    expect(await storedModelFiles(suite, training)).toEqual(['model.safetensors']);
    trained.push(training);
  }, 300_000);

  it('generates on one warm session: the first user’s LoRA, a second user’s, then the base model alone', async () => {
    expect(trained).toHaveLength(2);
    const [first, second] = trained as [SeededTraining, SeededTraining];
    const options = { engineKind: 'flux' as const, size: 256, imagesPerItem: 2 };
    const renders: Buffer[][] = [];
    for (const generation of [
      await seedGeneration(suite, first, options),
      await seedGeneration(suite, second, options),
      await seedGeneration(suite, first, { ...options, photo: { id: first.usablePhotoIds[0]! } }),
    ]) {
      const task = await waitForFinalTask(suite, generation.taskId, 180_000);
      expect(task).toMatchObject({ status: 'completed', attempts: 1 });
      const images = await generatedImages(suite, generation.generationId);
      expect(images).toHaveLength(2);
      const files = await Promise.all(
        images.map((image) => readFile(path.join(suite.storageDir, image.image_key))),
      );
      for (const file of files) {
        expect(await sharp(file).metadata()).toMatchObject({
          format: 'jpeg',
          width: 256,
          height: 256,
        });
      }
      renders.push(files);
    }
    const [firstUser, secondUser, base] = renders.map((files) =>
      files.map((file) => file.toString('base64')).sort(),
    );
    expect(secondUser).not.toEqual(firstUser);
    expect(base).not.toEqual(firstUser);
    expect(base).not.toEqual(secondUser);
    // The three ran on the same engine process, its pipeline loaded once.
    const generatePids = logs
      .filter((r) => r.msg === 'engine start sent' && r.task === 'generate')
      .map((r) => r.enginePid);
    expect(generatePids).toHaveLength(3);
    expect(new Set(generatePids).size).toBe(1);
    expect(logs.filter((r) => String(r.msg).startsWith('flux pipeline loaded'))).toHaveLength(1);
  }, 300_000);

  it('stops a training on an operator’s cancel, its engine with it', async () => {
    // Long enough that the cancel finds it running.
    useEngineSettings({ ENGINE_FLUX_LORA_STEPS: '400' });
    const publisher = new Redis(suite.redisUrl);
    try {
      const training = await seedFluxTraining();
      const start = await logs.next(engineStartFor(training.taskId), 'engine start', 120_000);
      await logs.next(
        (r) => r.taskId === training.taskId && r.msg === 'engine metrics',
        'training progress',
        120_000,
      );
      await publisher.publish(`${suite.prefix}${TASK_CANCEL_CHANNEL}`, training.taskId);
      const task = await waitForFinalTask(suite, training.taskId, 60_000);
      expect(task).toMatchObject({ status: 'cancelled' });
      expect((await taskRow(suite, training.taskId)).status).toBe('cancelled');
      await waitFor(
        async () => ((await processAlive(start.enginePid as number)) ? undefined : true),
        'the cancelled engine to exit',
        20_000,
      );
    } finally {
      await publisher.quit();
    }
  }, 240_000);
});
