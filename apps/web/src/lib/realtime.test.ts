import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trainingJob } from '../features/training/testing';
import { FakeWebSocket } from '../test/fake-websocket';
import { createRealtime, type Realtime } from './realtime';
import { queueTask } from './realtime-testing';
import type { RealtimeState } from './ws-client';

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
});
afterEach(() => vi.useRealTimers());

function setup(): { hub: Realtime; events: EventTarget; states: RealtimeState[] } {
  const events = new EventTarget();
  const hub = createRealtime({
    url: () => 'wss://app.example.com/ws',
    getToken: () => 'token-1',
    refreshToken: async () => undefined,
    createSocket: (url) => new FakeWebSocket(url),
    random: () => 1,
    events,
  });
  const states: RealtimeState[] = [];
  hub.subscribeState(() => states.push(hub.getState()));
  return { hub, events, states };
}

describe('the shared realtime channel', () => {
  it('one socket for every holder; the last release closes it', () => {
    const { hub, states } = setup();
    const releaseShell = hub.hold();
    const releasePage = hub.hold();
    expect(FakeWebSocket.instances).toHaveLength(1);
    const socket = FakeWebSocket.latest();
    socket.serverAccept();
    expect(hub.getState()).toBe('open');

    releaseShell();
    releaseShell();
    expect(socket.readyState).toBe(FakeWebSocket.OPEN);
    releasePage();
    expect(socket.readyState).toBe(FakeWebSocket.CLOSED);
    expect(hub.getState()).toBe('idle');
    expect(states).toEqual(['connecting', 'open', 'idle']);

    hub.hold();
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('dispatches each push by its type, parsed, to that type’s subscribers only', () => {
    const { hub } = setup();
    const tasks = vi.fn();
    const jobs = vi.fn();
    const errors = vi.fn();
    hub.onTask(tasks);
    const offTraining = hub.onTraining(jobs);
    hub.on('error', errors);
    hub.hold();
    const socket = FakeWebSocket.latest();
    socket.serverAccept();

    const task = queueTask();
    const job = trainingJob();
    socket.serverSend({ type: 'task', task });
    socket.serverSend({ type: 'training', job });
    socket.serverSend({ type: 'error', detail: 'Unknown message' });
    socket.serverSend({ type: 'task', task: { id: task.id } });
    expect(tasks.mock.calls).toEqual([[task]]);
    expect(jobs.mock.calls).toEqual([[job]]);
    expect(errors.mock.calls).toEqual([[{ type: 'error', detail: 'Unknown message' }]]);

    offTraining();
    socket.serverSend({ type: 'training', job });
    expect(jobs).toHaveBeenCalledTimes(1);
  });

  it('a failing subscriber does not keep a push from the others', () => {
    const { hub } = setup();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const second = vi.fn();
    hub.onTask(() => {
      throw new Error('boom');
    });
    hub.onTask(second);
    hub.hold();
    FakeWebSocket.latest().serverAccept();
    FakeWebSocket.latest().serverSend({ type: 'task', task: queueTask() });
    expect(second).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalled();
  });

  it('tells subscribers after every (re)connect, so they resync', () => {
    const { hub } = setup();
    const ready = vi.fn();
    hub.onReady(ready);
    hub.hold();
    FakeWebSocket.latest().serverAccept();
    expect(ready).toHaveBeenCalledTimes(1);
    FakeWebSocket.latest().serverClose(1006);
    expect(hub.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(1000);
    FakeWebSocket.latest().serverAccept();
    expect(ready).toHaveBeenCalledTimes(2);
  });

  it('back online: reconnects at once, while held', () => {
    const { hub, events } = setup();
    const release = hub.hold();
    FakeWebSocket.latest().serverClose(1006);
    events.dispatchEvent(new Event('online'));
    expect(FakeWebSocket.instances).toHaveLength(2);
    release();
    events.dispatchEvent(new Event('online'));
    expect(FakeWebSocket.instances).toHaveLength(2);
  });
});
