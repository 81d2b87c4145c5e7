import { MESSAGES } from '@studioshot/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  CLIENT_ERROR_CODES,
  createApiClient,
  errorMessage,
  INVALID_RESPONSE_DETAIL,
} from './api-client';
import { createMemoryStorage, STORAGE_KEYS, type KeyValueStorage } from './storage';

interface Call {
  url: string;
  method: string;
  authorization: string | undefined;
  body: unknown;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** A fake server: valid access tokens are listed; refresh hands out `new-access`. */
function fakeServer(opts: { refreshStatus?: number; refreshDelayMs?: number } = {}) {
  const calls: Call[] = [];
  const validTokens = new Set<string>();
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    const call: Call = {
      url,
      method: init?.method ?? 'GET',
      authorization: headers.get('Authorization') ?? undefined,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    if (url.endsWith('/api/v1/auth/refresh')) {
      if (opts.refreshDelayMs) await new Promise((r) => setTimeout(r, opts.refreshDelayMs));
      if (opts.refreshStatus && opts.refreshStatus !== 200) {
        return json(opts.refreshStatus, { detail: 'Refresh token reused', code: 'unauthorized' });
      }
      validTokens.add('new-access');
      return json(200, {
        access_token: 'new-access',
        refresh_token: 'new-refresh',
        token_type: 'bearer',
        expires_in: 3600,
      });
    }
    if (url.endsWith('/api/v1/auth/login') || url.endsWith('/api/v1/auth/register')) {
      return json(401, { detail: MESSAGES.invalidCredentials, code: 'invalid_credentials' });
    }
    const token = call.authorization?.replace(/^Bearer /, '');
    if (!token || !validTokens.has(token)) {
      return json(401, { detail: MESSAGES.authRequired, code: 'unauthorized' });
    }
    return json(200, { url, token });
  });
  return { calls, fetchImpl, validTokens };
}

function signedInStorage(): KeyValueStorage {
  return createMemoryStorage({
    [STORAGE_KEYS.accessToken]: 'old-access',
    [STORAGE_KEYS.refreshToken]: 'old-refresh',
    [STORAGE_KEYS.user]: JSON.stringify({ id: 'u1', email: 'ada@example.com' }),
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('api client', () => {
  it('sends the stored access token as a bearer header', async () => {
    const server = fakeServer();
    server.validTokens.add('old-access');
    const client = createApiClient({ fetch: server.fetchImpl, storage: signedInStorage() });

    await expect(client.get('/api/v1/users/profile')).resolves.toMatchObject({
      token: 'old-access',
    });
    expect(server.calls[0]?.authorization).toBe('Bearer old-access');
  });

  it('refreshes once for many concurrent 401s and replays each with the new token', async () => {
    const server = fakeServer({ refreshDelayMs: 20 });
    const storage = signedInStorage();
    const onTokensRefreshed = vi.fn();
    const client = createApiClient({ fetch: server.fetchImpl, storage, onTokensRefreshed });

    const paths = ['/api/v1/a', '/api/v1/b', '/api/v1/c', '/api/v1/d', '/api/v1/e'];
    const answer = z.object({ token: z.string() });
    const results = await Promise.all(paths.map((p) => client.get(p, { schema: answer })));

    const refreshCalls = server.calls.filter((c) => c.url.endsWith('/auth/refresh'));
    expect(refreshCalls).toHaveLength(1);
    expect(refreshCalls[0]?.body).toEqual({ refresh_token: 'old-refresh' });
    expect(results.map((r) => r.token)).toEqual(paths.map(() => 'new-access'));
    for (const path of paths) {
      const attempts = server.calls.filter((c) => c.url.endsWith(path));
      expect(attempts.map((c) => c.authorization)).toEqual([
        'Bearer old-access',
        'Bearer new-access',
      ]);
    }
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBe('new-access');
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBe('new-refresh');
    expect(onTokensRefreshed).toHaveBeenCalledTimes(1);
  });

  it('replays without a second refresh when the session was renewed meanwhile', async () => {
    const server = fakeServer();
    const storage = signedInStorage();
    const client = createApiClient({ fetch: server.fetchImpl, storage });

    await client.get('/api/v1/first');
    // Simulate a request that was sent with the old token but answered after the refresh.
    await client.get('/api/v1/late', { token: 'old-access' });

    expect(server.calls.filter((c) => c.url.endsWith('/auth/refresh'))).toHaveLength(1);
    expect(server.calls.at(-1)?.authorization).toBe('Bearer new-access');
  });

  it('clears the session and redirects when the refresh is rejected', async () => {
    const server = fakeServer({ refreshStatus: 401 });
    const storage = signedInStorage();
    const onSessionExpired = vi.fn();
    const client = createApiClient({ fetch: server.fetchImpl, storage, onSessionExpired });

    const outcomes = await Promise.allSettled([
      client.get('/api/v1/a'),
      client.get('/api/v1/b'),
      client.get('/api/v1/c'),
    ]);

    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason as ApiError;
      expect(reason).toBeInstanceOf(ApiError);
      expect(reason.code).toBe(CLIENT_ERROR_CODES.sessionExpired);
    }
    expect(server.calls.filter((c) => c.url.endsWith('/auth/refresh'))).toHaveLength(1);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.user)).toBeNull();
  });

  it('clears the session and redirects without calling refresh when no refresh token is stored', async () => {
    const server = fakeServer();
    const storage = createMemoryStorage({
      [STORAGE_KEYS.accessToken]: 'old-access',
      [STORAGE_KEYS.user]: '{"email":"ada@example.com"}',
    });
    const onSessionExpired = vi.fn();
    const client = createApiClient({ fetch: server.fetchImpl, storage, onSessionExpired });

    await expect(client.get('/api/v1/a')).rejects.toMatchObject({
      code: CLIENT_ERROR_CODES.sessionExpired,
    });
    expect(server.calls.some((c) => c.url.endsWith('/auth/refresh'))).toBe(false);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.user)).toBeNull();
  });

  it.each(['/api/v1/auth/login', '/api/v1/auth/register'])(
    'never refreshes for a 401 from %s',
    async (path) => {
      const server = fakeServer();
      const storage = signedInStorage();
      const onSessionExpired = vi.fn();
      const client = createApiClient({ fetch: server.fetchImpl, storage, onSessionExpired });

      const error = await client.post(path, { email: 'a@b.co', password: 'x' }).catch((e) => e);

      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 401, code: 'invalid_credentials' });
      expect(errorMessage(error, MESSAGES.authFailed)).toBe(MESSAGES.invalidCredentials);
      expect(server.calls).toHaveLength(1);
      expect(onSessionExpired).not.toHaveBeenCalled();
      expect(storage.getItem(STORAGE_KEYS.accessToken)).toBe('old-access');
    },
  );

  it('retries a request at most once', async () => {
    // The refresh succeeds but the server keeps refusing the new token.
    const server = fakeServer();
    const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/auth/refresh')) return server.fetchImpl(input, init);
      server.calls.push({
        url: String(input),
        method: init?.method ?? 'GET',
        authorization: undefined,
        body: undefined,
      });
      return json(401, { detail: 'Nope', code: 'unauthorized' });
    });
    const client = createApiClient({ fetch: fetchImpl, storage: signedInStorage() });

    const error = await client.get('/api/v1/guarded').catch((e) => e);

    expect(error).toMatchObject({ status: 401, detail: 'Nope' });
    expect(server.calls.filter((c) => c.url.endsWith('/api/v1/guarded'))).toHaveLength(2);
    expect(server.calls.filter((c) => c.url.endsWith('/auth/refresh'))).toHaveLength(1);
  });

  it('reports a timeout with the connection message after 10 s', async () => {
    vi.useFakeTimers();
    const fetchImpl = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
        }),
    );
    const client = createApiClient({ fetch: fetchImpl, storage: signedInStorage() });

    const pending = client.get('/health').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(fetchImpl.mock.calls[0]?.[1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: CLIENT_ERROR_CODES.timeout });
    expect(errorMessage(error, 'fallback')).toBe(
      'Connection error. Please check your internet connection and try again.',
    );
  });

  it('reports a network failure with the connection message', async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const client = createApiClient({ fetch: fetchImpl, storage: signedInStorage() });

    const error = await client.get('/health').catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 0, code: CLIENT_ERROR_CODES.network });
    expect(errorMessage(error, 'fallback')).toBe(MESSAGES.network);
  });

  it('carries detail, code, status and body of error answers', async () => {
    const fetchImpl = vi.fn(async () =>
      json(429, { detail: 'Too many attempts. Try again in 60 seconds.', code: 'rate_limited' }),
    );
    const client = createApiClient({ fetch: fetchImpl, storage: createMemoryStorage() });

    const error = await client
      .post('/api/v1/auth/forgot-password', { email: 'a@b.co' })
      .catch((e) => e);

    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      detail: 'Too many attempts. Try again in 60 seconds.',
    });
    expect(errorMessage(error, MESSAGES.resetEmailFailed)).toBe(
      'Too many attempts. Try again in 60 seconds.',
    );
  });

  it('falls back to the given message when the error has no detail', async () => {
    const fetchImpl = vi.fn(async () => new Response('Bad gateway', { status: 502 }));
    const client = createApiClient({ fetch: fetchImpl, storage: createMemoryStorage() });

    const error = await client.get('/api/v1/users/profile').catch((e) => e);

    expect(error).toMatchObject({ status: 502, code: 'http_502', detail: undefined });
    expect(errorMessage(error, MESSAGES.profileLoadFailed)).toBe(MESSAGES.profileLoadFailed);
  });

  it('prefixes the configured base and sends JSON bodies', async () => {
    const fetchImpl = vi.fn(async () => json(200, { ok: true }));
    const client = createApiClient({
      baseUrl: 'https://api.example.test/',
      fetch: fetchImpl,
      storage: createMemoryStorage(),
    });

    await client.post('/api/v1/auth/forgot-password', { email: 'a@b.co' });

    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://api.example.test/api/v1/auth/forgot-password');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(new Headers(init.headers).get('Authorization')).toBeNull();
    expect(init.body).toBe('{"email":"a@b.co"}');
  });

  it('parses an answer with the contract schema it names, and resolves to what that gives', async () => {
    const fetchImpl = vi.fn(async () => json(200, { jobs: [{ id: 'a' }], extra: true }));
    const client = createApiClient({ fetch: fetchImpl, storage: createMemoryStorage() });
    const schema = z.object({
      jobs: z.array(z.object({ id: z.string(), progress: z.number().default(0) })),
    });

    const jobs = await client.get('/api/v1/training/jobs', { schema });

    expect(jobs).toEqual({ jobs: [{ id: 'a', progress: 0 }] });
  });

  it('fails an answer that does not match its contract as an invalid response', async () => {
    const fetchImpl = vi.fn(async () => json(200, { jobs: 'none' }));
    const client = createApiClient({ fetch: fetchImpl, storage: createMemoryStorage() });
    const schema = z.object({ jobs: z.array(z.unknown()) });

    const named = await client
      .get('/api/v1/training/jobs', { schema, invalid: MESSAGES.trainingStatusFailed })
      .catch((e) => e);
    const unnamed = await client.post('/api/v1/x', {}, { schema }).catch((e) => e);

    expect(named).toBeInstanceOf(ApiError);
    expect(named).toMatchObject({
      status: 0,
      code: CLIENT_ERROR_CODES.invalidResponse,
      detail: MESSAGES.trainingStatusFailed,
      body: { jobs: 'none' },
    });
    expect(unnamed).toMatchObject({
      code: CLIENT_ERROR_CODES.invalidResponse,
      detail: INVALID_RESPONSE_DETAIL,
    });
  });
});
