import { MESSAGES } from '@studioshot/contracts';
import type { GenerationItem } from '@studioshot/db';
import { generationImageKey } from '@studioshot/storage';
import sharp from 'sharp';
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
  trainingState,
  waitForFinalTask,
  type SeededTraining,
  type Suite,
} from './support/harness.js';
import { LogCapture } from './support/log-capture.js';

let suite: Suite;
let worker: RunningWorker;
const logs = new LogCapture('debug');
/** One trained model (real face analyses, so images can be ranked), shared by the tests. */
let trained: SeededTraining;

beforeAll(async () => {
  suite = await createSuite();
  worker = await startWorker(suite.env(), {
    db: suite.db,
    storage: suite.storage,
    logger: logs.logger,
  });
  trained = await seedTraining(suite, { analyze: true });
  await enqueueTraining(suite, trained);
  const task = await waitForFinalTask(suite, trained.taskId, 120_000);
  expect(task.status).toBe('completed');
}, 180_000);

afterAll(async () => {
  await worker?.close();
  await suite?.close();
});

/** Pids of the engine processes that ran each generate task, in order. */
const generatePids = () =>
  logs
    .filter((r) => r.msg === 'engine start sent' && r.task === 'generate')
    .map((r) => r.enginePid as number);

describe('generation.run through BullMQ, Postgres, storage and the real engine', () => {
  it('trains a model in the current artifact format, with the reference face descriptors', async () => {
    const { model } = await trainingState(suite, trained);
    expect(model.artifact_format).toBe(2);
    expect(model.face_descriptors!.length).toBeGreaterThan(0);
    expect(model.face_descriptors!.every((d) => d.length === 128)).toBe(true);
  });

  it('renders four 1024 px headshots, ranks them by likeness, stores them and completes once', async () => {
    const generation = await seedGeneration(suite, trained);
    const task = await waitForFinalTask(suite, generation.taskId, 120_000);
    expect(task).toMatchObject({
      status: 'completed',
      progress: 100,
      message: 'Your headshots are ready',
      attempts: 1,
      error_message: null,
    });
    expect(task.result).toMatchObject({ images: 4, model_id: trained.modelId });

    const images = await generatedImages(suite, generation.generationId);
    expect(images.map((i) => i.position)).toEqual([0, 1, 2, 3]);
    const scores = images.map((i) => i.identity_score!);
    expect(scores.every((s) => s > 0)).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const image of images) {
      expect(image).toMatchObject({
        user_id: trained.userId,
        model_id: trained.modelId,
        template_id: 'prof_1',
        variant: 0,
        width: 1024,
        height: 1024,
      });
      expect(
        image.image_key.startsWith(
          generationImageKey(trained.userId, generation.generationId, 'x').slice(0, -1),
        ),
      ).toBe(true);
      const stored = await suite.storage.localFile(image.image_key);
      const meta = await sharp(stored.path).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 1024, height: 1024 });
      await stored.release();
      expect(await suite.storage.exists(image.thumbnail_key)).toBe(true);
    }
    const user = await suite.db
      .selectFrom('users')
      .select('total_generations')
      .where('id', '=', trained.userId)
      .executeTakeFirstOrThrow();
    expect(user.total_generations).toBe(1);
  });

  it('serves several generations, a batch among them, on one warm engine session', async () => {
    const before = generatePids().length;
    const batch = await seedGeneration(suite, trained, {
      items: [
        { template_id: 'prof_21', variant: 1, prompt: 'executive portrait of person' },
        { template_id: 'prof_45', variant: 2, prompt: 'creative portrait of person' },
      ],
      seed: 99,
    });
    const single = await seedGeneration(suite, trained, { seed: 7 });
    for (const { taskId } of [batch, single]) {
      expect((await waitForFinalTask(suite, taskId, 120_000)).status).toBe('completed');
    }
    expect(await generatedImages(suite, batch.generationId)).toHaveLength(8);
    expect((await taskRow(suite, batch.taskId)).task_type).toBe('batch_generation');

    const pids = generatePids();
    expect(pids.length).toBe(before + 3);
    // Every generate task so far ran on the same process, still alive and waiting for more.
    expect(new Set(pids).size).toBe(1);
    expect(await processAlive(pids[0]!)).toBe(true);
  });

  it("a prompt the API applied shapes the template's look; the template's own prompt does not", async () => {
    const render = async (item: GenerationItem) => {
      const generation = await seedGeneration(suite, trained, {
        items: [item],
        seed: 21,
        imagesPerItem: 1,
        size: 256,
      });
      expect((await waitForFinalTask(suite, generation.taskId, 120_000)).status).toBe('completed');
      const [image] = await generatedImages(suite, generation.generationId);
      const stored = await suite.storage.localFile(image!.image_key);
      const pixels = await sharp(stored.path).raw().toBuffer();
      await stored.release();
      return pixels;
    };
    const prompt = 'dark moody portrait of person in an office, close-up';
    const own = await render({ template_id: 'prof_1', variant: 0, prompt });
    const again = await render({
      template_id: 'prof_1',
      variant: 0,
      prompt,
      prompt_applied: false,
    });
    const shaped = await render({
      template_id: 'prof_1',
      variant: 0,
      prompt,
      prompt_applied: ['office', 'dark', 'moody', 'close-up'],
    });
    const meanDifference = (a: Buffer, b: Buffer) =>
      a.reduce((sum, value, index) => sum + Math.abs(value - b[index]!), 0) / a.length;
    // Same seed, same template: only the applied prompt changes the picture.
    expect(meanDifference(own, again)).toBe(0);
    expect(meanDifference(own, shaped)).toBeGreaterThan(2);
  });

  it("leaves a model of another engine kind on that kind's queue", async () => {
    const flux = await seedGeneration(suite, trained, { engineKind: 'flux' });
    const studio = await seedGeneration(suite, trained, { seed: 5 });
    expect((await waitForFinalTask(suite, studio.taskId, 120_000)).status).toBe('completed');
    // The studio worker finished a later job and never took the flux one.
    expect((await taskRow(suite, flux.taskId)).status).toBe('queued');
    const job = await suite.queue('generation.flux').getJob(flux.taskId);
    expect(await job!.getState()).toMatch(/waiting|prioritized/);
  });

  it('without a model, restyles one checked photo into four headshots ranked against it', async () => {
    const photo = await suite.db
      .selectFrom('photos')
      .select('id')
      .where('session_id', '=', trained.sessionId)
      .where('usable', '=', true)
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    const generation = await seedGeneration(suite, trained, { photo: { id: photo.id }, seed: 3 });
    const task = await waitForFinalTask(suite, generation.taskId, 120_000);
    expect(task.status, task.error_message ?? '').toBe('completed');
    expect(task.result).toMatchObject({ images: 4, model_id: null, source_photo_id: photo.id });
    const images = await generatedImages(suite, generation.generationId);
    expect(images).toHaveLength(4);
    expect(images.every((i) => i.model_id === null && i.identity_score! > 0)).toBe(true);
  });

  it('a restyle whose photo was deleted fails clearly, without retrying', async () => {
    const generation = await seedGeneration(suite, trained, { photo: { id: null } });
    const task = await waitForFinalTask(suite, generation.taskId, 60_000);
    expect(task).toMatchObject({ status: 'failed', attempts: 1 });
    expect(task.error_message).toBe(
      'The photo these headshots were to be made from has been deleted. Please upload your photos again.',
    );
  });

  it('rebuilds a model trained before generation existed, while its photos are there', async () => {
    await suite.db
      .updateTable('models')
      .set({ artifact_format: 1, face_descriptors: null })
      .where('id', '=', trained.modelId)
      .execute();
    const generation = await seedGeneration(suite, trained, { seed: 11 });
    const task = await waitForFinalTask(suite, generation.taskId, 120_000);
    expect(task.status).toBe('completed');
    const { model } = await trainingState(suite, trained);
    expect(model.artifact_format).toBe(2);
    expect(model.face_descriptors!.length).toBeGreaterThan(0);
    expect(await generatedImages(suite, generation.generationId)).toHaveLength(4);
  });

  it('asks for a retrain when an old model has no photos left, without retrying', async () => {
    const old = await seedTraining(suite);
    await enqueueTraining(suite, old);
    expect((await waitForFinalTask(suite, old.taskId, 120_000)).status).toBe('completed');
    await suite.db
      .updateTable('models')
      .set({ artifact_format: 1 })
      .where('id', '=', old.modelId)
      .execute();
    await suite.db.deleteFrom('photos').where('session_id', '=', old.sessionId).execute();
    const generation = await seedGeneration(suite, old);
    const task = await waitForFinalTask(suite, generation.taskId, 60_000);
    expect(task).toMatchObject({
      status: 'failed',
      message: 'Generation failed',
      error_message: MESSAGES.retrainToGenerate,
      attempts: 1,
    });
    expect(await generatedImages(suite, generation.generationId)).toEqual([]);
  });
});
