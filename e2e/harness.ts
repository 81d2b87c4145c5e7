import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCREENSHOTS = path.join(ROOT, 'e2e', 'screenshots');

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests with \`npm test\`.`);
  return value;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningApp {
  baseUrl: string;
  databaseUrl: string;
  /** The settings the API and the worker run with (for a command run with the same settings). */
  env: Record<string, string>;
  /** The prefix of the product's BullMQ keys in Redis (REDIS_URL): its queues' prefix. */
  bullPrefix: string;
  /** The worker process: the engine processes it runs are its children. */
  workerPid: number;
  /** What the API and the worker printed (warnings and errors): for a failing test's message. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * The built product (API serving the built web app) on a free port, with a database of its own.
 * Requires `turbo run build` first; `npm test` does that.
 */
export async function startApp(extraEnv: Record<string, string> = {}): Promise<RunningApp> {
  const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
  const database = await createMigratedDatabase(adminUrl);
  const databaseUrl = adminUrl.replace(/\/[^/]*$/, `/${database}`);
  const port = await freePort();
  const redisPrefix = `e2e:${database}:`;
  const storageDir = await mkdtemp(path.join(tmpdir(), 'e2e-storage-'));
  // The API and the worker share the database, Redis prefix and storage, as in production.
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'test',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    REDIS_URL: requireEnv('REDIS_URL'),
    REDIS_PREFIX: redisPrefix,
    STORAGE_DIR: storageDir,
    JWT_SECRET: process.env.JWT_SECRET ?? 'e2e-secret-e2e-secret-e2e-secret-e2e',
    WEB_DIST: path.join(ROOT, 'apps/web/dist'),
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  let output = '';
  const start = (script: string) => {
    const proc = spawn(process.execPath, [path.join(ROOT, script)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    proc.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return proc;
  };
  const child: ChildProcess = start('apps/api/dist/main.js');
  const worker: ChildProcess = start('apps/worker/dist/main.js');
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited early:\n${output}`);
    if (worker.exitCode !== null) throw new Error(`the worker exited early:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the API did not become healthy:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    databaseUrl,
    env,
    // As the API and the worker name their queues' prefix (REDIS_PREFIX then "bull").
    bullPrefix: `${redisPrefix}bull`,
    workerPid: worker.pid!,
    logs: () => output,
    async stop() {
      await Promise.all(
        [child, worker].map((proc) => {
          if (proc.exitCode !== null) return undefined;
          const exited = new Promise((resolve) => proc.once('exit', resolve));
          proc.kill('SIGTERM');
          return exited;
        }),
      );
      await dropDatabase(adminUrl, database);
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless, with the flags this network-less machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export const DESKTOP = { width: 1280, height: 800 };

/** What the web app stores after signing in. */
export interface Session {
  access_token: string;
  refresh_token: string;
  user: { id: string; email: string; name?: string };
}

/** A new browser context already signed in as `session`, stored the way the app stores it. */
export async function signedInPage(
  browser: Browser,
  session: Session,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.addInitScript((stored) => {
    if (!window.localStorage.getItem('accessToken')) {
      window.localStorage.setItem('accessToken', stored.access_token);
      window.localStorage.setItem('refreshToken', stored.refresh_token);
      window.localStorage.setItem('user', JSON.stringify(stored.user));
    }
  }, session);
  return { context, page: await context.newPage() };
}
