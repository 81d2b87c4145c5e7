import { useSyncExternalStore } from 'react';
import { api } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import { appStorage, STORAGE_KEYS } from '../../lib/storage';
import {
  createRealtimeClient,
  realtimeUrl,
  type RealtimeClient,
  type RealtimeState,
} from '../../lib/ws-client';
import { toTrainingJob } from './training-api';
import { applyJobUpdate, TRAINING_KEY } from './training-cache';

/**
 * The tab's one /ws connection for training events, held while a signed-in shell is mounted
 * (TrainingGlobal). Pushes update the cache at once; every (re)connect resyncs from the API.
 */

let state: RealtimeState = 'idle';
const listeners = new Set<() => void>();
let client: RealtimeClient | null = null;
let holders = 0;

function publish(next: RealtimeState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function getRealtimeState(): RealtimeState {
  return state;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRealtimeState(): RealtimeState {
  return useSyncExternalStore(subscribe, getRealtimeState, getRealtimeState);
}

function onMessage(message: Record<string, unknown>): void {
  if (message.type !== 'training') return;
  const job = toTrainingJob(message.job);
  if (job) applyJobUpdate(job);
}

const retryNow = () => client?.retryNow();

/** Opens the connection (shared by every holder); returns the release. */
export function holdTrainingRealtime(): () => void {
  holders += 1;
  if (!client) {
    client = createRealtimeClient({
      url: realtimeUrl(import.meta.env.VITE_API_BASE ?? '', window.location),
      getToken: () => appStorage.getItem(STORAGE_KEYS.accessToken),
      refreshToken: () => api.refreshSession(),
      onMessage,
      // Pushes made while we were away are lost: read the truth again.
      onReady: () => void queryClient.invalidateQueries({ queryKey: TRAINING_KEY }),
      onStateChange: publish,
    });
    window.addEventListener('online', retryNow);
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
    window.removeEventListener('online', retryNow);
    publish('idle');
  };
}
