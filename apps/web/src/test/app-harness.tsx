import type { User } from '@studioshot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { AppRouter } from '../app/AppRouter';
import { routes } from '../app/router';
import { endExpiredSession, setSessionNavigator } from '../features/auth/session-actions';
import { restoreSession } from '../features/auth/session-store';
import { setSessionExpiredHandler } from '../lib/api';
import { queryClient } from '../lib/query-client';
import { STORAGE_KEYS } from '../lib/storage';

export const TEST_USER: User = {
  id: '5f0c6a9e-2d0b-4b7a-9d3e-1f2a3b4c5d6e',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  full_name: 'Ada Lovelace',
  first_name: 'Ada',
  plan_type: 'free',
  subscription_interval: null,
  training_limit: 0,
  models_trained: 0,
  credits_balance: 0,
  total_generations: 0,
  gender: null,
  age: null,
  is_debug: false,
  created_at: '2026-11-22T12:00:00.000Z',
};

export function authAnswer(user: Partial<User> = {}) {
  return {
    access_token: 'access-1',
    refresh_token: 'refresh-1',
    token_type: 'bearer',
    expires_in: 3600,
    user: { ...TEST_USER, ...user },
  };
}

export function signIn(user: Partial<User> = {}): void {
  window.localStorage.setItem(STORAGE_KEYS.accessToken, 'stored-access');
  window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'stored-refresh');
  window.localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ ...TEST_USER, ...user }));
}

type Handler = (request: { body: unknown; headers: Headers }) => [number, unknown];

/** Stubs fetch with answers keyed by "METHOD /path"; anything else is a 404 like the real API. */
export function stubApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const handler = handlers[key];
    const [status, body] = handler
      ? handler({
          body: init?.body ? JSON.parse(String(init.body)) : undefined,
          headers: new Headers(init?.headers),
        })
      : [404, { detail: 'Not found', code: 'not_found' }];
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Renders the whole app at `entry`: a path, or a path with navigation state. */
export function renderApp(entry: string | { pathname: string; search?: string; state?: unknown }) {
  restoreSession();
  const router = createMemoryRouter(routes, { initialEntries: [entry] });
  setSessionNavigator((to) => void router.navigate(to));
  setSessionExpiredHandler(endExpiredSession);
  render(
    <QueryClientProvider client={queryClient}>
      <AppRouter router={router} />
    </QueryClientProvider>,
  );
  return router;
}
