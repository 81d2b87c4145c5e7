import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../test/fake-websocket';
import { signIn, stubApi } from '../test/app-harness';
import { queryClient } from './query-client';
import { realtime } from './realtime';
import { useTaskUpdates } from './realtime-tasks';
import { queueTask, TASK_ID } from './realtime-testing';
import type { QueueTask } from '@studioshot/contracts';

const STATUS_URL = `/api/v1/queue/status/${TASK_ID}`;
const releases: (() => void)[] = [];

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => {
  for (const release of releases.splice(0)) release();
  vi.useRealTimers();
});

function Probe({ id }: { id: string }) {
  const { task, error, live } = useTaskUpdates(id);
  const shown = task ? `${task.status} ${task.progress}` : error ? 'error' : 'loading';
  return <p data-testid="task">{`${shown} (${live ? 'live' : 'polling'})`}</p>;
}

/** The page as a generation page would use it; `answer` is what the status call says now. */
function follow(answer: () => [number, unknown]) {
  signIn();
  const fetchMock = stubApi({ [`GET ${STATUS_URL}`]: answer });
  render(
    <QueryClientProvider client={queryClient}>
      <Probe id={TASK_ID} />
    </QueryClientProvider>,
  );
  const reads = () => fetchMock.mock.calls.filter(([url]) => String(url) === STATUS_URL).length;
  return { reads };
}

const shown = () => screen.getByTestId('task').textContent;

/** The signed-in shell holding the tab's socket, accepted by the server. */
function connect(): FakeWebSocket {
  releases.push(realtime.hold());
  const socket = FakeWebSocket.latest();
  act(() => socket.serverAccept());
  return socket;
}

describe('useTaskUpdates', () => {
  it('socket down: polls the task every 5 s until it ends, then stops', async () => {
    let task: QueueTask = queueTask({ status: 'queued', progress: 0, position: 2 });
    const { reads } = follow(() => [200, task]);
    expect(await screen.findByText('queued 0 (polling)')).toBeTruthy();
    expect(reads()).toBe(1);

    task = queueTask({ progress: 55 });
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(await screen.findByText('running 55 (polling)')).toBeTruthy();
    expect(reads()).toBe(2);

    task = queueTask({ status: 'completed', progress: 100 });
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(await screen.findByText('completed 100 (polling)')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(reads()).toBe(3);
  });

  it('socket up: each push shows at once and the poll rests; a drop polls, a reconnect rereads', async () => {
    let task: QueueTask = queueTask({ progress: 10 });
    const { reads } = follow(() => [200, task]);
    const socket = connect();
    expect(await screen.findByText('running 10 (live)')).toBeTruthy();
    const before = reads();

    act(() => socket.serverSend({ type: 'task', task: queueTask({ progress: 35 }) }));
    expect(await screen.findByText('running 35 (live)')).toBeTruthy();
    // Another task's push, and a malformed one: nothing changes.
    act(() => socket.serverSend({ type: 'task', task: queueTask({ id: crypto.randomUUID() }) }));
    act(() => socket.serverSend({ type: 'task', task: { id: TASK_ID, progress: 99 } }));
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(shown()).toBe('running 35 (live)');
    expect(reads()).toBe(before);

    // Down: the poll takes over.
    task = queueTask({ progress: 60 });
    act(() => socket.serverClose(1006));
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(await screen.findByText('running 60 (polling)')).toBeTruthy();
    expect(reads()).toBeGreaterThan(before);

    // Back: pushes made while away are lost, so the task is read again.
    task = queueTask({ progress: 80 });
    const beforeReconnect = reads();
    const next = FakeWebSocket.latest();
    act(() => next.serverAccept());
    expect(await screen.findByText('running 80 (live)')).toBeTruthy();
    expect(reads()).toBe(beforeReconnect + 1);
    act(() =>
      next.serverSend({ type: 'task', task: queueTask({ status: 'completed', progress: 100 }) }),
    );
    expect(await screen.findByText('completed 100 (live)')).toBeTruthy();
  });

  it('a task that is not the user’s: an error, and no more polling', async () => {
    const { reads } = follow(() => [404, { detail: 'Task not found', code: 'not_found' }]);
    expect(await screen.findByText('error (polling)')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(reads()).toBe(1);
  });
});
