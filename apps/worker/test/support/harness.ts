import { BULL_PRIORITY, JOB_NAMES, taskQueueName, type TaskPriority } from '@studioshot/contracts';
import {
  applyLedgerEntry,
  createDb,
  generationReservationKey,
  type Db,
  type GenerationItem,
} from '@studioshot/db';
import { createTestDatabase } from '@studioshot/db/testing';
import { LocalStorage, modelArtifactKey, photoKeys } from '@studioshot/storage';
import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { loadWorkerEnv, type WorkerEnv } from '../../src/env.js';
import { createPhotoAnalyzer } from '../../src/photo-checks/index.js';

export const WORKER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(WORKER_ROOT, 'test/fixtures');
export const ENGINE_PYTHON = path.join(WORKER_ROOT, 'engine/.venv/bin/python');

/** The task queues of the studio engine, which every test worker runs. */
export const TRAINING_QUEUE = taskQueueName('training', 'studio');
export const GENERATION_QUEUE = taskQueueName('generation', 'studio');
export const BATCH_GENERATION_QUEUE = taskQueueName('batch_generation', 'studio');

/** Photos of one person: a set that passed its checks (small, so trainings stay quick). */
export const TRAINING_PHOTOS = [
  'astronaut.jpg',
  'astronaut-mirror.jpg',
  'astronaut-warm.jpg',
  'astronaut-closer.jpg',
];
/** A bigger set, for a training that must still be running a moment after it starts. */
export const LONG_TRAINING_PHOTOS = [
  ...TRAINING_PHOTOS,
  'astronaut-tilted.jpg',
  'astronaut-low-quality.jpg',
  'astronaut-exif-rotated.jpg',
];

/**
 * One suite's world: a database cloned from the migrated template, a Redis key prefix, a storage
 * directory and a temp directory, all its own, and producers for its queues.
 */
export interface Suite {
  db: Db;
  databaseUrl: string;
  redisUrl: string;
  /** REDIS_PREFIX: BullMQ keys live under `${prefix}bull`. */
  prefix: string;
  storage: LocalStorage;
  storageDir: string;
  tmpDir: string;
  /** The worker's environment variables for this suite, with `overrides` on top... */
  envVars(overrides?: Record<string, string>): Record<string, string>;
  /** ...and parsed, as the worker reads them. */
  env(overrides?: Record<string, string>): WorkerEnv;
  /** The producer for `name` (made on first use, with `defaults`; closed with the suite). */
  queue(name: string, defaults?: JobsOptions): Queue;
  close(): Promise<void>;
}

export async function createSuite(options: { redisUrl?: string } = {}): Promise<Suite> {
  const database = await createTestDatabase(inject('pgAdminUrl'), inject('pgTemplate'));
  const db = createDb(database.url, { max: 4 });
  const redisUrl = options.redisUrl ?? inject('redisUrl');
  const prefix = `test:${randomBytes(4).toString('hex')}:`;
  const storageDir = await mkdtemp(path.join(tmpdir(), 'worker-storage-'));
  const tmpDir = await mkdtemp(path.join(tmpdir(), 'worker-tmp-'));
  const producer = new Redis(redisUrl, { maxRetriesPerRequest: null });
  producer.on('error', () => undefined); // a test restarting Redis: the client reconnects
  const queues = new Map<string, Queue>();
  const envVars = (overrides: Record<string, string> = {}) => ({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: storageDir,
    WORKER_TMP_DIR: tmpDir,
    ENGINE_PYTHON,
    LOG_LEVEL: 'silent',
    ...overrides,
  });
  return {
    db,
    databaseUrl: database.url,
    redisUrl,
    prefix,
    storage: new LocalStorage(storageDir),
    storageDir,
    tmpDir,
    envVars,
    env: (overrides) => loadWorkerEnv(envVars(overrides)),
    queue(name, defaults) {
      let queue = queues.get(name);
      if (!queue) {
        queue = new Queue(name, {
          connection: producer,
          prefix: `${prefix}bull`,
          defaultJobOptions: defaults,
        });
        queues.set(name, queue);
      }
      return queue;
    },
    async close() {
      for (const queue of queues.values()) {
        await queue.obliterate({ force: true }).catch(() => undefined);
        await queue.close();
      }
      const keys = await producer.keys(`${prefix}*`).catch(() => []);
      if (keys.length) await producer.del(...keys);
      producer.disconnect();
      await db.destroy();
      await database.drop();
      await rm(storageDir, { recursive: true, force: true });
      await rm(tmpDir, { recursive: true, force: true });
    },
  };
}

export interface SeededTraining {
  userId: string;
  sessionId: string;
  /** The task id, which is also the model id. */
  taskId: string;
  modelId: string;
  usablePhotoIds: string[];
}

/**
 * What the API leaves behind when a user starts a training: a user whose slot is reserved
 * (models_trained already counts this model), a completed upload session whose photos are
 * stored and checked, and the model and task rows, queued.
 */
export async function seedTraining(
  suite: Suite,
  options: {
    photos?: string[];
    unusablePhotos?: string[];
    priority?: TaskPriority;
    /** Store each photo's real face analysis (descriptor included), as the photo checks do. */
    analyze?: boolean;
  } = {},
): Promise<SeededTraining> {
  const analyzer = options.analyze ? await createPhotoAnalyzer() : undefined;
  const { db, storage } = suite;
  const user = await db
    .insertInto('users')
    .values({
      email: `${randomUUID()}@example.com`,
      password_hash: 'x',
      name: 'Test',
      models_trained: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const photos = [
    ...(options.photos ?? TRAINING_PHOTOS).map((file) => ({ file, usable: true })),
    ...(options.unusablePhotos ?? []).map((file) => ({ file, usable: false })),
  ];
  const session = await db
    .insertInto('upload_sessions')
    .values({
      user_id: user.id,
      session_type: 'training',
      expected_files: photos.length,
      status: 'completed',
      completed_at: new Date(),
      expires_at: new Date(Date.now() + 3600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const usablePhotoIds: string[] = [];
  for (const { file, usable } of photos) {
    const id = randomUUID();
    const keys = photoKeys(user.id, session.id, id, 'jpg');
    await storage.putFile(keys.original, path.join(FIXTURES, file));
    await storage.putFile(keys.optimized, path.join(FIXTURES, file));
    await storage.putFile(keys.thumbnail, path.join(FIXTURES, file));
    await db
      .insertInto('photos')
      .values({
        id,
        session_id: session.id,
        user_id: user.id,
        original_filename: file,
        original_key: keys.original,
        optimized_key: keys.optimized,
        thumbnail_key: keys.thumbnail,
        mime_type: 'image/jpeg',
        width: 1024,
        height: 1024,
        size_bytes: 1,
        content_hash: id,
        check_status: 'done',
        usable,
        checks: JSON.stringify({ usable, checks: [], advice: [] }),
        analysis: analyzer
          ? JSON.stringify(await analyzer.analyzePhoto(path.join(FIXTURES, file)))
          : null,
      })
      .execute();
    if (usable) usablePhotoIds.push(id);
  }
  const taskId = randomUUID();
  await db
    .insertInto('models')
    .values({ id: taskId, user_id: user.id, session_id: session.id, name: 'My headshots' })
    .execute();
  await db
    .updateTable('upload_sessions')
    .set({ training_id: taskId })
    .where('id', '=', session.id)
    .execute();
  await db
    .insertInto('tasks')
    .values({
      id: taskId,
      user_id: user.id,
      task_type: 'training',
      priority: options.priority ?? 'normal',
      status: 'queued',
      model_id: taskId,
      params: JSON.stringify({ session_id: session.id, model_name: 'My headshots' }),
    })
    .execute();
  return { userId: user.id, sessionId: session.id, taskId, modelId: taskId, usablePhotoIds };
}

/** The job the API enqueues for a training task (same name, id, priority and retry policy). */
export async function enqueueTraining(
  suite: Suite,
  training: SeededTraining,
  options: {
    priority?: TaskPriority;
    attempts?: number;
    backoffMs?: number;
    /** The API request that queued it, as the API's job data names it. */
    requestId?: string;
  } = {},
): Promise<void> {
  const jobOptions: JobsOptions = {
    jobId: training.taskId,
    priority: BULL_PRIORITY[options.priority ?? 'normal'],
    attempts: options.attempts ?? 3,
    backoff: { type: 'exponential', delay: options.backoffMs ?? 10_000 },
    removeOnComplete: { age: 24 * 3600 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
  await suite.queue(TRAINING_QUEUE).add(
    JOB_NAMES.trainModel,
    {
      task_id: training.taskId,
      ...(options.requestId === undefined ? {} : { request_id: options.requestId }),
    },
    jobOptions,
  );
}

export interface SeededGeneration {
  taskId: string;
  generationId: string;
  userId: string;
}

/**
 * What the API leaves behind when a user asks for headshots: a generation task and its row,
 * queued on the model's engine kind. `items` default to one template variant.
 */
export async function seedGeneration(
  suite: Suite,
  training: SeededTraining,
  options: {
    items?: GenerationItem[];
    seed?: number;
    imagesPerItem?: number;
    size?: number;
    engineKind?: 'studio' | 'flux';
    /**
     * No model: restyle this photo of the user's, as for a user who has not trained one (null:
     * the photo was deleted since).
     */
    photo?: { id: string | null };
    /** Credits granted to the user and reserved by the generation before it is queued (the API's way). */
    reservedCredits?: number;
  } = {},
): Promise<SeededGeneration> {
  const modelId = options.photo ? null : training.modelId;
  const items = options.items ?? [
    { template_id: 'prof_1', variant: 0, prompt: 'professional headshot of person' },
  ];
  const taskId = randomUUID();
  const type = items.length > 1 ? 'batch_generation' : 'generation';
  await suite.db
    .insertInto('tasks')
    .values({
      id: taskId,
      user_id: training.userId,
      task_type: type,
      engine_kind: options.engineKind ?? 'studio',
      status: 'queued',
      model_id: modelId,
      params: JSON.stringify({ model_id: modelId }),
    })
    .execute();
  await suite.db
    .insertInto('generations')
    .values({
      id: taskId,
      user_id: training.userId,
      model_id: modelId,
      source_photo_id: options.photo?.id ?? null,
      items: JSON.stringify(items),
      images_per_item: options.imagesPerItem ?? 4,
      size: options.size ?? 1024,
      seed: options.seed ?? 1234,
    })
    .execute();
  if (options.reservedCredits) {
    for (const entry of [
      { delta: options.reservedCredits, reason: 'test_grant', key: `test:${taskId}:grant` },
      {
        delta: -options.reservedCredits,
        reason: 'generation',
        key: generationReservationKey(taskId),
      },
    ]) {
      await applyLedgerEntry(suite.db, {
        userId: training.userId,
        delta: entry.delta,
        reason: entry.reason,
        idempotencyKey: entry.key,
      });
    }
  }
  await suite
    .queue(taskQueueName(type, options.engineKind ?? 'studio'))
    .add(
      JOB_NAMES.generate,
      { task_id: taskId },
      { jobId: taskId, attempts: 3, backoff: { type: 'fixed', delay: 100 } },
    );
  return { taskId, generationId: taskId, userId: training.userId };
}

export async function generatedImages(suite: Suite, generationId: string) {
  return suite.db
    .selectFrom('generated_images')
    .selectAll()
    .where('generation_id', '=', generationId)
    .orderBy('position')
    .execute();
}

export async function taskRow(suite: Suite, taskId: string) {
  return suite.db
    .selectFrom('tasks')
    .selectAll()
    .where('id', '=', taskId)
    .executeTakeFirstOrThrow();
}

export async function trainingState(suite: Suite, training: SeededTraining) {
  const task = await taskRow(suite, training.taskId);
  const model = await suite.db
    .selectFrom('models')
    .selectAll()
    .where('id', '=', training.modelId)
    .executeTakeFirstOrThrow();
  const user = await suite.db
    .selectFrom('users')
    .select('models_trained')
    .where('id', '=', training.userId)
    .executeTakeFirstOrThrow();
  return { task, model, modelsTrained: user.models_trained };
}

/** The model's objects in storage. */
export async function storedModelFiles(suite: Suite, training: SeededTraining): Promise<string[]> {
  const dir = path.join(
    suite.storageDir,
    path.dirname(modelArtifactKey(training.userId, training.modelId, 'model.npz')),
  );
  return (await readdir(dir).catch(() => [])).sort();
}

/** The training job once BullMQ has recorded its end (which follows the task row's). */
export function finishedTrainingJob(suite: Suite, jobId: string) {
  return waitFor(async () => {
    const job = await suite.queue(TRAINING_QUEUE).getJob(jobId);
    return job?.finishedOn ? job : undefined;
  }, `job ${jobId} to finish`);
}

/** Polls `probe` until it returns something other than undefined. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves when the task reaches a final status. */
export function waitForFinalTask(suite: Suite, taskId: string, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const task = await taskRow(suite, taskId);
      return ['completed', 'failed', 'cancelled'].includes(task.status) ? task : undefined;
    },
    `task ${taskId} to finish`,
    timeoutMs,
  );
}

/** Whether a process is still alive (a zombie awaiting its parent's wait counts as gone). */
export async function processAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/^\d+ \(.*\) Z/.test(stat);
}
