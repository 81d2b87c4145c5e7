// The API under the fuzzer (schemathesis): the real app on a port of its own, over a real
// Postgres and Redis, with a signed-up user to fuzz as. Shared by test/fuzz.test.ts (`npm test`:
// fixed seed) and bench/fuzz-long.ts (random seed, many more examples). No vitest in here.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { destination, pino } from 'pino';
import { createContainer, type Container } from '../../src/container.js';
import { loadEnv } from '../../src/env.js';
import { createHttpServer } from '../../src/server.js';
import { CreditLedgerRepository } from '../../src/repositories/credit-ledger.repository.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(HERE, '../../../..');
/** Where scripts/lib.sh (ensure_schemathesis) installs it; SCHEMATHESIS overrides. */
export const SCHEMATHESIS =
  process.env.SCHEMATHESIS ?? path.join(REPO_ROOT, '.local/schemathesis/bin/schemathesis');
export const HOOKS = path.join(HERE, 'hooks.py');
export const CONFIG = path.join(HERE, 'schemathesis.toml');

/** Far above anything a fuzz run sends: the limits' own tests live in rate-limit.test.ts. */
const RAISED_LIMIT = '1000000';

export interface FuzzTarget {
  url: string;
  c: Container;
  /** Errors the API logged (a 500's cause among them), one JSON line each. */
  logFile: string;
  close(): Promise<void>;
}

/**
 * The API as `npm start` serves it (app, /ws, the container's feeds), in this process, on a
 * free port of 127.0.0.1: development conveniences on (the test payment provider, outbox mail,
 * raised sign-in/sign-up/reset limits, none of which production allows), and Generate calls that
 * answer 202 at once (no worker runs here).
 */
export async function startFuzzTarget(options: {
  databaseUrl: string;
  redisUrl: string;
  logFile: string;
}): Promise<FuzzTarget> {
  const storageDir = await mkdtemp(path.join(tmpdir(), 'studioshot-fuzz-storage-'));
  const uploadDir = await mkdtemp(path.join(tmpdir(), 'studioshot-fuzz-uploads-'));
  const redisPrefix = `fuzz:${randomBytes(6).toString('hex')}:`;
  const env = loadEnv({
    NODE_ENV: 'test',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: redisPrefix,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    APP_VERSION: 'fuzz0000000000000',
    LOG_LEVEL: 'warn',
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: storageDir,
    UPLOAD_TMP_DIR: uploadDir,
    PAYMENT_PROVIDER: 'test',
    MAIL_TRANSPORT: 'outbox',
    FORGOT_PASSWORD_MIN_MS: '0',
    GENERATION_WAIT_MS: '0',
    LOGIN_MAX_PER_ACCOUNT: RAISED_LIMIT,
    LOGIN_MAX_PER_ACCOUNT_ADDRESS: RAISED_LIMIT,
    LOGIN_MAX_PER_IP: RAISED_LIMIT,
    FORGOT_MAX_PER_ACCOUNT_ADDRESS: RAISED_LIMIT,
    FORGOT_MAX_PER_IP: RAISED_LIMIT,
    RESET_MAX_PER_IP: RAISED_LIMIT,
    REGISTER_MAX_PER_IP: RAISED_LIMIT,
  });
  await mkdir(path.dirname(options.logFile), { recursive: true });
  const logger = pino(
    { level: 'warn' },
    destination({ dest: options.logFile, sync: true, mkdir: true }),
  );
  const c = createContainer(env, logger);
  await c.start();
  const { server, feed } = createHttpServer(c);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    c,
    logFile: options.logFile,
    async close() {
      feed.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      const keys = await c.redis.keys(`${redisPrefix}*`);
      if (keys.length) await c.redis.del(...keys);
      await c.close();
      await rm(storageDir, { recursive: true, force: true });
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
}

export interface FuzzUser {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

async function post(url: string, body: object, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * The user the fuzzer signs in as, signed up through the API, with what lets most calls get past
 * "you have nothing": credits (granted through the ledger, as a payment grants them), training
 * slots, a completed upload session of checked photos, and a trained model.
 */
export async function seedFuzzUser(target: FuzzTarget): Promise<FuzzUser> {
  const email = `fuzz-${randomBytes(4).toString('hex')}@example.com`;
  const password = `fuzz-${randomBytes(8).toString('hex')}`;
  const body = await post(`${target.url}/api/v1/auth/register`, {
    email,
    password,
    name: 'Fuzz User',
  });
  const id = (body.user as { id: string }).id;
  const { c } = target;
  await new CreditLedgerRepository(c.db).apply({
    userId: id,
    delta: 100_000,
    reason: 'test_grant',
    idempotencyKey: `fuzz:${id}`,
  });
  await c.db
    .updateTable('users')
    .set({ training_limit: 1000, extra_training_slots: 1000 })
    .where('id', '=', id)
    .execute();
  const session = await c.db
    .insertInto('upload_sessions')
    .values({
      user_id: id,
      session_type: 'training',
      expected_files: 10,
      status: 'completed',
      expires_at: new Date(Date.now() + 3600_000),
      completed_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await c.db
    .insertInto('photos')
    .values(
      Array.from({ length: 10 }, (_, i) => {
        const key = `users/${id}/photos/${session.id}/${randomUUID()}`;
        return {
          session_id: session.id,
          user_id: id,
          original_filename: `selfie-${i}.jpg`,
          original_key: `${key}/original.jpg`,
          optimized_key: `${key}/optimized.jpg`,
          thumbnail_key: `${key}/thumbnail.jpg`,
          mime_type: 'image/jpeg',
          width: 1024,
          height: 1024,
          size_bytes: 200_000,
          content_hash: randomUUID(),
          check_status: 'done' as const,
          usable: true,
        };
      }),
    )
    .execute();
  const model = randomUUID();
  await c.db
    .insertInto('models')
    .values({
      id: model,
      user_id: id,
      name: 'My headshots',
      status: 'completed',
      model_type: 'studio',
      trigger_word: 'sks',
      session_id: session.id,
      artifact_key: `users/${id}/models/${model}/model.npz`,
      artifact_format: 2,
    })
    .execute();
  return {
    id,
    email,
    password,
    accessToken: body.access_token as string,
    refreshToken: body.refresh_token as string,
  };
}

export interface SchemathesisRun {
  exitCode: number;
  output: string;
  seconds: number;
}

/**
 * `schemathesis run` against the target's /api/openapi.json, with every check, as `user` (the
 * hooks give session-ending calls throw-away users of their own). The report (JUnit XML and an
 * NDJSON event log) lands in `reportDir`; the console output is returned and echoed to `echo`.
 */
export async function runSchemathesis(options: {
  target: FuzzTarget;
  user: FuzzUser;
  seed?: number;
  maxExamples: number;
  reportDir: string;
  /** Extra `schemathesis run` options (--phases, --max-time...). */
  args?: string[];
  /** A schema file to use instead of the target's /api/openapi.json (trying a change to it). */
  schemaFile?: string;
  echo?: (chunk: string) => void;
}): Promise<SchemathesisRun> {
  if (!existsSync(SCHEMATHESIS)) {
    throw new Error(
      `schemathesis is not installed at ${SCHEMATHESIS}: run the tests with \`npm test\` ` +
        '(scripts/lib.sh ensure_schemathesis installs it into .local/schemathesis).',
    );
  }
  await mkdir(options.reportDir, { recursive: true });
  const args = [
    '--config-file',
    CONFIG,
    'run',
    ...(options.schemaFile
      ? [options.schemaFile, '--url', options.target.url]
      : [`${options.target.url}/api/openapi.json`]),
    '--checks',
    'all',
    '--max-examples',
    String(options.maxExamples),
    ...(options.seed === undefined ? [] : ['--seed', String(options.seed)]),
    '--workers',
    '1',
    '--report',
    'junit,ndjson',
    '--report-dir',
    options.reportDir,
    '--no-color',
    '--generation-database',
    'none',
    ...(options.args ?? []),
  ];
  const started = performance.now();
  const child = spawn(SCHEMATHESIS, args, {
    cwd: HERE,
    env: {
      ...process.env,
      SCHEMATHESIS_HOOKS: HOOKS,
      FUZZ_BASE_URL: options.target.url,
      FUZZ_ACCESS_TOKEN: options.user.accessToken,
      FUZZ_USER_EMAIL: options.user.email,
      COLUMNS: '120',
      PYTHONUNBUFFERED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    options.echo?.(text);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const [code] = (await once(child, 'close')) as [number | null];
  return {
    exitCode: code ?? -1,
    output,
    seconds: (performance.now() - started) / 1000,
  };
}
