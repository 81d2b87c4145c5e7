import {
  WS_CLOSE,
  WS_PATH,
  ZWsClientMessageSchema,
  type WsClientMessage,
  type WsServerMessage,
} from '@studioshot/contracts';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Logger } from '@studioshot/observability';
import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import type { TaskChange, TaskEventsRepository } from '../repositories/task-events.repository.js';
import type { QueueService } from '../services/queue.service.js';
import type { AccessCheck } from '../services/access-check.js';
import type { AccessClaims } from '../services/tokens.js';
import type { TrainingService } from '../services/training.service.js';

/** The first message must authenticate within this time. */
const AUTH_TIMEOUT_MS = 5000;
/** Sockets are pinged this often; one that did not answer the previous ping is dropped. */
const HEARTBEAT_MS = 30_000;
/** Clients only ever send `auth` and `ping`. */
const MAX_MESSAGE_BYTES = 4096;
/** setTimeout's largest delay; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Client {
  socket: WebSocket;
  state: 'awaiting-auth' | 'authenticating' | 'ready';
  claims?: AccessClaims;
  alive: boolean;
  timer?: NodeJS.Timeout;
}

/**
 * /ws: each signed-in user's tasks (every type), pushed whenever they change. The socket is opened
 * without credentials (never a token in the address); its first message authenticates it, checked
 * like every HTTP request's bearer token (signature, expiry, revocation). Changes come from the
 * task events stream, one subscription per process; each is read back from Postgres and sent to
 * the sockets of the task's owner only: a `task` message for every type, and for a training task
 * a `training` message too (the training pages read jobs).
 */
export class TaskFeed {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly clients = new Set<Client>();
  private readonly byUser = new Map<string, Set<Client>>();
  /** Tasks being read for relay; `again` when another change came meanwhile. */
  private readonly relaying = new Map<string, { again: boolean }>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly deps: {
      /** The same token check as every HTTP request's. */
      access: AccessCheck;
      /** Sign-outs, announced by every process: they end that sign-in's sockets. */
      revocations: Pick<SessionRevocationsRepository, 'onRevoked' | 'isRevoked'>;
      queue: QueueService;
      training: TrainingService;
      events: TaskEventsRepository;
      /** Page origins allowed besides the API's own. */
      allowedOrigins: string[];
      logger: Logger;
      /** How often sockets are pinged (tests shorten it). */
      heartbeatMs?: number;
    },
  ) {
    this.unsubscribe = [
      deps.events.onChange((change) => this.changed(change)),
      // A sign-out (here or in another process) ends that sign-in's sockets at once.
      deps.revocations.onRevoked((sessionId) => this.signedOut(sessionId)),
    ];
    this.heartbeat = setInterval(() => {
      this.beat().catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'ws heartbeat failed'),
      );
    }, deps.heartbeatMs ?? HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Serves /ws on the server's upgrade requests; any other path is refused. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (req.url?.split('?')[0] !== WS_PATH) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, req));
    });
  }

  /** Every socket closes with the code the web app reconnects on (to another API process). */
  close(): void {
    clearInterval(this.heartbeat);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    for (const client of this.clients)
      client.socket.close(WS_CLOSE.serverRestart, 'Server shutting down');
    this.wss.close();
  }

  private connected(socket: WebSocket, req: IncomingMessage): void {
    // Another site's page may not read our users' jobs: the handshake completes so that the
    // browser sees a close code it can act on (stop retrying), then closes.
    if (!this.originAllowed(req)) {
      socket.close(WS_CLOSE.forbiddenOrigin, 'Origin not allowed');
      return;
    }
    const client: Client = { socket, state: 'awaiting-auth', alive: true };
    this.clients.add(client);
    client.timer = setTimeout(
      () => socket.close(WS_CLOSE.authTimeout, 'Authentication timed out'),
      AUTH_TIMEOUT_MS,
    );
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('message', (data: RawData, isBinary: boolean) => {
      this.received(client, parseMessage(data, isBinary)).catch((error: unknown) => {
        this.deps.logger.error({ err: error }, 'ws message failed');
        socket.close(1011, 'Server error');
      });
    });
    socket.on('error', (error) => this.deps.logger.debug({ err: error }, 'ws socket error'));
    socket.on('close', () => this.forget(client));
  }

  private originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (!origin) return false;
    if (this.deps.allowedOrigins.includes(origin)) return true;
    try {
      // The API's own pages (it serves the web app): same host as the request was sent to.
      return new URL(origin).host === req.headers.host;
    } catch {
      return false;
    }
  }

  private async received(client: Client, message: WsClientMessage | undefined): Promise<void> {
    const { socket } = client;
    if (client.state === 'awaiting-auth') {
      if (message?.type !== 'auth') {
        socket.close(WS_CLOSE.unauthorized, 'Authenticate first');
        return;
      }
      client.state = 'authenticating';
      const claims = await this.deps.access.claims(message.token);
      if (socket.readyState !== WebSocket.OPEN) return;
      if (!claims) {
        socket.close(WS_CLOSE.unauthorized, 'Invalid token');
        return;
      }
      this.authenticated(client, claims);
      return;
    }
    // Anything sent while the token is being checked waits for nothing: it is dropped.
    if (client.state === 'authenticating') return;
    if (message?.type === 'ping') send(socket, { type: 'pong' });
    else
      send(socket, {
        type: 'error',
        detail: message ? 'Already authenticated' : 'Unknown message',
      });
  }

  private authenticated(client: Client, claims: AccessClaims): void {
    clearTimeout(client.timer);
    client.state = 'ready';
    client.claims = claims;
    // The socket lives as long as its token; the client opens a new one with a fresh token.
    client.timer = setTimeout(
      () => client.socket.close(WS_CLOSE.unauthorized, 'Token expired'),
      Math.min(MAX_TIMER_MS, Math.max(0, claims.expiresAt * 1000 - Date.now())),
    );
    let sockets = this.byUser.get(claims.userId);
    if (!sockets) {
      sockets = new Set();
      this.byUser.set(claims.userId, sockets);
    }
    sockets.add(client);
    send(client.socket, { type: 'ready', user_id: claims.userId });
  }

  private forget(client: Client): void {
    clearTimeout(client.timer);
    this.clients.delete(client);
    const userId = client.claims?.userId;
    const sockets = userId ? this.byUser.get(userId) : undefined;
    if (!userId || !sockets) return;
    sockets.delete(client);
    if (sockets.size === 0) this.byUser.delete(userId);
  }

  private changed(change: TaskChange): void {
    // Nobody here to tell: no read. The publisher's user hint only ever saves work.
    if (this.byUser.size === 0) return;
    if (change.userId && !this.byUser.has(change.userId)) return;
    const inFlight = this.relaying.get(change.taskId);
    if (inFlight) {
      // One read after the current one covers every change that arrives meanwhile, and keeps
      // a task's messages in order.
      inFlight.again = true;
      return;
    }
    const state = { again: false };
    this.relaying.set(change.taskId, state);
    void (async () => {
      try {
        do {
          state.again = false;
          await this.relay(change);
        } while (state.again);
      } catch (error) {
        this.deps.logger.warn({ err: error, taskId: change.taskId }, 'task relay failed');
      } finally {
        this.relaying.delete(change.taskId);
      }
    })();
  }

  /**
   * Reads the task and sends it to its owner's sockets. A training task is also read as a training
   * job: at once when the publisher said it is one, else once the task row says so.
   */
  private async relay(change: TaskChange): Promise<void> {
    const { taskId } = change;
    const hintedJob =
      change.taskType === 'training' ? this.deps.training.jobForRelay(taskId) : null;
    // Awaited only once the task proves to be a training of a user here: until then (or if it
    // never is awaited) its failure must not go unhandled.
    hintedJob?.catch(() => undefined);
    const found = await this.deps.queue.taskForRelay(taskId);
    const sockets = found ? this.byUser.get(found.userId) : undefined;
    if (!found || !sockets) return;
    const messages: WsServerMessage[] = [{ type: 'task', task: found.task }];
    if (found.task.task_type === 'training') {
      const training = await (hintedJob ?? this.deps.training.jobForRelay(taskId));
      if (training?.userId === found.userId) messages.push({ type: 'training', job: training.job });
    }
    for (const message of messages) {
      const text = JSON.stringify(message);
      for (const client of sockets) {
        if (client.socket.readyState === WebSocket.OPEN) client.socket.send(text);
      }
    }
  }

  private signedOut(sessionId: string): void {
    for (const client of this.clients) {
      if (client.claims?.sessionId === sessionId)
        client.socket.close(WS_CLOSE.unauthorized, 'Signed out');
    }
  }

  /**
   * Drops sockets that stopped answering pings, and those whose sign-in was revoked while the
   * revocation feed was down (its announcements close them at once otherwise).
   */
  private async beat(): Promise<void> {
    for (const client of this.clients) {
      if (client.socket.readyState !== WebSocket.OPEN) continue;
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
      const sessionId = client.claims?.sessionId;
      if (sessionId && (await this.deps.revocations.isRevoked(sessionId).catch(() => false)))
        client.socket.close(WS_CLOSE.unauthorized, 'Signed out');
    }
  }
}

function parseMessage(data: RawData, isBinary: boolean): WsClientMessage | undefined {
  if (isBinary) return undefined;
  try {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(new Uint8Array(data));
    const text = bytes.toString('utf8');
    const parsed = ZWsClientMessageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function send(socket: WebSocket, message: WsServerMessage): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
