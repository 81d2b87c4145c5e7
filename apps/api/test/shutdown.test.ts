import { WS_CLOSE, ZHealthResponseSchema, ZLivenessResponseSchema } from '@studioshot/contracts';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startApiProcess } from './api-process.js';
import { createTestApp, registerUser, type TestApp } from './helpers.js';

/**
 * The API as a rolling update stops it: a real `src/main.ts` process, sent SIGTERM while a request
 * is half sent and a signed-in page holds /ws. Readiness fails first while the process serves on,
 * the request gets its answer, then the socket closes with the code the web app reconnects on,
 * then the process exits cleanly.
 */

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

/**
 * The API's entry point with the longest readiness delay: the test ends it with a second signal
 * once it has seen what the delay is for, so no step races a clock.
 */
const startApi = () =>
  startApiProcess(t, {
    LOG_LEVEL: 'info',
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: storageDir,
    SHUTDOWN_READINESS_DELAY_MS: '60000',
  });

/** Resolves once a new connection to `port` is refused (the server no longer listens). */
async function refusingConnections(port: number): Promise<void> {
  for (;;) {
    const socket = connect(port, '127.0.0.1');
    const refused = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(false));
      socket.once('error', () => resolve(true));
    });
    socket.destroy();
    if (refused) return;
  }
}

async function get(port: number, pathname: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`);
  return { status: res.status, body: await res.json() };
}

describe('SIGTERM', () => {
  it('fails readiness, answers the request in flight, closes /ws with 1012, then exits 0 (a second SIGTERM ends the delay)', async () => {
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

    // A second signal ends the delay: no new connection is taken, yet the page's socket stays
    // open and the half-sent request is still answered.
    expect(child.kill('SIGTERM')).toBe(true);
    await refusingConnections(port);
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

  it('stops gracefully when sent as soon as the API says it is running (start-up still under way)', async () => {
    const { child, output } = await startApiProcess(t, {
      STORAGE_DRIVER: 'local',
      STORAGE_DIR: storageDir,
      SHUTDOWN_READINESS_DELAY_MS: '0',
    });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    expect(child.kill('SIGTERM')).toBe(true);
    const [code, signal] = await exited;
    expect({ code, signal }, output()).toEqual({ code: 0, signal: null });
  });
});
