import { Queue, Worker } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadWorkerEnv } from '../src/env.js';
import {
  BUSY_COST,
  IDLE_COST,
  KubernetesPodClient,
  POD_DELETION_COST_ANNOTATION,
  PodDeletionCost,
  podDeletionCost,
} from '../src/fleet/pod-deletion-cost.js';

/**
 * The worker marks its pod's deletion cost as its jobs start and end: a real BullMQ worker on the
 * test Redis, and a small HTTP server standing in for the Kubernetes API (not ours to run), which
 * records each call and can refuse them.
 */

interface Call {
  method: string;
  path: string;
  contentType: string | undefined;
  authorization: string | undefined;
  body: unknown;
}

let server: Server;
let apiUrl: string;
const calls: Call[] = [];
const waiters: (() => void)[] = [];
let refuseNext = 0;
let dir: string;
let tokenFile: string;

async function body(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += (chunk as Buffer).toString('utf8');
  return JSON.parse(text);
}

/** Resolves once the stand-in has received `count` calls in all. */
async function callsReceived(count: number): Promise<Call[]> {
  while (calls.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
  return calls;
}

const costOf = (call: Call) =>
  (call.body as { metadata: { annotations: Record<string, string> } }).metadata.annotations[
    POD_DELETION_COST_ANNOTATION
  ];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'studioshot-pod-'));
  tokenFile = path.join(dir, 'token');
  await writeFile(tokenFile, 'token-1\n');
  server = createServer((req, res) => {
    void body(req).then((parsed) => {
      if (refuseNext > 0) {
        refuseNext -= 1;
        res.writeHead(403, { 'Content-Type': 'application/json' });
        res.end('{"kind":"Status","reason":"Forbidden"}');
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{}');
      }
      calls.push({
        method: req.method ?? '',
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        authorization: req.headers.authorization,
        body: parsed,
      });
      for (const wake of waiters.splice(0)) wake();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('pod deletion cost', () => {
  it('is off unless asked for, and on needs the pod it marks', async () => {
    const required = { REDIS_URL: 'redis://127.0.0.1:1', DATABASE_URL: 'postgres://u@h/db' };
    const env = loadWorkerEnv(required);
    expect(env.POD_DELETION_COST).toBe('off');
    expect(await podDeletionCost(env, pino({ level: 'silent' }))).toBeNull();
    expect(() => loadWorkerEnv({ ...required, POD_DELETION_COST: 'on' })).toThrow(/POD_NAME/);
    expect(() => loadWorkerEnv({ ...required, POD_DELETION_COST: 'yes' })).toThrow(
      /POD_DELETION_COST/,
    );
  });

  it("marks the pod busy while a job runs and idle after, with the service account's token", async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:bull`;
    const redisUrl = inject('redisUrl');
    const connection = { url: redisUrl, maxRetriesPerRequest: null };
    const queue = new Queue('pod-cost', { connection, prefix });
    const gates = new Map<string, () => void>();
    const started = new EventEmitter();
    const worker = new Worker(
      'pod-cost',
      (job) =>
        new Promise<void>((resolve) => {
          gates.set(job.id ?? '', resolve);
          started.emit('started');
        }),
      { connection, prefix, concurrency: 2 },
    );
    const client = new KubernetesPodClient({
      apiUrl,
      namespace: 'studioshot',
      pod: 'worker-studio-7d9c-abcde',
      tokenFile,
    });
    const cost = new PodDeletionCost(client, pino({ level: 'silent' }));
    cost.follow([worker]);
    /** Resolves once job `id` is running (held until its gate is called). */
    const gateOpen = async (id: string) => {
      while (!gates.has(id)) await once(started, 'started');
    };
    try {
      await queue.add('run', {}, { jobId: 'a' });
      await gateOpen('a');
      const [first] = await callsReceived(1);
      expect(first).toEqual({
        method: 'PATCH',
        path: '/api/v1/namespaces/studioshot/pods/worker-studio-7d9c-abcde',
        contentType: 'application/merge-patch+json',
        authorization: 'Bearer token-1',
        body: { metadata: { annotations: { [POD_DELETION_COST_ANNOTATION]: String(BUSY_COST) } } },
      });

      // A second job while busy changes nothing; the pod is idle only when both ended.
      await queue.add('run', {}, { jobId: 'b' });
      await gateOpen('b');
      gates.get('a')?.();
      await once(worker, 'completed');
      await cost.settled();
      expect(calls).toHaveLength(1);
      // Kubernetes rotates the token: each call reads the file again.
      await writeFile(tokenFile, 'token-2\n');
      gates.get('b')?.();
      const [, second] = await callsReceived(2);
      expect(costOf(second!)).toBe(String(IDLE_COST));
      expect(second!.authorization).toBe('Bearer token-2');

      // Refused (RBAC missing, say): the worker carries on, and the next change is sent.
      refuseNext = 1;
      await queue.add('run', {}, { jobId: 'c' });
      await gateOpen('c');
      await callsReceived(3);
      await cost.settled();
      // Idle again: the pod still says idle (the busy mark never landed), nothing to send.
      gates.get('c')?.();
      await once(worker, 'completed');
      await cost.settled();
      expect(calls).toHaveLength(3);
      await queue.add('run', {}, { jobId: 'd' });
      await gateOpen('d');
      const [, , , fourth] = await callsReceived(4);
      expect(costOf(fourth!)).toBe(String(BUSY_COST));
      gates.get('d')?.();
      await callsReceived(5);
      await cost.settled();
      expect(calls.map(costOf)).toEqual(
        [BUSY_COST, IDLE_COST, BUSY_COST, BUSY_COST, IDLE_COST].map(String),
      );
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
