import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../lib/storage';
import { renderApp, signIn, stubApi, TEST_USER } from '../test/app-harness';

describe('protected routes', () => {
  it('remember the path and query, then send signed-out visitors to /auth', async () => {
    stubApi({});
    const router = renderApp('/credits?pack=starter');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem(STORAGE_KEYS.authRedirect)).toBe('/credits?pack=starter');
  });

  it('show the page itself when signed in', async () => {
    signIn();
    stubApi({});
    renderApp('/credits');
    expect(await screen.findByRole('heading', { name: 'Buy Credits' })).toBeTruthy();
  });

  it('/login keeps the query and redirects to /auth', async () => {
    stubApi({});
    const router = renderApp('/login?redirect=/upload');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.location.search).toBe('?redirect=/upload');
  });

  it('unknown routes get a 404 page', async () => {
    stubApi({});
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});

describe('/dashboard', () => {
  it('welcomes the user and logs out to / (server told, storage cleared)', async () => {
    signIn({ name: '', full_name: 'Ada King' });
    let logoutAuthorization: string | null = null;
    let logoutBody: unknown;
    stubApi({
      'GET /api/v1/users/profile': () => [200, { ...TEST_USER, name: '', full_name: 'Ada King' }],
      'POST /api/v1/auth/logout': ({ headers, body }) => {
        logoutAuthorization = headers.get('Authorization');
        logoutBody = body;
        return [200, { message: 'Signed out' }];
      },
    });
    const router = renderApp('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Welcome, Ada King' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await waitFor(() => expect(logoutAuthorization).toBe('Bearer stored-access'));
    // The refresh token goes too: the server ends the sign-in even if the access token expired.
    expect(logoutBody).toEqual({ refresh_token: 'stored-refresh' });
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.authRedirect)).toBeNull();
    expect(await screen.findByRole('button', { name: 'Start Creating' })).toBeTruthy();
  });
});
