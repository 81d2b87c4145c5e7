import { applyLedgerEntry, createDb, type Db } from '@studioshot/db';
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { LocalStorage, photoKeys } from '@studioshot/storage';
import { Queue } from 'bullmq';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { parseAllDocuments } from 'yaml';

/**
 * A fleet on one machine for the simulation and its bench: API and worker processes of the built
 * apps (`node apps/*\/dist/main.js`, each with the real studio engine) against one Postgres
 * database and one Redis prefix, as production runs several of each. Requires `turbo run build`.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.join(ROOT, 'apps/worker/test/fixtures');
const FACES = [
  'astronaut.jpg',
  'astronaut-mirror.jpg',
  'astronaut-warm.jpg',
  'astronaut-closer.jpg',
  'astronaut-tilted.jpg',
  'astronaut-low-quality.jpg',
];

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run it with \`npm test\` (or bench/run.sh).`);
  return value;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Polls `read` until it answers something other than undefined; throws after `timeoutMs`. */
export async function waitFor<T>(
  read: () => Promise<T | undefined>,
  what: string,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A seeded pseudo-random generator (mulberry32), so a failing run can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One built app's process; its output is kept for a failing test's message. */
export class AppProcess {
  readonly exited: Promise<Exit>;
  output = '';

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Stops it as a rollout does (SIGTERM) unless it has already gone. */
  async stop(): Promise<Exit> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.kill('SIGTERM');
    return this.exited;
  }
}

export interface ScaledObjectTrigger {
  name: string;
  /** Path and query of the trigger's url, asked of an API's private metrics port. */
  pathAndQuery: string;
  queues: string[];
  /** Where in the answer the value is (KEDA's valueLocation, a dotted path). */
  valueLocation: string;
}

/** Every metrics-api trigger of the ScaledObjects in infra/k8s/base, as KEDA would read them. */
export function scaledObjectTriggers(): ScaledObjectTrigger[] {
  const file = path.join(ROOT, 'infra/k8s/base/scaled-objects.yaml');
  const triggers: ScaledObjectTrigger[] = [];
  for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const object = document.toJS() as {
      kind?: string;
      metadata: { name: string };
      spec: { triggers: { type: string; metadata: Record<string, string> }[] };
    } | null;
    if (object?.kind !== 'ScaledObject') continue;
    for (const trigger of object.spec.triggers) {
      if (trigger.type !== 'metrics-api') continue;
      const url = new URL(trigger.metadata.url!);
      triggers.push({
        name: object.metadata.name,
        pathAndQuery: `${url.pathname}${url.search}`,
        queues: (url.searchParams.get('queues') ?? '').split(',').filter(Boolean),
        valueLocation: trigger.metadata.valueLocation!,
      });
    }
  }
  return triggers;
}

export interface FleetOptions {
  /** Extra settings of every worker (the test's short locks and stalled checks). */
  workerEnv?: Record<string, string>;
}

export interface Account {
  userId: string;
  token: string;
}

/** The database, Redis prefix, storage and processes of one fleet. */
export class Fleet {
  readonly apis: { process: AppProcess; base: string; metricsBase: string }[] = [];
  readonly workers: (AppProcess | undefined)[] = [];
  private readonly queues = new Map<string, Queue>();
  private workerEnv: Record<string, string>;

  private constructor(
    readonly db: Db,
    readonly storage: LocalStorage,
    private readonly env: Record<string, string>,
    private readonly cleanup: () => Promise<void>,
    options: FleetOptions,
  ) {
    this.workerEnv = options.workerEnv ?? {};
  }

  static async create(options: FleetOptions = {}): Promise<Fleet> {
    const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
    const database = await createMigratedDatabase(adminUrl);
    const databaseUrl = adminUrl.replace(/\/[^/]*$/, `/${database}`);
    const storageDir = await mkdtemp(path.join(tmpdir(), 'fleet-storage-'));
    const workDir = await mkdtemp(path.join(tmpdir(), 'fleet-work-'));
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      REDIS_URL: requireEnv('REDIS_URL'),
      REDIS_PREFIX: `fleet:${database}:`,
      STORAGE_DRIVER: 'local',
      STORAGE_DIR: storageDir,
      WORKER_TMP_DIR: workDir,
      JWT_SECRET: 'fleet-secret-fleet-secret-fleet-secret',
      LOG_LEVEL: 'warn',
    };
    const db = createDb(databaseUrl, { max: 4 });
    const cleanup = async () => {
      await db.destroy();
      await dropDatabase(adminUrl, database).catch(() => undefined);
      await rm(storageDir, { recursive: true, force: true });
      await rm(workDir, { recursive: true, force: true });
    };
    return new Fleet(db, new LocalStorage(storageDir), env, cleanup, options);
  }

  /** Starts an API process; resolves once it answers /health. */
  async startApi(): Promise<void> {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, [path.join(ROOT, 'apps/api/dist/main.js')], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        ...this.env,
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        // Generate calls answer at once with the task: the simulation follows tasks, not answers.
        GENERATION_WAIT_MS: '0',
      },
    });
    const api = new AppProcess(`api-${this.apis.length}`, child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`${api.name} exited early:\n${api.output}`);
        return (await fetch(`${base}/health`).catch(() => undefined))?.ok ? true : undefined;
      },
      `${api.name} to answer /health`,
      60_000,
    );
    this.apis.push({ process: api, base, metricsBase: `http://127.0.0.1:${metricsPort}` });
  }

  /** The settings every worker started from now on gets on top of the fleet's. */
  setWorkerEnv(env: Record<string, string>): void {
    this.workerEnv = env;
  }

  /** Starts the worker in slot `slot` (replacing one that has gone); resolves once it is ready. */
  async startWorker(slot: number): Promise<AppProcess> {
    const child = spawn(process.execPath, [path.join(ROOT, 'apps/worker/dist/main.js')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...this.env,
        WORKER_POOL: 'all',
        ENGINE_KIND: 'studio',
        PHOTO_CHECK_THREADS: '1',
        LOG_LEVEL: 'info',
        ...this.workerEnv,
      },
    });
    const worker = new AppProcess(`worker-${slot}`, child);
    const ready = new Promise<void>((resolve) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.includes('"msg":"worker ready"')) resolve();
      });
    });
    await Promise.race([
      ready,
      worker.exited.then((exit) => {
        throw new Error(`${worker.name} exited (${exit.code ?? exit.signal}):\n${worker.output}`);
      }),
    ]);
    this.workers[slot] = worker;
    return worker;
  }

  /** A producer-side handle on a BullMQ queue of this fleet (counts only). */
  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: { url: this.env.REDIS_URL },
        prefix: `${this.env.REDIS_PREFIX}bull`,
      });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** The API answering the `index`-th call: calls alternate between the API processes. */
  api(index: number): string {
    return this.apis[index % this.apis.length]!.base;
  }

  async call<T>(
    index: number,
    method: string,
    route: string,
    token?: string,
    body?: object,
  ): Promise<T> {
    const res = await fetch(`${this.api(index)}${route}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(method === 'POST' ? { 'Idempotency-Key': randomUUID() } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  /**
   * A user signed up through the API, with room for `trainings` models and `credits` credits
   * granted in the ledger (what buying them leaves).
   */
  async account(index: number, credits: number, trainings: number): Promise<Account> {
    const { access_token: token, user } = await this.call<{
      access_token: string;
      user: { id: string };
    }>(index, 'POST', '/api/v1/auth/register', undefined, {
      email: `fleet-${randomUUID()}@example.com`,
      password: 'fleet-password',
      name: 'Fleet',
    });
    await this.db
      .updateTable('users')
      .set({ training_limit: trainings })
      .where('id', '=', user.id)
      .execute();
    if (credits > 0) {
      await applyLedgerEntry(this.db, {
        userId: user.id,
        delta: credits,
        reason: 'fleet_grant',
        idempotencyKey: `fleet:${user.id}:grant`,
      });
    }
    return { userId: user.id, token };
  }

  /** A completed upload session of `files`, checked and usable, as the upload flow leaves it. */
  async checkedSession(userId: string, files: string[]): Promise<string> {
    const session = await this.db
      .insertInto('upload_sessions')
      .values({
        user_id: userId,
        session_type: 'training',
        expected_files: files.length,
        status: 'completed',
        completed_at: new Date(),
        expires_at: new Date(Date.now() + 3600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = [];
    for (const file of files) {
      const id = randomUUID();
      const keys = photoKeys(userId, session.id, id, 'jpg');
      for (const key of [keys.original, keys.optimized, keys.thumbnail])
        await this.storage.putFile(key, file);
      rows.push({
        id,
        session_id: session.id,
        user_id: userId,
        original_filename: path.basename(file),
        original_key: keys.original,
        optimized_key: keys.optimized,
        thumbnail_key: keys.thumbnail,
        mime_type: 'image/jpeg',
        width: 1024,
        height: 1024,
        size_bytes: 1,
        content_hash: id,
        check_status: 'done' as const,
        usable: true,
        checks: JSON.stringify({ usable: true, checks: [], advice: [] }),
      });
    }
    await this.db.insertInto('photos').values(rows).execute();
    return session.id;
  }

  /** Uploads one photo into a session through an API (a photo check job follows). */
  async upload(index: number, token: string, sessionId: string, bytes: Buffer): Promise<void> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
    const res = await fetch(`${this.api(index)}/api/v1/upload/file/${sessionId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  }

  /** Stops every process (SIGTERM, each waited for) and removes the database and files. */
  async close(): Promise<void> {
    await Promise.allSettled([
      ...this.workers.map((worker) => worker?.stop()),
      ...this.apis.map((api) => api.process.stop()),
    ]);
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    await this.cleanup();
  }

  /** What every process printed on stderr: for a failing run's message. */
  logs(): string {
    return [...this.apis.map((a) => a.process), ...this.workers]
      .filter((p): p is AppProcess => p !== undefined)
      .map((p) => `--- ${p.name}\n${p.output.slice(-4000)}`)
      .join('\n');
  }
}

/** Twelve distinct 1024 px photos of one face (six fixtures, each also mirrored), for real work. */
export async function facePhotos(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const [i, source] of FACES.entries()) {
    for (const mirror of [false, true]) {
      const file = path.join(dir, `face-${i}-${mirror ? 'm' : 'o'}.jpg`);
      const image = sharp(path.join(FIXTURES, source)).rotate().resize(1024, 1024);
      await (mirror ? image.flop() : image).jpeg({ quality: 90 }).toFile(file);
      files.push(file);
    }
  }
  return files;
}

/**
 * A small photo of no one, different for each `n` (noise from a generator seeded with it: a set
 * refuses a photo that looks like one it holds): a photo check's whole path at little cost.
 */
export function plainPhoto(n: number): Promise<Buffer> {
  const side = 256;
  const random = seededRandom(n + 1);
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = Math.floor(random() * 256);
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .resize(512, 512)
    .jpeg()
    .toBuffer();
}
