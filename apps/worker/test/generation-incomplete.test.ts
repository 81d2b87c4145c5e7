import { generationRefundKey, INCOMPLETE_GENERATION_REASON } from '@studioshot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../src/worker-app.js';
import {
  createSuite,
  enqueueTraining,
  generatedImages,
  seedGeneration,
  seedTraining,
  waitForFinalTask,
  type SeededTraining,
  type Suite,
} from './support/harness.js';
import { LogCapture } from './support/log-capture.js';

/**
 * A set that comes back short is not charged. The real engine drops image 1 of every set: with
 * ENGINE_FLAG_IMAGES (a development convenience the worker refuses in production) its streak check
 * fails that image on every render, so the engine tries it framed tighter and from every portrait,
 * then drops it, as it does an image with streaks no render avoids.
 */
let suite: Suite;
let worker: RunningWorker;
let trained: SeededTraining;
const flagged = process.env.ENGINE_FLAG_IMAGES;

beforeAll(async () => {
  // The engine reads its settings from the worker's environment when it starts.
  process.env.ENGINE_FLAG_IMAGES = '1';
  suite = await createSuite();
  worker = await startWorker(suite.env(), {
    db: suite.db,
    storage: suite.storage,
    logger: new LogCapture('warn').logger,
  });
  trained = await seedTraining(suite, { analyze: true });
  await enqueueTraining(suite, trained);
  expect((await waitForFinalTask(suite, trained.taskId, 120_000)).status).toBe('completed');
}, 180_000);

afterAll(async () => {
  await worker?.close();
  await suite?.close();
  if (flagged === undefined) delete process.env.ENGINE_FLAG_IMAGES;
  else process.env.ENGINE_FLAG_IMAGES = flagged;
});

const ledgerOf = (generationId: string) =>
  suite.db
    .selectFrom('credit_ledger')
    .select(['delta', 'reason'])
    .where('idempotency_key', '=', generationRefundKey(generationId))
    .execute();

describe('a set the engine returns short', () => {
  it('completes with the images it has, says so, and gives its credit back in the ledger', async () => {
    const generation = await seedGeneration(suite, trained, { seed: 11, reservedCredits: 1 });
    const task = await waitForFinalTask(suite, generation.taskId, 120_000);
    expect(task).toMatchObject({
      status: 'completed',
      message: '3 of 4 headshots passed our quality check, so this set is not charged.',
    });
    expect(task.result).toMatchObject({ images: 3, dropped: 1 });
    expect(await generatedImages(suite, generation.generationId)).toHaveLength(3);
    expect(await ledgerOf(generation.generationId)).toEqual([
      { delta: 1, reason: INCOMPLETE_GENERATION_REASON },
    ]);
  });

  it('in a batch, gives back the credit of each template whose set is short', async () => {
    const batch = await seedGeneration(suite, trained, {
      items: [
        { template_id: 'prof_21', variant: 1, prompt: 'executive portrait of person' },
        { template_id: 'prof_45', variant: 0, prompt: 'creative portrait of person' },
      ],
      imagesPerItem: 2,
      seed: 12,
      reservedCredits: 2,
    });
    const task = await waitForFinalTask(suite, batch.taskId, 120_000);
    expect(task.status).toBe('completed');
    expect(task.result).toMatchObject({ images: 2, dropped: 2 });
    expect(await ledgerOf(batch.generationId)).toEqual([
      { delta: 2, reason: INCOMPLETE_GENERATION_REASON },
    ]);
  });
});
