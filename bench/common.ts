import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run benchmarks with bench/run.sh`);
  return value;
}

export function machine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
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

export async function waitForHttp(
  url: string,
  child: ChildProcess,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited early`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function startNode(
  script: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, script], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env },
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function writeResult(name: string, result: object, markdown: string): void {
  writeFileSync(
    path.join(ROOT, 'bench/results', `${name}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  writeFileSync(path.join(ROOT, 'bench/results', `${name}.md`), markdown);
}

/** A JSON call to the API under test; any answer but 2xx throws with its body. */
export async function apiCall<T>(
  base: string,
  method: string,
  route: string,
  token?: string,
  body?: object,
): Promise<T> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A new account with one training slot, bought as users buy it (a test card); its access token. */
export async function trainingUser(base: string, email: string): Promise<string> {
  const { access_token: token } = await apiCall<{ access_token: string }>(
    base,
    'POST',
    '/api/v1/auth/register',
    undefined,
    {
      email,
      password: 'bench-password',
      name: 'Bench',
    },
  );
  const intent = await apiCall<{ payment_intent_id: string; client_secret: string }>(
    base,
    'POST',
    '/api/v1/payments/create-training-purchase',
    token,
    { quantity: 1 },
  );
  await apiCall(base, 'POST', '/api/v1/payments/test/confirm-card', token, {
    payment_intent_id: intent.payment_intent_id,
    client_secret: intent.client_secret,
    card: { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Bench' },
  });
  await apiCall(base, 'POST', '/api/v1/payments/confirm-payment', token, {
    payment_intent_id: intent.payment_intent_id,
  });
  return token;
}

/** Uploads one JPEG into a session as the upload page does (one multipart file per request). */
export async function uploadPhoto(
  base: string,
  token: string,
  sessionId: string,
  bytes: Uint8Array,
  name: string,
): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  const res = await fetch(`${base}/api/v1/upload/file/${sessionId}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
}

/** Linux reports process CPU time in clock ticks of 1/100 s. */
const TICKS_PER_SECOND = 100;

export interface ProcessCpu {
  /** Own user + system time of the process. */
  self: number;
  /** Its reaped children's (cutime + cstime) plus its live descendants' own and reaped time. */
  descendants: number;
}

/** Every process's parent, read from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(Number(entry));
      map.set(Number(entry), Number(fields[1]));
    } catch {
      // ended meanwhile
    }
  }
  return map;
}

/** /proc/<pid>/stat from the 3rd field on (after the parenthesised command name). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime, stime, cutime, cstime in seconds. */
function times(pid: number): [number, number, number, number] {
  const f = statFields(pid);
  // Fields 14-17 of stat; this slice starts at field 3.
  return [f[11], f[12], f[13], f[14]].map((v) => Number(v) / TICKS_PER_SECOND) as [
    number,
    number,
    number,
    number,
  ];
}

export function processCpu(pid: number): ProcessCpu {
  const [utime, stime, cutime, cstime] = times(pid);
  const tree = parents();
  let descendants = cutime + cstime;
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [child, ppid] of tree) {
      if (ppid !== parent) continue;
      queue.push(child);
      try {
        const [u, s, cu, cs] = times(child);
        // A live child's own time, and what its own reaped children used.
        descendants += u + s + cu + cs;
      } catch {
        // ended between the listing and the read: its parent's cutime counts it next time
      }
    }
  }
  return { self: utime + stime, descendants };
}
