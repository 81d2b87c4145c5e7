import {
  FINAL_TASK_STATUSES,
  ZQueueTaskSchema,
  type QueueTask,
} from '@studioshot/contracts/training';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from './api';
import { isClientError, queryClient } from './query-client';
import { realtime, useRealtimeState } from './realtime';

/** The spec's queue task polling: every 5 s until a final status. */
export const TASK_POLL_MS = 5_000;

/** One queue task, by id (GET /api/v1/queue/status/{id}). */
export const queueTaskKey = (id: string) => ['queue', 'task', id] as const;

export function isFinalTaskStatus(status: QueueTask['status']): boolean {
  return FINAL_TASK_STATUSES.includes(status);
}

export function fetchQueueTask(id: string, signal?: AbortSignal): Promise<QueueTask> {
  return api.get(`/api/v1/queue/status/${encodeURIComponent(id)}`, {
    signal,
    schema: ZQueueTaskSchema,
  });
}

export interface TaskUpdates {
  /** The latest state of the task: from /ws while it is up, else from the 5 s poll. */
  task: QueueTask | undefined;
  /** The last read's failure (a 404: no such task of this user; polling stops). */
  error: unknown;
  /** Nothing read yet. */
  isPending: boolean;
  /** Pushes are arriving (the socket is up), so the poll rests. */
  live: boolean;
}

/**
 * Follows one queue task of any type (a generation, a batch, a training): read once, then kept
 * current by the tab's /ws `task` pushes; while the socket is down, polled every 5 s until the
 * task ends. Every reconnect reads it again (pushes made meanwhile are lost). The socket itself
 * is held by the signed-in shell; this only listens.
 */
export function useTaskUpdates(taskId: string | null | undefined): TaskUpdates {
  const live = useRealtimeState() === 'open';
  const id = taskId ?? '';
  const query = useQuery({
    queryKey: queueTaskKey(id),
    queryFn: ({ signal }) => fetchQueueTask(id, signal),
    enabled: Boolean(taskId),
    staleTime: 0,
    refetchInterval: (q) => {
      if (live || isClientError(q.state.error)) return false;
      const task = q.state.data;
      return task && isFinalTaskStatus(task.status) ? false : TASK_POLL_MS;
    },
  });

  useEffect(() => {
    if (!taskId) return;
    const key = queueTaskKey(taskId);
    const unsubscribe = [
      realtime.onTask((task) => {
        if (task.id !== taskId) return;
        // A read already on its way (a poll, the resync after a reconnect) may be older than
        // this push: drop it; the push is the newest state.
        void queryClient.cancelQueries({ queryKey: key, exact: true });
        queryClient.setQueryData(key, task);
      }),
      realtime.onReady(() => void queryClient.invalidateQueries({ queryKey: key, exact: true })),
    ];
    return () => {
      for (const off of unsubscribe) off();
    };
  }, [taskId]);

  return { task: query.data, error: query.error, isPending: query.isPending, live };
}
