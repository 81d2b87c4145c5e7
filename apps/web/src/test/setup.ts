import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { queryClient } from '../lib/query-client';
import { resetToasts } from '../lib/toast';

// jsdom does not implement scrolling; ScrollRestoration calls it on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

afterEach(() => {
  cleanup();
  queryClient.clear();
  resetToasts();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});
