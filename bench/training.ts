/**
 * Training on the fleet, measured end to end on the built API and worker (real Postgres, Redis,
 * BullMQ and the Python studio engine), one user training one model at a time:
 *  - enqueue -> engine start: from the job's creation in the API (BullMQ's job timestamp) to the
 *    worker sending `start` to a warm engine (claim, photo download, spare hand-over included).
 *    Target: median < 50 ms. Also from sending POST /api/v1/training/start, which adds the HTTP
 *    call and the start transaction.
 *  - training 12 photos: the task's started_at -> completed_at (download, engine, artifact upload).
 *    Target: < 20 s on 2 cores.
 *  - engine progress -> /ws: from the worker receiving an engine progress line (its log time) to
 *    a WebSocket client receiving that progress. Target: median < 250 ms.
 */
import { createDb } from '@studioshot/db';
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { taskQueueName } from '@studioshot/contracts';
import { LocalStorage } from '@studioshot/storage';
import { Queue } from 'bullmq';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { makePhotos, seedCheckedSession } from './seed.js';
import {
  apiCall,
  freePort,
  machine,
  median,
  requireEnv,
  ROOT,
  startNode,
  stop,
  waitForHttp,
  writeResult,
} from './common.js';

const RUNS = 7;
interface WorkerLog {
  time: number;
  msg: string;
  taskId?: string;
  jobId?: string;
  progress?: number;
  progressMessage?: string;
}

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const databaseUrl = adminUrl.replace(/\/[^/]*$/, `/${database}`);
const storageDir = await mkdtemp(path.join(tmpdir(), 'bench-training-storage-'));
const photoDir = await mkdtemp(path.join(tmpdir(), 'bench-training-photos-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = {
  NODE_ENV: 'test',
  PORT: String(port),
  DATABASE_URL: databaseUrl,
  REDIS_URL: requireEnv('REDIS_URL'),
  REDIS_PREFIX: `bench:${database}:`,
  STORAGE_DIR: storageDir,
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
  LOG_LEVEL: 'warn',
};
const api = startNode('apps/api/dist/main.js', env);
const worker = spawn(process.execPath, ['apps/worker/dist/main.js'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, ...env, LOG_LEVEL: 'debug' },
});
const workerLogs: WorkerLog[] = [];
createInterface({ input: worker.stdout }).on('line', (line) => {
  try {
    workerLogs.push(JSON.parse(line) as WorkerLog);
  } catch {
    // not a log record
  }
});
const db = createDb(databaseUrl, { max: 2 });
const TRAINING_QUEUE = taskQueueName('training', 'studio');
const trainingQueue = new Queue(TRAINING_QUEUE, {
  connection: { url: env.REDIS_URL },
  prefix: `${env.REDIS_PREFIX}bull`,
});
const storage = new LocalStorage(storageDir);

try {
  await waitForHttp(`${base}/health`, api);
  const photos = await makePhotos(photoDir);
  const { access_token: token, user } = await apiCall<{
    access_token: string;
    user: { id: string };
  }>(base, 'POST', '/api/v1/auth/register', undefined, {
    email: `bench-${Date.now()}@example.com`,
    password: 'bench-password',
    name: 'Bench',
  });
  // Room for every run; each run is one training, as a user with that many slots would start.
  await db.updateTable('users').set({ training_limit: 1000 }).where('id', '=', user.id).execute();

  const socket = new WebSocket(`${base.replace('http', 'ws')}/ws`, { origin: base });
  const received: {
    time: number;
    id: string;
    status: string;
    progress: number;
    message: string | null;
  }[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', token })));
    socket.on('message', (data) => {
      const time = Date.now();
      const message = JSON.parse(String(data)) as {
        type: string;
        job?: { id: string; status: string; progress: number; message: string | null };
      };
      if (message.type === 'ready') resolve();
      if (message.type === 'training' && message.job) received.push({ time, ...message.job });
    });
  });

  const startLatencies: number[] = [];
  const enqueueLatencies: number[] = [];
  const trainingSeconds: number[] = [];
  const wsLatencies: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const sessionId = await seedCheckedSession(db, storage, user.id, photos);
    // The spare engine is ready long before a user clicks Start.
    await new Promise((r) => setTimeout(r, 2000));
    const sentAt = Date.now();
    const job = await apiCall<{ id: string }>(base, 'POST', '/api/v1/training/start', token, {
      model_name: `Bench model ${run + 1}`,
      session_id: sessionId,
    });
    const final = await waitFor(
      () => received.find((m) => m.id === job.id && ['completed', 'failed'].includes(m.status)),
      60_000,
    );
    if (final.status !== 'completed') throw new Error(`training ${job.id} failed`);
    const ofTask = workerLogs.filter((l) => (l.taskId ?? l.jobId) === job.id);
    const engineStart = ofTask.find((l) => l.msg === 'engine start sent');
    if (!engineStart) throw new Error('no engine start logged');
    startLatencies.push(engineStart.time - sentAt);
    const queued = await trainingQueue.getJob(job.id);
    if (!queued) throw new Error(`job ${job.id} is gone from the queue`);
    enqueueLatencies.push(engineStart.time - queued.timestamp);
    const row = await db
      .selectFrom('tasks')
      .select(['started_at', 'completed_at'])
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    trainingSeconds.push((row.completed_at!.getTime() - row.started_at!.getTime()) / 1000);
    for (const message of received.filter((m) => m.id === job.id && m.status === 'training')) {
      const origin = ofTask.find(
        (l) =>
          l.msg === 'engine progress received' &&
          l.progress === message.progress &&
          l.progressMessage === message.message,
      );
      if (origin) wsLatencies.push(message.time - origin.time);
    }
  }
  socket.close();

  const result = {
    machine: machine(),
    runs: RUNS,
    photos_per_training: photos.length,
    enqueue_to_engine_ms: { median: median(enqueueLatencies), all: enqueueLatencies },
    start_request_to_engine_ms: { median: median(startLatencies), all: startLatencies },
    training_seconds: { median: median(trainingSeconds), all: trainingSeconds },
    progress_to_ws_ms: {
      median: median(wsLatencies),
      max: Math.max(...wsLatencies),
      samples: wsLatencies.length,
    },
  };
  console.log(JSON.stringify(result, null, 2));
  writeResult(
    'training',
    result,
    `# Training on the fleet (built API + worker + studio engine)

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.memory_gib} GiB, Node ${result.machine.node}; ${result.machine.date}.
${RUNS} trainings of ${photos.length} photos, one after another, each from its own upload session.

| measure | median | target |
| --- | --- | --- |
| enqueue -> engine start (warm spare) | ${result.enqueue_to_engine_ms.median} ms | < 50 ms |
| POST /training/start sent -> engine start (adds the HTTP call and the start transaction) | ${result.start_request_to_engine_ms.median} ms | — |
| training of 12 photos (task started -> completed) | ${result.training_seconds.median.toFixed(2)} s | < 20 s |
| engine progress at the worker -> /ws message at the client (${wsLatencies.length} samples, max ${result.progress_to_ws_ms.max} ms) | ${result.progress_to_ws_ms.median} ms | < 250 ms |
`,
  );
} finally {
  await Promise.allSettled([stop(api), stop(worker), trainingQueue.close()]);
  await db.destroy();
  await dropDatabase(adminUrl, database).catch(() => undefined);
  await rm(storageDir, { recursive: true, force: true });
  await rm(photoDir, { recursive: true, force: true });
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
