import { WS_CLOSE, ZHealthResponseSchema, ZLivenessResponseSchema } from '@studioshot/contracts';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, registerUser, TEST_JWT_SECRET, type TestApp } from './helpers.js';

/**
 * The API as a rolling update stops it: a real `src/main.ts` process, sent SIGTERM while a request
 * is half sent and a signed-in page holds /ws. Readiness fails first while the process serves on,
 * the request gets its answer, then the socket closes with the code the web app reconnects on,
 * then the process exits cleanly.
 */

const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let t: TestApp;
let storageDir: string;
beforeAll(async () => {
  t = await createTestApp();
  storageDir = await mkdtemp(path.join(tmpdir(), 'studioshot-shutdown-'));
});
afterAll(async () => {
  await t.close();
  await rm(storageDir, { recursive: true, force: true });
});

/** Starts the API's entry point on a free port; resolves with the port it listens on. */
async function startApi(): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const { env } = t.c;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      DATABASE_URL: env.DATABASE_URL,
      REDIS_URL: env.REDIS_URL,
      REDIS_PREFIX: env.REDIS_PREFIX,
      JWT_SECRET: TEST_JWT_SECRET,
      APP_VERSION: env.APP_VERSION,
      LOG_LEVEL: 'info',
      STORAGE_DRIVER: 'local',
      STORAGE_DIR: storageDir,
      // Long enough for this test to see readiness fail while the process still serves.
      SHUTDOWN_READINESS_DELAY_MS: '5000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const listening = /running at http:\/\/localhost:(\d+)/.exec(output);
      if (listening) resolve(Number(listening[1]));
    });
    child.once('exit', (code) => reject(new Error(`the API exited (${code}):\n${output}`)));
  });
  return { child, port, output: () => output };
}

async function get(port: number, pathname: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`);
  return { status: res.status, body: await res.json() };
}

describe('SIGTERM', () => {
  it('fails readiness, answers the request in flight, closes /ws with 1012, then exits 0', async () => {
    const user = await registerUser(t);
    const { child, port, output } = await startApi();
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

    // A signed-in page's live connection.
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
      headers: { Origin: `http://127.0.0.1:${port}` },
    });
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'auth', token: user.tokens.access_token }));
    const [ready] = (await once(socket, 'message')) as [Buffer];
    expect(JSON.parse(ready.toString('utf8'))).toMatchObject({ type: 'ready' });
    let closeCode: number | undefined;
    const socketClosed = new Promise<number>((resolve) =>
      socket.once('close', (code: number) => {
        closeCode = code;
        resolve(code);
      }),
    );

    // A request whose body is half sent: the server has it (it said 100 Continue) and waits.
    const body = JSON.stringify({ email: user.email, password: user.password });
    const inFlight = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/auth/login',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        Expect: '100-continue',
      },
    });
    const answered = once(inFlight, 'response') as Promise<[IncomingMessage]>;
    await once(inFlight, 'continue');
    inFlight.write(body.slice(0, 10));

    expect(child.kill('SIGTERM')).toBe(true);
    // Readiness fails (the load balancer stops sending), liveness still answers.
    let health = await get(port, '/health');
    while (health.status === 200) health = await get(port, '/health');
    expect(health.status).toBe(503);
    expect(ZHealthResponseSchema.parse(health.body).status).toBe('stopping');
    const live = await get(port, '/health/live');
    expect(live.status).toBe(200);
    expect(ZLivenessResponseSchema.parse(live.body)).toEqual({ status: 'alive' });

    // Whatever the process does next, the page's socket stays open while a request is unanswered.
    expect(socket.readyState).toBe(WebSocket.OPEN);
    expect(closeCode).toBeUndefined();
    inFlight.end(body.slice(10));
    const [res] = await answered;
    expect(res.statusCode).toBe(200);
    let text = '';
    for await (const chunk of res) text += (chunk as Buffer).toString('utf8');
    expect(JSON.parse(text)).toHaveProperty('access_token');

    expect(await socketClosed).toBe(WS_CLOSE.serverRestart);
    const [code, signal] = await exited;
    expect({ code, signal }, output()).toEqual({ code: 0, signal: null });
  });
});
