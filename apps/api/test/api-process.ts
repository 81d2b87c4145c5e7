import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processEnv } from './deletion-helpers.js';
import type { TestApp } from './helpers.js';

const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The API's entry point (`src/main.ts`) running as a process of its own, beside a test's app. */
export interface ApiProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything it printed so far, for a failure's message. */
  output: () => string;
}

/**
 * Starts the API's entry point on a free port, on the test app's database, Redis prefix and
 * storage, with `settings` on top; resolves once it listens.
 */
export async function startApiProcess(
  t: TestApp,
  settings: Record<string, string> = {},
): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_ROOT,
    env: { ...process.env, ...processEnv(t), PORT: '0', ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const listening = /running at http:\/\/localhost:(\d+)/.exec(output);
      if (listening) resolve(Number(listening[1]));
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the API exited (${code}):\n${output}`)));
  });
  return { child, port, url: `http://127.0.0.1:${port}`, output: () => output };
}

/** Stops it with SIGTERM, as a rollout does (resumed first, should a test have paused it). */
export async function stopApiProcess(api: ApiProcess | undefined): Promise<void> {
  if (!api || api.child.exitCode !== null || api.child.signalCode !== null) return;
  api.child.kill('SIGCONT');
  const exited = once(api.child, 'exit');
  api.child.kill('SIGTERM');
  await exited;
}
