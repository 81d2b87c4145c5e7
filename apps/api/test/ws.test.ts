import {
  TASK_EVENTS_MAX_EVENTS,
  TASK_EVENTS_STREAM,
  taskChangedEvent,
  WS_CLOSE,
  ZQueueTaskSchema,
  ZTrainingJobSchema,
  ZTrainModelJobSchema,
  ZWsServerMessageSchema,
  type QueueTask,
  type TaskType,
  type TrainingJob,
  type WsServerMessage,
} from '@studioshot/contracts';
import { QueueEventsProducer, Worker, type Job } from 'bullmq';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHttpServer } from '../src/server.js';
import { signAccessToken } from '../src/services/tokens.js';
import type { TaskFeed } from '../src/ws/task-feed.js';
import { bearer, createTestApp, type TestApp } from './helpers.js';
import {
  completedSession,
  startTraining,
  TRAINING_QUEUE,
  trainingUser,
  type TestUser,
} from './training-helpers.js';

let t: TestApp;
let feed: TaskFeed;
/** Publishes task changes as a worker does (the exact call the worker makes). */
let publisher: QueueEventsProducer;
let close: () => Promise<void>;
let origin: string;
let address: string;

beforeAll(async () => {
  t = await createTestApp({ WEB_ORIGINS: 'https://app.studioshot.example' });
  const http = createHttpServer(t.c);
  feed = http.feed;
  await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
  const { port } = http.server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  address = `ws://127.0.0.1:${port}/ws`;
  publisher = new QueueEventsProducer(TASK_EVENTS_STREAM, {
    connection: t.c.redis,
    prefix: `${t.c.env.REDIS_PREFIX}bull`,
  });
  close = () =>
    new Promise((resolve) => {
      feed.close();
      http.server.close(() => resolve());
      http.server.closeAllConnections();
    });
});
afterAll(async () => {
  await publisher.close();
  await close();
  await t.close();
});

/** A browser-like client: it records every message and how the socket ended. */
class Client {
  readonly socket: WebSocket;
  readonly messages: { at: number; message: WsServerMessage }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  constructor(options: { origin?: string; path?: string } = {}) {
    this.socket = new WebSocket(address.replace('/ws', options.path ?? '/ws'), {
      origin: options.origin ?? origin,
    });
    this.socket.on('message', (data) => {
      this.messages.push({
        at: performance.now(),
        // Every message the server sends is one the contract describes.
        message: ZWsServerMessageSchema.parse(JSON.parse(String(data))),
      });
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      this.socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Resolves with the first message (from `from` on) that passes `test`. */
  async next<T extends WsServerMessage>(
    test: (m: WsServerMessage) => m is T,
    from = 0,
    timeoutMs = 5000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find((m) => test(m.message));
      if (found) return found.message as T;
      if (Date.now() > deadline)
        throw new Error(`no such message in ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  trainingMessages(): TrainingJob[] {
    return this.messages.flatMap(({ message }) =>
      message.type === 'training' ? [ZTrainingJobSchema.parse(message.job)] : [],
    );
  }

  taskMessages(): QueueTask[] {
    return this.messages.flatMap(({ message }) =>
      message.type === 'task' ? [ZQueueTaskSchema.parse(message.task)] : [],
    );
  }
}

const isReady = (m: WsServerMessage): m is Extract<WsServerMessage, { type: 'ready' }> =>
  m.type === 'ready';
const isTraining = (m: WsServerMessage): m is Extract<WsServerMessage, { type: 'training' }> =>
  m.type === 'training';
const isTask = (m: WsServerMessage): m is Extract<WsServerMessage, { type: 'task' }> =>
  m.type === 'task';
const taskOf =
  (taskId: string, test: (task: QueueTask) => boolean = () => true) =>
  (m: WsServerMessage): m is Extract<WsServerMessage, { type: 'task' }> =>
    isTask(m) && m.task.id === taskId && test(m.task);

/** What a worker does after every change of a task row: one `task-changed` on the stream. */
async function publishChange(task: { id: string; user_id: string; task_type: TaskType }) {
  await publisher.publishEvent(
    taskChangedEvent({ task_id: task.id, user_id: task.user_id, task_type: task.task_type }),
    TASK_EVENTS_MAX_EVENTS,
  );
}

/** A task row of any type, as the generation API would write it. */
async function insertTask(user: TestUser, type: TaskType) {
  return t.c.db
    .insertInto('tasks')
    .values({ user_id: user.id, task_type: type, status: 'queued', message: 'Queued' })
    .returning(['id', 'user_id', 'task_type'])
    .executeTakeFirstOrThrow();
}

async function signedIn(user: TestUser, options: { origin?: string } = {}): Promise<Client> {
  const client = new Client(options);
  await client.opened();
  client.send({ type: 'auth', token: user.token });
  await client.next(isReady);
  return client;
}

describe('/ws authentication', () => {
  it("authenticates with the first message and answers ready with the user's id", async () => {
    const user = await trainingUser(t);
    const client = new Client();
    await client.opened();
    client.send({ type: 'auth', token: user.token });
    expect(await client.next(isReady)).toEqual({ type: 'ready', user_id: user.id });
    client.send({ type: 'ping' });
    await client.next((m): m is { type: 'pong' } => m.type === 'pong');
    client.send({ type: 'auth', token: user.token });
    expect(
      await client.next((m): m is { type: 'error'; detail: string } => m.type === 'error'),
    ).toEqual({
      type: 'error',
      detail: 'Already authenticated',
    });
    client.socket.close();
  });

  it('closes 4401 for a bad token, a revoked one, or a first message that is not auth', async () => {
    const user = await trainingUser(t);
    const forged = `${user.token.slice(0, -4)}AAAA`;
    const signedOut = await trainingUser(t);
    await t.request.post('/api/v1/auth/logout').set(bearer(signedOut.token)).send({}).expect(200);
    for (const first of [
      { type: 'auth', token: forged },
      { type: 'auth', token: 'not.a.jwt' },
      { type: 'auth', token: signedOut.token },
      { type: 'ping' },
      'not json',
      { type: 'auth' },
    ]) {
      const client = new Client();
      await client.opened();
      client.send(first);
      expect((await client.closed).code, JSON.stringify(first)).toBe(WS_CLOSE.unauthorized);
      expect(client.messages).toEqual([]);
    }
  });

  it("a sign-out closes that sign-in's open sockets at once, and no one else's", async () => {
    const leaving = await trainingUser(t);
    const staying = await trainingUser(t);
    const leavingSocket = await signedIn(leaving);
    const stayingSocket = await signedIn(staying);
    const started = Date.now();
    await t.request.post('/api/v1/auth/logout').set(bearer(leaving.token)).send({}).expect(200);
    expect(await leavingSocket.closed).toEqual({
      code: WS_CLOSE.unauthorized,
      reason: 'Signed out',
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stayingSocket.socket.readyState).toBe(WebSocket.OPEN);
    stayingSocket.socket.close();
  });

  it('drops a socket that stops answering pings, and keeps one that answers', async () => {
    const user = await trainingUser(t);
    const quick = createHttpServer(t.c, { heartbeatMs: 150 });
    await new Promise<void>((resolve) => quick.server.listen(0, '127.0.0.1', resolve));
    const { port } = quick.server.address() as AddressInfo;
    const open = async (autoPong: boolean) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
        origin: `http://127.0.0.1:${port}`,
        autoPong,
      });
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'auth', token: user.token }));
      await new Promise((resolve) => socket.once('message', resolve));
      return socket;
    };
    try {
      const silent = await open(false);
      const answering = await open(true);
      const closed = await new Promise<number>((resolve) => silent.once('close', resolve));
      expect(closed).toBe(1006); // terminated: no close handshake for a dead peer
      expect(answering.readyState).toBe(WebSocket.OPEN);
      answering.close();
    } finally {
      quick.feed.close();
      quick.server.closeAllConnections();
      await new Promise((resolve) => quick.server.close(resolve));
    }
  });

  it('refuses pages from other origins with 4403, and accepts the configured ones', async () => {
    const user = await trainingUser(t);
    for (const foreign of ['https://evil.example', 'null', 'http://127.0.0.1:1']) {
      const client = new Client({ origin: foreign });
      await client.opened();
      client.send({ type: 'auth', token: user.token });
      expect((await client.closed).code).toBe(WS_CLOSE.forbiddenOrigin);
      expect(client.messages).toEqual([]);
    }
    const configured = await signedIn(user, { origin: 'https://app.studioshot.example' });
    configured.socket.close();
  });

  it('answers another path with 404', async () => {
    const client = new Client({ path: '/socket' });
    const status = await new Promise<number | undefined>((resolve) => {
      client.socket.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      client.socket.on('error', () => resolve(undefined));
    });
    expect(status).toBe(404);
  });

  it('closes when the token expires, so the client signs in again', async () => {
    const user = await trainingUser(t);
    const shortLived = signAccessToken({ ...t.c.accessToken, ttlSeconds: 1 }, user.id, 'sid-short');
    const client = new Client();
    await client.opened();
    client.send({ type: 'auth', token: shortLived });
    await client.next(isReady);
    const closed = await client.closed;
    expect(closed).toEqual({ code: WS_CLOSE.unauthorized, reason: 'Token expired' });
  });

  it('closes 4408 when no auth message comes within 5 seconds', async () => {
    const client = new Client();
    await client.opened();
    const started = Date.now();
    const closed = await client.closed;
    expect(closed.code).toBe(WS_CLOSE.authTimeout);
    expect(Date.now() - started).toBeGreaterThan(4500);
  }, 10_000);
});

describe('/ws task updates', () => {
  it('pushes each change of a training to its owner only, as a task and as a training job', async () => {
    const owner = await trainingUser(t);
    const other = await trainingUser(t);
    const ownerTab = await signedIn(owner);
    const secondTab = await signedIn(owner);
    const otherClient = await signedIn(other);

    // Stands in for the GPU worker (tested in apps/worker): takes the job, writes the task row,
    // then publishes task-changed on the task events stream after each change.
    const worker = new Worker(
      TRAINING_QUEUE,
      async (job: Job) => {
        const { task_id } = ZTrainModelJobSchema.parse(job.data);
        const task = await t.c.db
          .updateTable('tasks')
          .set({ status: 'running', started_at: sql`now()`, attempts: sql`attempts + 1` })
          .where('id', '=', task_id)
          .returning(['id', 'user_id', 'task_type'])
          .executeTakeFirstOrThrow();
        await t.c.db
          .updateTable('models')
          .set({ status: 'training' })
          .where('id', '=', task_id)
          .execute();
        await publishChange(task);
        for (const progress of [10, 30, 50, 70, 90]) {
          await t.c.db
            .updateTable('tasks')
            .set({ progress, message: `Step ${progress}` })
            .where('id', '=', task_id)
            .execute();
          await publishChange(task);
          // The feed collapses a burst into its latest state; pacing the steps on their arrival
          // shows that each change, when it is the latest, is pushed.
          await ownerTab.next(
            (m): m is Extract<WsServerMessage, { type: 'training' }> =>
              isTraining(m) && m.job.progress === progress,
            0,
            10_000,
          );
        }
        await t.c.db
          .updateTable('tasks')
          .set({ status: 'completed', progress: 100, completed_at: sql`now()`, gpu_seconds: 2 })
          .where('id', '=', task_id)
          .execute();
        await t.c.db
          .updateTable('models')
          .set({ status: 'completed', artifact_key: `models/${task_id}/model.json` })
          .where('id', '=', task_id)
          .execute();
        await publishChange(task);
      },
      {
        connection: { ...t.c.redis.options, maxRetriesPerRequest: null },
        prefix: `${t.c.env.REDIS_PREFIX}bull`,
      },
    );
    try {
      const job = await startTraining(t, owner, await completedSession(t, owner.id));
      const done = await ownerTab.next(
        (m): m is Extract<WsServerMessage, { type: 'training' }> =>
          isTraining(m) && m.job.status === 'completed',
        0,
        10_000,
      );
      expect(done.job).toMatchObject({
        id: job.id,
        progress: 100,
        model_path: `models/${job.id}/model.json`,
      });
      await secondTab.next(
        (m): m is Extract<WsServerMessage, { type: 'training' }> =>
          isTraining(m) && m.job.status === 'completed',
      );

      const seen = ownerTab.trainingMessages();
      expect(seen.every((j) => j.id === job.id)).toBe(true);
      // In order: progress never goes back.
      const progress = seen.map((j) => j.progress);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(progress).toEqual(expect.arrayContaining([10, 30, 50, 70, 90, 100]));

      // The same changes as queue tasks, each sent just before its training job.
      const tasks = ownerTab.taskMessages();
      expect(tasks.every((task) => task.id === job.id && task.task_type === 'training')).toBe(true);
      const taskProgress = tasks.map((task) => task.progress);
      expect(taskProgress).toEqual([...taskProgress].sort((a, b) => a - b));
      expect(tasks.at(-1)).toMatchObject({ status: 'completed', progress: 100, position: null });
      const types = ownerTab.messages.slice(1).map(({ message }) => message.type);
      expect(types).toEqual(seen.flatMap(() => ['task', 'training']));

      // Someone else's change reaches the other user after anything sent to them before it.
      const theirs = await insertTask(other, 'generation');
      await publishChange(theirs);
      await otherClient.next(taskOf(theirs.id));
      expect(otherClient.messages.slice(1).map(({ message }) => message)).toEqual([
        { type: 'task', task: expect.objectContaining({ id: theirs.id }) },
      ]);
    } finally {
      await worker.close();
      for (const client of [ownerTab, secondTab, otherClient]) client.socket.close();
    }
  });

  it('pushes a generation task to its owner only, and no training message', async () => {
    const owner = await trainingUser(t);
    const other = await trainingUser(t);
    const ownerTab = await signedIn(owner);
    const otherClient = await signedIn(other);
    try {
      const task = await insertTask(owner, 'generation');
      await publishChange(task);
      const queued = await ownerTab.next(taskOf(task.id));
      expect(queued.task).toMatchObject({
        id: task.id,
        task_id: task.id,
        task_type: 'generation',
        priority: 'normal',
        status: 'queued',
        progress: 0,
        message: 'Queued',
        // No job on a queue for it: not in line.
        position: null,
      });

      await t.c.db
        .updateTable('tasks')
        .set({ status: 'running', progress: 40, message: 'Rendering', started_at: sql`now()` })
        .where('id', '=', task.id)
        .execute();
      await publishChange(task);
      const running = await ownerTab.next(taskOf(task.id, (x) => x.status === 'running'));
      expect(running.task).toMatchObject({ progress: 40, message: 'Rendering' });

      await t.c.db
        .updateTable('tasks')
        .set({ status: 'completed', progress: 100, completed_at: sql`now()` })
        .where('id', '=', task.id)
        .execute();
      await publishChange(task);
      await ownerTab.next(taskOf(task.id, (x) => x.status === 'completed'));
      expect(ownerTab.trainingMessages()).toEqual([]);
      expect(ownerTab.taskMessages().map((x) => x.status)).toEqual([
        'queued',
        'running',
        'completed',
      ]);

      // The publisher's user hint does not route: the row's owner does.
      await publisher.publishEvent(
        taskChangedEvent({ task_id: task.id, user_id: other.id, task_type: 'generation' }),
        TASK_EVENTS_MAX_EVENTS,
      );
      const from = ownerTab.messages.length;
      await ownerTab.next(taskOf(task.id), from);

      // Anything sent to the other user would have reached them before a change of their own.
      const theirs = await insertTask(other, 'batch_generation');
      await publishChange(theirs);
      await otherClient.next(taskOf(theirs.id));
      expect(otherClient.taskMessages().map((x) => x.id)).toEqual([theirs.id]);
    } finally {
      for (const client of [ownerTab, otherClient]) client.socket.close();
    }
  });

  it('tells the owner when a waiting training is cancelled', async () => {
    const owner = await trainingUser(t);
    const client = await signedIn(owner);
    const job = await startTraining(t, owner, await completedSession(t, owner.id));
    const from = client.messages.length;
    await t.request.delete(`/api/v1/queue/cancel/${job.id}`).set(bearer(owner.token)).expect(200);
    const cancelled = await client.next(
      (m): m is Extract<WsServerMessage, { type: 'training' }> =>
        isTraining(m) && m.job.task_status === 'cancelled',
      from,
    );
    expect(cancelled.job).toMatchObject({
      id: job.id,
      status: 'failed',
      error_message: 'Cancelled',
    });
    const task = await client.next(
      taskOf(job.id, (x) => x.status === 'cancelled'),
      from,
    );
    expect(task.task).toMatchObject({ error_message: 'Cancelled', position: null });
    client.socket.close();
  });
});
