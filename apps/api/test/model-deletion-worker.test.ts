// Deleting a model while a real worker trains it (the worker app in this process, with the real
// studio engine): the deletion cancels the training on the task cancel channel, the engine stops,
// and only once the worker has let go of the job do the model's files and rows go, so nothing the
// worker was writing is left behind. The training slot stays used.
import {
  MIN_PHOTOS,
  ZModelDeletionSchema,
  type StartTrainingResponse,
} from '@studioshot/contracts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadWorkerEnv } from '../../worker/src/env.js';
import { startWorker, type RunningWorker } from '../../worker/src/worker-app.js';
import { engineStartFor, LogCapture } from '../../worker/test/support/log-capture.js';
import { databaseMentions, everyStoredKey, redisMentions } from './deletion-helpers.js';
import { waitFor } from './generation-helpers.js';
import { bearer, createTestApp, type TestApp } from './helpers.js';
import { storedPhotoSession, trainingUser } from './training-helpers.js';

const FIXTURE_PHOTOS = ['astronaut.jpg', 'astronaut-mirror.jpg', 'astronaut-warm.jpg'];
/** A training needs MIN_PHOTOS usable photos: the fixtures, over again. */
const PHOTOS = Array.from(
  { length: MIN_PHOTOS },
  (_, index) => FIXTURE_PHOTOS[index % FIXTURE_PHOTOS.length]!,
);

let t: TestApp;
let worker: RunningWorker;
let logs: LogCapture;
let storageDir: string;
let workDir: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'api-model-deletion-storage-'));
  workDir = await mkdtemp(path.join(tmpdir(), 'api-model-deletion-worker-'));
  t = await createTestApp({ STORAGE_DIR: storageDir });
  logs = new LogCapture();
  worker = await startWorker(
    loadWorkerEnv({
      NODE_ENV: 'test',
      DATABASE_URL: t.c.env.DATABASE_URL,
      REDIS_URL: t.c.env.REDIS_URL,
      REDIS_PREFIX: t.c.env.REDIS_PREFIX,
      STORAGE_DRIVER: 'local',
      STORAGE_DIR: storageDir,
      WORKER_TMP_DIR: workDir,
      LOG_LEVEL: 'debug',
    }),
    { db: t.c.db, storage: t.c.storage, logger: logs.logger },
  );
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
  await rm(workDir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it('stops the running training on its worker first, then deletes everything of the model', async () => {
  const user = await trainingUser(t, 1);
  const started = await t.request
    .post('/api/v1/training/start')
    .set(bearer(user.token))
    .send({
      model_name: 'Deleted while training',
      session_id: await storedPhotoSession(t, user.id, PHOTOS),
    });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const modelId = (started.body as StartTrainingResponse).id;
  // The engine has the training: the work is really running.
  const start = await logs.next(
    engineStartFor(modelId),
    'the engine to start the training',
    60_000,
  );

  const res = await t.request.delete(`/api/v1/models/${modelId}`).set(bearer(user.token));
  expect([200, 202], JSON.stringify(res.body)).toContain(res.status);
  expect(ZModelDeletionSchema.parse(res.body).id).toBe(modelId);
  await waitFor(
    async () =>
      (await t.c.db.selectFrom('models').select('id').where('id', '=', modelId).executeTakeFirst())
        ? undefined
        : true,
    'the model to be deleted',
    60_000,
  );

  // The worker was told and stopped the engine, as an operator's cancel does.
  expect(
    logs.find((r) => r.msg === 'task cancelled on the cancel channel' && r.taskId === modelId),
  ).toBeDefined();
  await waitFor(
    async () => (alive(start.enginePid as number) ? undefined : true),
    'the engine to exit',
  );
  // Nothing of the model anywhere: no artifact, no checkpoint, no row, no job, no event.
  expect((await everyStoredKey(t.c.storage)).filter((key) => key.includes(modelId))).toEqual([]);
  expect(await databaseMentions(t.c.db, [modelId])).toEqual([]);
  expect(await redisMentions(t.c.redis, [modelId])).toEqual([]);
  // The photos it was trained from stay (deleting them is its own choice), and the slot stays used.
  expect((await everyStoredKey(t.c.storage)).filter((key) => key.includes(user.id))).toHaveLength(
    3 * MIN_PHOTOS,
  );
  const after = await t.c.db
    .selectFrom('users')
    .select('models_trained')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  expect(after.models_trained).toBe(1);
}, 180_000);
