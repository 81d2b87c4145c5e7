import {
  IDEMPOTENCY_KEY_HEADER,
  JOB_NAMES,
  taskQueueName,
  type EngineKind,
  type TaskType,
  type PlanType,
} from '@studioshot/contracts';
import { completeTask, type GeneratedImageRecord } from '@studioshot/db';
import { generationImageKey, modelArtifactKey } from '@studioshot/storage';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { bearer, registerUser, type TestApp } from './helpers.js';
import { CreditLedgerRepository } from '../src/repositories/credit-ledger.repository.js';

export interface GenUser {
  id: string;
  token: string;
}

/** A signed-up user holding `credits`, granted through the ledger as a payment grants them. */
export async function creditUser(
  t: TestApp,
  credits: number,
  profile: Partial<{
    plan_type: PlanType;
    subscription_interval: string;
    is_debug: boolean;
    gender: 'male' | 'female';
  }> = {},
): Promise<GenUser> {
  const user = await registerUser(t);
  const id = (user.res.body as { user: { id: string } }).user.id;
  if (credits > 0)
    await new CreditLedgerRepository(t.c.db).apply({
      userId: id,
      delta: credits,
      reason: 'test_grant',
      idempotencyKey: `grant:${id}`,
    });
  if (Object.keys(profile).length > 0)
    await t.c.db.updateTable('users').set(profile).where('id', '=', id).execute();
  return { id, token: user.tokens.access_token };
}

/** A model as training leaves it (completed, artifact format 2), or as `overrides` say. */
export async function trainedModel(
  t: TestApp,
  userId: string,
  overrides: Partial<{
    status: 'pending' | 'training' | 'completed' | 'failed';
    artifact_format: number;
    model_type: EngineKind;
    trigger_word: string;
    session_id: string | null;
  }> = {},
): Promise<string> {
  const id = randomUUID();
  const status = overrides.status ?? 'completed';
  await t.c.db
    .insertInto('models')
    .values({
      id,
      user_id: userId,
      name: 'My headshots',
      status,
      model_type: overrides.model_type ?? 'studio',
      trigger_word: overrides.trigger_word ?? 'sks',
      session_id: overrides.session_id ?? null,
      artifact_key: status === 'completed' ? modelArtifactKey(userId, id, 'model.npz') : null,
      artifact_format: status === 'completed' ? (overrides.artifact_format ?? 2) : null,
    })
    .execute();
  return id;
}

/** Sends a Generate call with a fresh idempotency key unless one is given. */
export function generate(
  t: TestApp,
  user: GenUser,
  path: string,
  body: object,
  key: string | null = randomUUID(),
) {
  const req = t.request.post(path).set(bearer(user.token));
  if (key !== null) req.set(IDEMPOTENCY_KEY_HEADER, key);
  return req.send(body);
}

/** A small JPEG, as the worker stores one. */
export async function jpeg(color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

/**
 * Does what the worker does when a generation finishes: stores each image and thumbnail under
 * the generation's keys, completes the task through the task store (its effect writes the
 * generated_images rows), and announces the change on the task events stream.
 */
export async function deliver(
  t: TestApp,
  userId: string,
  generationId: string,
  count = 4,
): Promise<GeneratedImageRecord[]> {
  const images: GeneratedImageRecord[] = [];
  for (let i = 0; i < count; i++) {
    const image = await jpeg({ r: 40 * i, g: 100, b: 200 });
    const thumb = await jpeg({ r: 40 * i, g: 10, b: 20 });
    const imageKey = generationImageKey(userId, generationId, `0-${i}.jpg`);
    const thumbnailKey = generationImageKey(userId, generationId, `0-${i}-thumb.jpg`);
    await t.c.storage.putStream(imageKey, Readable.from(image));
    await t.c.storage.putStream(thumbnailKey, Readable.from(thumb));
    images.push({
      position: i,
      templateId: 'prof_1',
      variant: 0,
      imageKey,
      thumbnailKey,
      width: 64,
      height: 64,
      sizeBytes: image.length,
      identityScore: 0.9 - i * 0.1,
      identityDistance: 0.2 + i * 0.05,
    });
  }
  const done = await completeTask(t.c.db, generationId, {
    message: 'Your headshots are ready',
    result: { images: count },
    output: { type: 'generation', images, shortItems: count < 4 ? 1 : 0 },
    gpuSeconds: 1,
  });
  if (!done) throw new Error(`generation ${generationId} was already final`);
  await t.c.taskEvents.announce(generationId);
  return images;
}

/** Polls `probe` until it returns something other than undefined (a state, not a sleep). */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The user's queued generation task, once there is one. */
export function queuedGeneration(t: TestApp, userId: string) {
  return waitFor(
    () =>
      t.c.db
        .selectFrom('tasks')
        .select('id')
        .where('user_id', '=', userId)
        .where('task_type', 'in', ['generation', 'batch_generation'])
        .where('status', '=', 'queued')
        .executeTakeFirst(),
    'a queued generation',
  );
}

export async function balance(t: TestApp, userId: string): Promise<number> {
  return new CreditLedgerRepository(t.c.db).balanceOf(userId);
}

/** Everything a generation call may change, for "nothing changed" checks. */
export async function footprint(t: TestApp, userId: string) {
  const count = async (table: 'tasks' | 'generations' | 'credit_ledger' | 'generated_images') =>
    Number(
      (
        await t.c.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    balance: await balance(t, userId),
    tasks: await count('tasks'),
    generations: await count('generations'),
    ledger: await count('credit_ledger'),
    images: await count('generated_images'),
  };
}

/** The generation job as the API queued it, read with BullMQ itself. */
export async function generationJob(
  t: TestApp,
  type: Extract<TaskType, 'generation' | 'batch_generation'>,
  kind: EngineKind,
  id: string,
) {
  const queue = new Queue(taskQueueName(type, kind), {
    connection: t.c.redis,
    prefix: `${t.c.env.REDIS_PREFIX}bull`,
  });
  try {
    const job = await queue.getJob(id);
    return job ? { name: job.name, data: job.data as unknown, state: await job.getState() } : null;
  } finally {
    await queue.close();
  }
}

export { JOB_NAMES };
