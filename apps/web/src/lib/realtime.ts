import type { QueueTask, TrainingJob } from '@studioshot/contracts';
import { useEffect, useSyncExternalStore } from 'react';
import { api } from './api';
import { appStorage, STORAGE_KEYS } from './storage';
import {
  createRealtimeClient,
  realtimeUrl,
  type PushMessage,
  type RealtimeClient,
  type RealtimeOptions,
  type RealtimeState,
} from './ws-client';

export type { RealtimeState };
export type PushType = PushMessage['type'];
export type PushOf<T extends PushType> = Extract<PushMessage, { type: T }>;

/**
 * The tab's realtime channel (/ws), shared by every feature: one socket while anyone holds it
 * (the signed-in shell does, for as long as it is mounted), typed pushes dispatched by message
 * type. Pushes made while the socket was down are lost: subscribers resync on `onReady`, which
 * runs after every (re)connect.
 */
export interface Realtime {
  /** Opens the connection (shared by every holder); returns the release. The last one closes it. */
  hold(): () => void;
  /** Runs `handler` on every push of this type; returns the unsubscribe. */
  on<T extends PushType>(type: T, handler: (message: PushOf<T>) => void): () => void;
  /** Every change of any of the user's tasks, any type. */
  onTask(handler: (task: QueueTask) => void): () => void;
  /** Every change of the user's trainings, as training jobs. */
  onTraining(handler: (job: TrainingJob) => void): () => void;
  /** After every (re)connect: read the truth again. */
  onReady(handler: () => void): () => void;
  getState(): RealtimeState;
  subscribeState(listener: () => void): () => void;
}

export interface RealtimeSetup extends Omit<
  RealtimeOptions,
  'url' | 'onMessage' | 'onReady' | 'onStateChange'
> {
  /** Read when the connection opens. */
  url: () => string;
  /** Where the browser's `online` event comes from: back online, retry at once. */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

/** One subscriber's failure must not keep a push from the others. */
function runEach<A extends unknown[]>(handlers: Iterable<(...args: A) => void>, ...args: A): void {
  for (const handler of [...handlers]) {
    try {
      handler(...args);
    } catch (error) {
      console.error('realtime subscriber failed', error);
    }
  }
}

export function createRealtime(setup: RealtimeSetup): Realtime {
  const { url, events, ...socketOptions } = setup;
  const handlers = new Map<PushType, Set<(message: PushMessage) => void>>();
  const readyHandlers = new Set<() => void>();
  const stateListeners = new Set<() => void>();
  let state: RealtimeState = 'idle';
  let client: RealtimeClient | null = null;
  let holders = 0;

  function publish(next: RealtimeState): void {
    if (state === next) return;
    state = next;
    runEach(stateListeners);
  }

  const retryNow = () => client?.retryNow();

  function on<T extends PushType>(type: T, handler: (message: PushOf<T>) => void): () => void {
    let set = handlers.get(type);
    if (!set) {
      set = new Set();
      handlers.set(type, set);
    }
    const entry = handler as (message: PushMessage) => void;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  return {
    hold() {
      holders += 1;
      if (!client) {
        client = createRealtimeClient({
          ...socketOptions,
          url: url(),
          onMessage: (message) => runEach(handlers.get(message.type) ?? [], message),
          onReady: () => runEach(readyHandlers),
          onStateChange: publish,
        });
        events?.addEventListener('online', retryNow);
      }
      client.start();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holders -= 1;
        if (holders > 0 || !client) return;
        client.stop();
        client = null;
        events?.removeEventListener('online', retryNow);
        publish('idle');
      };
    },
    on,
    onTask: (handler) => on('task', (message) => handler(message.task)),
    onTraining: (handler) => on('training', (message) => handler(message.job)),
    onReady(handler) {
      readyHandlers.add(handler);
      return () => {
        readyHandlers.delete(handler);
      };
    },
    getState: () => state,
    subscribeState(listener) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
  };
}

/** The app's one realtime channel. */
export const realtime: Realtime = createRealtime({
  url: () => realtimeUrl(import.meta.env.VITE_API_BASE ?? '', window.location),
  getToken: () => appStorage.getItem(STORAGE_KEYS.accessToken),
  refreshToken: () => api.refreshSession(),
  events: typeof window === 'undefined' ? undefined : window,
});

export function useRealtimeState(): RealtimeState {
  return useSyncExternalStore(realtime.subscribeState, realtime.getState, realtime.getState);
}

/** Holds the channel while the calling component is mounted (the signed-in shell). */
export function useRealtimeConnection(): void {
  useEffect(() => realtime.hold(), []);
}
