import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSessionExpiredHandler } from '../../lib/api';
import { STORAGE_KEYS } from '../../lib/storage';
import { signIn, stubApi } from '../../test/app-harness';
import { endExpiredSession, setSessionNavigator } from './session-actions';
import { getSession, restoreSession } from './session-store';
import { SessionExpiryNotice } from './SessionExpiryNotice';

const NOW = new Date('2026-11-22T12:00:00Z').getTime();

function tokenExpiringIn(seconds: number): string {
  const payload = btoa(JSON.stringify({ sub: 'u', exp: Math.floor(NOW / 1000) + seconds }));
  return `h.${payload.replace(/=+$/, '')}.s`;
}

const navigate = vi.fn();

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['setTimeout', 'setInterval', 'Date'] });
  navigate.mockReset();
  setSessionNavigator(navigate);
  setSessionExpiredHandler(endExpiredSession);
  signIn();
});
afterEach(() => {
  vi.useRealTimers();
});

function start(secondsLeft: number) {
  window.localStorage.setItem(STORAGE_KEYS.accessToken, tokenExpiringIn(secondsLeft));
  restoreSession();
  render(<SessionExpiryNotice />);
}

describe('session expiry widget', () => {
  it('stays quiet with more than 5 minutes left, then warns', async () => {
    stubApi({});
    start(5 * 60 + 20);
    expect(screen.queryByText('Your session is about to expire')).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(screen.getByText('Your session is about to expire')).toBeTruthy();
    expect(screen.getByText(/about 5 minutes/)).toBeTruthy();
  });

  it('renews the session automatically with 2 minutes or less left', async () => {
    const fetchMock = stubApi({
      'POST /api/v1/auth/refresh': () => [
        200,
        {
          access_token: tokenExpiringIn(3600),
          refresh_token: 'refresh-2',
          token_type: 'bearer',
          expires_in: 3600,
        },
      ],
    });
    start(110);
    await act(() => vi.advanceTimersByTimeAsync(0));

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-2');
    expect(getSession().status).toBe('authenticated');
    expect(screen.queryByText('Your session is about to expire')).toBeNull();
  });

  it('logs out when the renewal fails', async () => {
    stubApi({ 'POST /api/v1/auth/refresh': () => [401, { detail: 'Reused', code: 'x' }] });
    start(60);
    await act(() => vi.advanceTimersByTimeAsync(0));

    expect(getSession().status).toBe('unauthenticated');
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/auth');
  });

  it('logs out once the token has expired', async () => {
    const fetchMock = stubApi({});
    start(-5);
    await act(() => vi.advanceTimersByTimeAsync(0));

    expect(fetchMock).not.toHaveBeenCalled();
    expect(getSession().status).toBe('unauthenticated');
    expect(navigate).toHaveBeenCalledWith('/auth');
  });
});
