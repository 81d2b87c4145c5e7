import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trainingJob } from '../features/training/testing';
import { FakeWebSocket } from '../test/fake-websocket';
import { queueTask } from './realtime-testing';
import {
  createRealtimeClient,
  realtimeUrl,
  reconnectDelay,
  WS_CLOSE_CODES,
  type RealtimeState,
} from './ws-client';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('realtimeUrl', () => {
  const page = { protocol: 'https:', host: 'app.example.com' };
  it.each([
    ['', page, 'wss://app.example.com/ws'],
    ['', { protocol: 'http:', host: 'localhost:8080' }, 'ws://localhost:8080/ws'],
    ['https://api.example.com', page, 'wss://api.example.com/ws'],
    ['http://localhost:9000/', page, 'ws://localhost:9000/ws'],
    ['https://example.com/backend/', page, 'wss://example.com/backend/ws'],
    ['/backend', page, 'wss://app.example.com/backend/ws'],
  ])('base %j on %j -> %s', (base, on, expected) => {
    expect(realtimeUrl(base, on)).toBe(expected);
  });
});

describe('reconnectDelay', () => {
  it('doubles from 1 s to a 30 s ceiling, jittered to 50-100%', () => {
    expect(reconnectDelay(0, 1)).toBe(1000);
    expect(reconnectDelay(0, 0)).toBe(500);
    expect(reconnectDelay(3, 1)).toBe(8000);
    expect(reconnectDelay(10, 1)).toBe(30_000);
    expect(reconnectDelay(10, 0)).toBe(15_000);
  });
});

function setup(overrides: Partial<Parameters<typeof createRealtimeClient>[0]> = {}) {
  let token: string | null = 'token-1';
  const states: RealtimeState[] = [];
  const messages: unknown[] = [];
  const onReady = vi.fn();
  const refreshToken = vi.fn(async () => {
    token = 'token-2';
    return token;
  });
  const client = createRealtimeClient({
    url: 'wss://app.example.com/ws',
    getToken: () => token,
    refreshToken,
    onMessage: (message) => messages.push(message),
    onReady,
    onStateChange: (state) => states.push(state),
    createSocket: (url) => new FakeWebSocket(url),
    random: () => 1,
    ...overrides,
  });
  return {
    client,
    states,
    messages,
    onReady,
    refreshToken,
    setToken: (next: string | null) => (token = next),
  };
}

describe('createRealtimeClient', () => {
  beforeEach(() => FakeWebSocket.reset());

  it('authenticates with the first message (never the URL), then relays pushes', () => {
    const { client, states, messages, onReady } = setup();
    client.start();
    const socket = FakeWebSocket.latest();
    expect(socket.url).toBe('wss://app.example.com/ws');
    expect(socket.url).not.toContain('token');
    socket.serverOpen();
    expect(socket.sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    expect(client.getState()).toBe('connecting');

    socket.serverSend({ type: 'ready', user_id: 'u1' });
    expect(client.getState()).toBe('open');
    expect(onReady).toHaveBeenCalledTimes(1);

    socket.serverSend({ type: 'task', task: queueTask() });
    socket.serverSend({ type: 'pong' });
    socket.onmessage?.({ data: 'not json' } as MessageEvent);
    expect(messages).toEqual([{ type: 'task', task: queueTask() }]);
    expect(states).toEqual(['connecting', 'open']);
  });

  it('passes on only messages the contract describes, as it describes them', () => {
    const { client, messages } = setup();
    client.start();
    const socket = FakeWebSocket.latest();
    socket.serverAccept();
    const job = trainingJob();
    socket.serverSend({ type: 'training', job: { ...job, extra: 'dropped' } });
    socket.serverSend({ type: 'error', detail: 'Unknown message' });
    // A training job without its fields, a task of an unknown type, a message type from a newer
    // server, no type at all: none reaches the owner.
    socket.serverSend({ type: 'training', job: { id: job.id } });
    socket.serverSend({ type: 'task', task: { ...queueTask(), task_type: 'upscale' } });
    socket.serverSend({ type: 'generation', id: job.id });
    socket.serverSend([1, 2]);
    socket.serverSend(null);
    expect(messages).toEqual([
      { type: 'training', job },
      { type: 'error', detail: 'Unknown message' },
    ]);
    expect(client.getState()).toBe('open');
  });

  it('pings while open', () => {
    const { client } = setup({ pingIntervalMs: 1000 });
    client.start();
    const socket = FakeWebSocket.latest();
    socket.serverAccept();
    vi.advanceTimersByTime(2000);
    expect(socket.sent.slice(1)).toEqual([{ type: 'ping' }, { type: 'ping' }]);
  });

  it('reconnects with backoff after a drop and resyncs on ready', () => {
    const { client, onReady } = setup();
    client.start();
    FakeWebSocket.latest().serverAccept();
    FakeWebSocket.latest().serverClose(1006);
    expect(client.getState()).toBe('reconnecting');
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    // Still down: the next wait doubles.
    FakeWebSocket.latest().serverClose(1006);
    vi.advanceTimersByTime(1999);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);
    FakeWebSocket.latest().serverAccept();
    expect(client.getState()).toBe('open');
    expect(onReady).toHaveBeenCalledTimes(2);
  });

  it('1012 (the API process is shutting down): reconnects, without renewing, and resyncs', () => {
    const { client, onReady, refreshToken } = setup();
    client.start();
    FakeWebSocket.latest().serverAccept();
    FakeWebSocket.latest().serverClose(WS_CLOSE_CODES.serverRestart);
    expect(client.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(1000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    FakeWebSocket.latest().serverAccept();
    expect(client.getState()).toBe('open');
    expect(onReady).toHaveBeenCalledTimes(2);
    expect(refreshToken).not.toHaveBeenCalled();
  });

  it('4401: renews the token through the API client and reconnects with the new one', async () => {
    const { client, refreshToken } = setup();
    client.start();
    FakeWebSocket.latest().serverOpen();
    FakeWebSocket.latest().serverClose(4401);
    expect(client.getState()).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    const second = FakeWebSocket.latest();
    expect(FakeWebSocket.instances).toHaveLength(2);
    second.serverOpen();
    expect(second.sent).toEqual([{ type: 'auth', token: 'token-2' }]);
  });

  it('4401 and the session cannot be renewed: stops', async () => {
    const { client, setToken } = setup({
      refreshToken: vi.fn(async () => {
        setToken(null);
        throw new Error('expired');
      }),
    });
    client.start();
    FakeWebSocket.latest().serverClose(4401);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.getState()).toBe('stopped');
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('4403 (bad origin): stops for good', () => {
    const { client } = setup();
    client.start();
    FakeWebSocket.latest().serverClose(4403);
    vi.advanceTimersByTime(120_000);
    expect(client.getState()).toBe('stopped');
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('no token: nothing to connect with', () => {
    const { client, setToken } = setup();
    setToken(null);
    client.start();
    expect(client.getState()).toBe('stopped');
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('stop closes the socket and cancels a pending retry', () => {
    const { client } = setup();
    client.start();
    const socket = FakeWebSocket.latest();
    socket.serverClose(1006);
    client.stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(client.getState()).toBe('idle');

    client.start();
    const next = FakeWebSocket.latest();
    next.serverAccept();
    client.stop();
    expect(next.readyState).toBe(FakeWebSocket.CLOSED);
    expect(client.getState()).toBe('idle');
  });

  it('retryNow skips the wait (the browser is back online)', () => {
    const { client } = setup();
    client.start();
    FakeWebSocket.latest().serverClose(1006);
    client.retryNow();
    expect(FakeWebSocket.instances).toHaveLength(2);
  });
});
