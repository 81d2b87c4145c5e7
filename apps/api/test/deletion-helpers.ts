// Finding what is left of someone after a deletion, wherever it could be: every text, uuid and
// JSON column of every table the database has at run time, every object of the whole store (not
// just the person's prefix), and every key and value in Redis. And a person with something in
// each of those places, made through the API wherever the API makes it.
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import {
  IDEMPOTENCY_KEY_HEADER,
  QUEUES,
  TASK_CANCEL_CHANNEL,
  ZTaskProgressSchema,
  type StartTrainingResponse,
} from '@studioshot/contracts';
import type { Db } from '@studioshot/db';
import {
  exportKey,
  LocalStorage,
  modelArtifactKey,
  S3Storage,
  type Storage,
} from '@studioshot/storage';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { accountKey } from '../src/services/rate-limits.js';
import { trainedPhotoSet } from './account-helpers.js';
import { deliver, jpeg, waitFor } from './generation-helpers.js';
import { bearer, registerUser, uniqueEmail, type TestApp } from './helpers.js';
import { payWithCard, createIntent } from './payments-helpers.js';
import { completedSession, TRAINING_QUEUE } from './training-helpers.js';

export const FIXTURE_PHOTO = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../worker/test/fixtures/astronaut.jpg',
);

// ---- finding leftovers --------------------------------------------------------------------

/** A column of a table that is allowed to hold a needle (the accounting, and the tombstone's id). */
export interface Allowed {
  table: string;
  column: string;
}

export interface DatabaseMention {
  table: string;
  column: string;
  rows: number;
}

/**
 * Every (table, column) whose value mentions one of `needles`, over every text-like, uuid, JSON
 * and array column of every table of the schema, read from information_schema at run time.
 */
export async function databaseMentions(
  db: Db,
  needles: readonly string[],
  allowed: readonly Allowed[] = [],
): Promise<DatabaseMention[]> {
  const columns = await sql<{ table_name: string; column_name: string }>`
    SELECT c.table_name, c.column_name
      FROM information_schema.columns c
      JOIN information_schema.tables t
        ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
       AND c.data_type IN ('text', 'character varying', 'character', 'uuid', 'json', 'jsonb',
                           'ARRAY', 'USER-DEFINED')
     ORDER BY c.table_name, c.column_name`.execute(db);
  expect(columns.rows.length).toBeGreaterThan(20);
  const lowered = needles.map((n) => n.toLowerCase());
  const found: DatabaseMention[] = [];
  for (const { table_name: table, column_name: column } of columns.rows) {
    if (allowed.some((a) => a.table === table && a.column === column)) continue;
    const matches = sql.join(
      lowered.map((needle) => sql`strpos(lower(${sql.ref(column)}::text), ${needle}) > 0`),
      sql` OR `,
    );
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${matches}`.execute(db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) found.push({ table, column, rows: n });
  }
  return found;
}

/** Every object of the whole store, whatever its prefix (the S3 bucket, the local root). */
export async function everyStoredKey(storage: Storage): Promise<string[]> {
  if (storage instanceof S3Storage) {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await storage.client.send(
        new ListObjectsV2Command({ Bucket: storage.bucket, ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }
  if (!(storage instanceof LocalStorage)) throw new Error('unknown storage driver');
  // Every file under the root, temporary ones included (a leftover is a leftover).
  const entries = await readdir(storage.root, { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(storage.root, path.join(entry.parentPath, entry.name)))
    .sort();
}

export interface RedisMention {
  key: string;
  in: 'name' | 'value';
}

/** Every key of the whole Redis whose name or value mentions one of `needles`. */
export async function redisMentions(
  redis: Redis,
  needles: readonly string[],
): Promise<RedisMention[]> {
  const mentions = (text: string) => needles.some((needle) => text.includes(needle));
  const found: RedisMention[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      if (mentions(key)) {
        found.push({ key, in: 'name' });
        continue;
      }
      const values = await redisValues(redis, key);
      if (values.some(mentions)) found.push({ key, in: 'value' });
    }
  } while (cursor !== '0');
  return found;
}

async function redisValues(redis: Redis, key: string): Promise<string[]> {
  switch (await redis.type(key)) {
    case 'string':
      return [(await redis.get(key)) ?? ''];
    case 'hash':
      return Object.entries(await redis.hgetall(key)).flat();
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'set':
      return redis.smembers(key);
    case 'zset':
      return redis.zrange(key, 0, -1);
    case 'stream':
      return (await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
    default:
      // Gone meanwhile (another suite's key expiring): nothing to read.
      return [];
  }
}

/** Everything that names a person: their id, their e-mail, and the e-mail's rate-limit hash. */
export function needlesOf(person: { id: string; email: string }): string[] {
  return [person.id, person.email.toLowerCase(), accountKey(person.email.toLowerCase())];
}

/**
 * What deleting an account keeps, on purpose: the tombstone's id, and the accounting pointing at
 * it (payments, the credit ledger, whose keys name the account they were made for, and the test
 * provider's PaymentIntents, which stand for Stripe's books: Stripe keeps a deleted customer's
 * payments too). Nothing here may hold the e-mail.
 */
export const ACCOUNTING_MENTIONS: readonly Allowed[] = [
  { table: 'users', column: 'id' },
  { table: 'payments', column: 'user_id' },
  { table: 'credit_ledger', column: 'user_id' },
  { table: 'credit_ledger', column: 'idempotency_key' },
  { table: 'test_payment_intents', column: 'metadata' },
  { table: 'test_payment_intents', column: 'idempotency_key' },
];

/** What a person has where: rows mentioning their id per column, stored keys, Redis keys. */
export async function footprint(t: TestApp, person: { id: string }) {
  const rows = await databaseMentions(t.c.db, [person.id]);
  const stored = (await everyStoredKey(t.c.storage)).filter((key) => key.includes(person.id));
  return { rows, stored };
}

// ---- a person with something everywhere ----------------------------------------------------

export interface Person {
  id: string;
  email: string;
  password: string;
  /** The first sign-in's tokens (a second sign-in exists too). */
  accessToken: string;
  refreshToken: string;
  /** A completed model with stored files, and the generation made from it. */
  modelId: string;
  generationId: string;
  /** The set the model was trained from, stored. */
  trainedSessionId: string;
  /** A set uploaded through the API, its photo check queued. */
  uploadSessionId: string;
  /** A training queued from another set (no worker runs here). */
  queuedTrainingId: string;
}

/**
 * Signs a person up and gives them something in every place a person's data can be: two
 * sign-ins and a rotated refresh token, a subscription paid by test card (payments, ledger,
 * card on file), failed sign-ins (rate-limit counters), a password reset asked for (an e-mail in
 * the outbox, a reset code), a trained model with its files and a generation's images, a photo
 * uploaded through the API (its check queued), a queued training whose worker reported progress
 * (the person's id in a BullMQ job and its events), and a built data export.
 */
export async function seedPerson(t: TestApp, tag = 'person'): Promise<Person> {
  const registered = await registerUser(t, {
    email: uniqueEmail(tag),
    name: `Ada ${tag}`,
    password: `secret ${tag} password`,
  });
  const id = (registered.res.body as { user: { id: string } }).user.id;
  const { email, password } = registered;
  const again = await t.request
    .post('/api/v1/auth/login')
    .set('User-Agent', 'Mozilla/5.0 (Macintosh) Chrome/120')
    .send({ email, password });
  expect(again.status).toBe(200);
  const rotated = await t.request
    .post('/api/v1/auth/refresh')
    .send({ refresh_token: registered.tokens.refresh_token });
  expect(rotated.status).toBe(200);
  const { access_token: accessToken, refresh_token: refreshToken } = rotated.body as {
    access_token: string;
    refresh_token: string;
  };

  // A plan, paid by card: payments, the ledger, the subscription, the card on file.
  const intent = await createIntent(t, accessToken, '/api/v1/payments/create-training-payment', {
    plan_name: 'professional',
    plan_price: 19.99,
    plan_credits: 8,
  });
  await payWithCard(t, accessToken, intent).expect(200);
  const confirmed = await t.request
    .post('/api/v1/payments/confirm-plan-subscription')
    .set(bearer(accessToken))
    .send({ payment_intent_id: intent.payment_intent_id });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);

  for (let i = 0; i < 2; i++)
    expect(
      (await t.request.post('/api/v1/auth/login').send({ email, password: 'wrong password' }))
        .status,
    ).toBe(401);
  expect((await t.request.post('/api/v1/auth/forgot-password').send({ email })).status).toBe(200);

  // A trained model with its files, and a generation of it delivered (images in storage).
  const trained = await trainedPhotoSet(t, id, { finishedDaysAgo: 1, photos: 3 });
  await t.c.db
    .updateTable('models')
    .set({ face_descriptors: JSON.stringify([[0.1, 0.2]]) })
    .where('id', '=', trained.modelId)
    .execute();
  for (const file of ['model.npz', 'preview.jpg', 'checkpoint.safetensors'])
    await t.c.storage.putStream(
      modelArtifactKey(id, trained.modelId, file),
      Readable.from(await jpeg({ r: 1, g: 2, b: 3 })),
    );
  const generated = await t.request
    .post('/api/v1/generation/generate-trained')
    .set(bearer(accessToken))
    .set(IDEMPOTENCY_KEY_HEADER, randomUUID())
    .send({ model_id: trained.modelId, prompt: 'a person in a studio', num_images: 4 });
  expect(generated.status, JSON.stringify(generated.body)).toBe(202);
  const generationId = (generated.body as { id: string }).id;
  await deliver(t, id, generationId, 2);
  await t.c.taskEvents.announce(generationId, { userId: id, taskType: 'generation' });

  // A photo uploaded through the API: stored (three copies) and its check queued.
  const created = await t.request
    .post('/api/v1/upload/create-session')
    .set(bearer(accessToken))
    .send({ expected_files: 10, session_type: 'training' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const uploadSessionId = (created.body as { session_id: string }).session_id;
  const uploaded = await t.request
    .post(`/api/v1/upload/file/${uploadSessionId}`)
    .set(bearer(accessToken))
    .attach('file', FIXTURE_PHOTO);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);

  // A training queued from a completed set, whose worker (as workers do) reported progress.
  const queuedSet = await completedSession(t, id);
  const started = await t.request
    .post('/api/v1/training/start')
    .set(bearer(accessToken))
    .send({ model_name: 'Second model', session_id: queuedSet });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const queuedTrainingId = (started.body as StartTrainingResponse).id;
  const queue = new Queue(TRAINING_QUEUE, {
    connection: t.c.redis,
    prefix: `${t.c.env.REDIS_PREFIX}bull`,
  });
  const job = await waitFor(() => queue.getJob(queuedTrainingId), 'the queued training job');
  await job.updateProgress(
    ZTaskProgressSchema.parse({
      task_id: queuedTrainingId,
      user_id: id,
      progress: 0,
      message: 'Waiting for a machine',
      status: 'queued',
    }),
  );
  await queue.close();

  // A data export, built: its row and its zip.
  const exportId = randomUUID();
  const zip = exportKey(id, exportId);
  await t.c.storage.putStream(zip, Readable.from(Buffer.from(`export of ${email}`)));
  await sql`INSERT INTO data_exports (id, user_id, status, progress, storage_key, completed_at)
    VALUES (${exportId}, ${id}, 'completed', 100, ${zip}, now())`.execute(t.c.db);

  return {
    id,
    email,
    password,
    accessToken,
    refreshToken,
    modelId: trained.modelId,
    generationId,
    trainedSessionId: trained.sessionId,
    uploadSessionId,
    queuedTrainingId,
  };
}

/** Subscribes to the task cancel channel, collecting what is published on it. */
export async function cancelChannel(t: TestApp) {
  const subscriber = t.c.redis.duplicate();
  const published: string[] = [];
  subscriber.on('message', (_channel: string, taskId: string) => published.push(taskId));
  await subscriber.subscribe(`${t.c.env.REDIS_PREFIX}${TASK_CANCEL_CHANNEL}`);
  return { published, close: () => subscriber.quit() };
}

// ---- a deletion's process, killed ------------------------------------------------------------

const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The settings the test app runs on, as a process's environment. */
export function processEnv(t: TestApp): Record<string, string> {
  const { env } = t.c;
  const settings: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    DATABASE_URL: env.DATABASE_URL,
    REDIS_URL: env.REDIS_URL,
    REDIS_PREFIX: env.REDIS_PREFIX,
    JWT_SECRET: env.JWT_SECRET,
    APP_VERSION: env.APP_VERSION,
    LOG_LEVEL: 'silent',
    STORAGE_DRIVER: env.STORAGE_DRIVER,
    STORAGE_DIR: env.STORAGE_DIR,
    S3_BUCKET: env.S3_BUCKET,
    S3_ENDPOINT: env.S3_ENDPOINT,
    S3_FORCE_PATH_STYLE: String(env.S3_FORCE_PATH_STYLE),
  };
  return Object.fromEntries(
    Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * Runs a deletion in a process of its own (test/fixtures/deletion-process.ts) that is killed
 * with SIGKILL right after step `stopAfter`: a worker dying halfway through.
 */
export async function runKilledDeletion(
  t: TestApp,
  kind: 'account' | 'model' | 'photo-set',
  target: string,
  stopAfter: number,
): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/deletion-process.ts'], {
    cwd: API_ROOT,
    env: {
      ...process.env,
      ...processEnv(t),
      DELETION_KIND: kind,
      DELETION_TARGET: target,
      STOP_AFTER_STEP: String(stopAfter),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  expect(signal, `exit ${code}, not killed:\n${output}`).toBe('SIGKILL');
  expect(output).toContain(`step ${stopAfter} done`);
  expect(output).not.toContain('finished');
}

/** The job facility's queue, to hold its jobs back while a test plays a worker dying. */
export function jobsQueue(t: TestApp): Queue {
  return new Queue(QUEUES.scheduled, {
    connection: t.c.redis,
    prefix: `${t.c.env.REDIS_PREFIX}bull`,
  });
}

/** Thrown by a run's progress report to stop it between two steps. */
class StoppedHere extends Error {}

/**
 * Runs a deletion job's work in this process and stops it right after step `stopAfter` (as a
 * worker that dies between two steps); answers the last step it reported done.
 */
export async function stoppedAfter(
  stopAfter: number,
  work: (run: { stepDone(step: number): Promise<void> }) => Promise<void>,
): Promise<number> {
  let reached = 0;
  try {
    await work({
      async stepDone(step) {
        reached = step;
        if (step === stopAfter) throw new StoppedHere();
      },
    });
  } catch (error) {
    if (!(error instanceof StoppedHere)) throw error;
  }
  return reached;
}
