import {
  WS_CLOSE,
  WS_PATH,
  ZWsServerMessageSchema,
  type WsServerMessage,
} from '@studioshot/contracts/ws';

/**
 * The realtime channel's socket (/ws). The access token goes in the first message, never in the
 * URL; the server answers `ready`, then pushes events. A 4401 close means the token was refused:
 * renew it (the API client's single-flight refresh) and reconnect. A 4403 close (wrong origin)
 * stops for good. Anything else (1012 from an API process that is shutting down among them)
 * reconnects with a capped, jittered backoff; the owner resyncs
 * after every `ready`, since pushes made while away are lost. Every message is parsed with the
 * contract's schema; one it does not describe (malformed, or from a newer server) is dropped.
 * The app holds one of these per tab through lib/realtime.
 */

/** Close codes the server uses (packages/contracts, WS_CLOSE). */
export const WS_CLOSE_CODES = WS_CLOSE;

export { WS_PATH };
/** Keeps idle connections open through proxies. */
export const WS_PING_INTERVAL_MS = 25_000;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;
/** Refused tokens in a row before giving up (the refresh itself said yes, the server still no). */
const MAX_AUTH_REJECTIONS = 3;

export type RealtimeState =
  /** Not started, or stopped by the owner. */
  | 'idle'
  | 'connecting'
  /** Authenticated: the server said ready. */
  | 'open'
  /** Lost; a new attempt is scheduled. */
  | 'reconnecting'
  /** Given up: wrong origin, no token, or the session could not be renewed. */
  | 'stopped';

/** ws:// or wss:// on the API's origin: the configured base URL, else this page's origin. */
export function realtimeUrl(
  apiBase: string,
  page: Pick<Location, 'protocol' | 'host'>,
  path: string = WS_PATH,
): string {
  const base = apiBase.trim().replace(/\/+$/, '');
  if (/^https?:\/\//i.test(base)) {
    const url = new URL(base);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
    url.search = '';
    url.hash = '';
    return url.toString();
  }
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  // A base that is only a path prefix ("/backend") stays on this origin.
  const prefix = base && base.startsWith('/') ? base : '';
  return `${scheme}//${page.host}${prefix}${path}`;
}

/** Delay before reconnect attempt `attempt` (0-based): 1 s doubling to 30 s, with 50-100% jitter. */
export function reconnectDelay(attempt: number, random: number = Math.random()): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling * (0.5 + 0.5 * Math.min(1, Math.max(0, random))));
}

type SocketLike = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
};

export interface RealtimeOptions {
  url: string;
  /** The current access token; null means signed out (nothing to connect with). */
  getToken: () => string | null;
  /** Renews the session; rejects when it cannot be renewed. */
  refreshToken: () => Promise<unknown>;
  /** Every server message the contract describes, other than ready and pong. */
  onMessage: (message: PushMessage) => void;
  /** After each successful (re)connect: the owner resyncs. */
  onReady?: () => void;
  onStateChange?: (state: RealtimeState) => void;
  /** Defaults to the global WebSocket, read when connecting. */
  createSocket?: (url: string) => SocketLike;
  random?: () => number;
  pingIntervalMs?: number;
}

/** What the server pushes after `ready`. */
export type PushMessage = Exclude<WsServerMessage, { type: 'ready' | 'pong' }>;

/** A server message as the contract describes it, or null (not JSON, not a known message). */
export function parseServerMessage(data: unknown): WsServerMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(String(data));
  } catch {
    return null;
  }
  const parsed = ZWsServerMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export interface RealtimeClient {
  start(): void;
  stop(): void;
  getState(): RealtimeState;
  /** Reconnect now if waiting for a retry (the browser came back online). */
  retryNow(): void;
}

export function createRealtimeClient(options: RealtimeOptions): RealtimeClient {
  const createSocket =
    options.createSocket ??
    ((url: string) => new globalThis.WebSocket(url) as unknown as SocketLike);
  const random = options.random ?? Math.random;
  const pingEvery = options.pingIntervalMs ?? WS_PING_INTERVAL_MS;

  let state: RealtimeState = 'idle';
  let socket: SocketLike | null = null;
  let attempt = 0;
  let authRejections = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let pingTimer: ReturnType<typeof setInterval> | null = null;
  /** Bumped on stop and on each new socket, so stale callbacks do nothing. */
  let generation = 0;

  function setState(next: RealtimeState): void {
    if (state === next) return;
    state = next;
    options.onStateChange?.(next);
  }

  function clearTimers(): void {
    if (retryTimer) clearTimeout(retryTimer);
    if (pingTimer) clearInterval(pingTimer);
    retryTimer = null;
    pingTimer = null;
  }

  function dropSocket(): void {
    const current = socket;
    socket = null;
    if (!current) return;
    current.onopen = current.onmessage = current.onclose = current.onerror = null;
    try {
      current.close(1000);
    } catch {
      // Already closed.
    }
  }

  function scheduleRetry(): void {
    clearTimers();
    setState('reconnecting');
    const delay = reconnectDelay(attempt, random());
    attempt += 1;
    retryTimer = setTimeout(connect, delay);
  }

  function connect(): void {
    clearTimers();
    dropSocket();
    const token = options.getToken();
    if (!token) {
      setState('stopped');
      return;
    }
    const mine = ++generation;
    setState(state === 'reconnecting' ? 'reconnecting' : 'connecting');
    let ws: SocketLike;
    try {
      ws = createSocket(options.url);
    } catch {
      scheduleRetry();
      return;
    }
    socket = ws;

    ws.onopen = () => {
      if (mine !== generation) return;
      // The token is read again: a refresh may have happened while connecting.
      ws.send(JSON.stringify({ type: 'auth', token: options.getToken() ?? token }));
    };

    ws.onmessage = (event) => {
      if (mine !== generation) return;
      const message = parseServerMessage(event.data);
      if (!message) return;
      if (message.type === 'ready') {
        attempt = 0;
        authRejections = 0;
        setState('open');
        pingTimer = setInterval(() => {
          if (socket === ws) ws.send(JSON.stringify({ type: 'ping' }));
        }, pingEvery);
        options.onReady?.();
        return;
      }
      if (message.type === 'pong') return;
      options.onMessage(message);
    };

    ws.onerror = () => {
      // A close event always follows; it decides what happens next.
    };

    ws.onclose = (event) => {
      if (mine !== generation) return;
      socket = null;
      clearTimers();
      if (event.code === WS_CLOSE_CODES.forbiddenOrigin) {
        setState('stopped');
        return;
      }
      if (event.code === WS_CLOSE_CODES.unauthorized) {
        authRejections += 1;
        if (authRejections > MAX_AUTH_REJECTIONS) {
          setState('stopped');
          return;
        }
        setState('reconnecting');
        options.refreshToken().then(
          () => {
            if (mine === generation && state === 'reconnecting') connect();
          },
          () => {
            // The API client has ended the session (or the network is down: retry later).
            if (mine !== generation) return;
            if (options.getToken()) scheduleRetry();
            else setState('stopped');
          },
        );
        return;
      }
      scheduleRetry();
    };
  }

  return {
    start() {
      if (state !== 'idle' && state !== 'stopped') return;
      attempt = 0;
      authRejections = 0;
      connect();
    },
    stop() {
      generation += 1;
      clearTimers();
      dropSocket();
      setState('idle');
    },
    getState: () => state,
    retryNow() {
      if (state !== 'reconnecting' || !retryTimer) return;
      attempt = 0;
      connect();
    },
  };
}
