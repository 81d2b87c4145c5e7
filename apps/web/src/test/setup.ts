import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetTrainingTracker } from '../features/training/tracker';
import { queryClient } from '../lib/query-client';
import { resetToasts } from '../lib/toast';
import { FakeWebSocket } from './fake-websocket';

// Lazy route modules are transformed on first use; on a busy 2-core machine that can take
// seconds. These are upper bounds on waits for a state, never delays: a passing wait ends early.
configure({ asyncUtilTimeout: 15_000 });

// jsdom does not implement scrolling; ScrollRestoration calls it on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

beforeEach(() => {
  // The signed-in shell opens /ws: never a real socket in tests.
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(() => {
  cleanup();
  queryClient.clear();
  resetToasts();
  resetTrainingTracker();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.unstubAllGlobals();
});
