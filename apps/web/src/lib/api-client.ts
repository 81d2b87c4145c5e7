import { SESSION_MESSAGES } from '@studioshot/contracts/session-messages';
import { STORAGE_KEYS, type KeyValueStorage } from './storage';
import { isRecord } from './is-record';

/** Default request timeout (api spec, section 9). */
export const API_TIMEOUT_MS = 10_000;

/** Calls whose 401 means "wrong credentials", never "expired session". */
const NO_REFRESH_PATHS = new Set([
  '/api/v1/auth/login',
  '/api/v1/auth/register',
  '/api/v1/auth/refresh',
]);

export type ApiErrorCode = string;

/** Any failed call: HTTP errors carry the server's `{detail, code}`; status 0 means no answer. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly detail: string | undefined;
  /** The parsed response body, when there was one. */
  readonly body: unknown;

  constructor(init: { status: number; code: ApiErrorCode; detail?: string; body?: unknown }) {
    super(init.detail ?? `Request failed (${init.code})`);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.body = init.body;
  }
}

/** Codes the client itself assigns (the server's codes come from packages/contracts). */
export const CLIENT_ERROR_CODES = {
  network: 'network_error',
  timeout: 'timeout',
  sessionExpired: 'session_expired',
  invalidResponse: 'invalid_response',
} as const;

/** What to show the user: the server's detail when present, else the spec's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.detail) return error.detail;
  return fallback;
}

export function isSessionExpired(error: unknown): boolean {
  return error instanceof ApiError && error.code === CLIENT_ERROR_CODES.sessionExpired;
}

/**
 * A contract schema (packages/contracts), as far as the client needs one: structural, so this
 * module never imports zod and the landing page's bundle stays small.
 */
export interface ResponseSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** The answer's contract: a successful answer is parsed with it, and is what the call resolves to. */
export interface Parsed<T> {
  schema: ResponseSchema<T>;
  /** The detail of the error when the answer does not match (the call's own failure message). */
  invalid?: string;
}

/** What a call whose answer does not match its contract fails with, unless it says otherwise. */
export const INVALID_RESPONSE_DETAIL = 'The server sent an answer this page cannot read.';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Send no bearer token. */
  anonymous?: boolean;
  /** Use this token instead of the stored one (logout sends it after the local session is gone). */
  token?: string;
  /** Never answer a 401 with a refresh. */
  skipAuthRefresh?: boolean;
  timeoutMs?: number;
  /**
   * Sent as the Idempotency-Key header: a retry of the same create call with the same key is
   * answered with what the first one made, never a second.
   */
  idempotencyKey?: string;
}

export interface ApiClientOptions {
  /** Origin prefix; '' for same-origin relative URLs. */
  baseUrl?: string;
  fetch?: typeof fetch;
  storage: KeyValueStorage;
  timeoutMs?: number;
  /** Called once the stored session was cleared because it could not be renewed. */
  onSessionExpired?: () => void;
  /** Called after new tokens were stored. */
  onTokensRefreshed?: (accessToken: string) => void;
}

type CallOptions = Omit<RequestOptions, 'method' | 'body'>;

/**
 * Each call resolves to its answer parsed with the contract schema it names (`{schema}`), or,
 * without one, to the answer as it came (`unknown`).
 */
export interface ApiClient {
  request<T>(path: string, options: RequestOptions & Parsed<T>): Promise<T>;
  request(path: string, options?: RequestOptions): Promise<unknown>;
  get<T>(path: string, options: CallOptions & Parsed<T>): Promise<T>;
  get(path: string, options?: CallOptions): Promise<unknown>;
  post<T>(path: string, body: unknown, options: CallOptions & Parsed<T>): Promise<T>;
  post(path: string, body?: unknown, options?: CallOptions): Promise<unknown>;
  patch<T>(path: string, body: unknown, options: CallOptions & Parsed<T>): Promise<T>;
  patch(path: string, body?: unknown, options?: CallOptions): Promise<unknown>;
  delete<T>(path: string, options: CallOptions & Parsed<T>): Promise<T>;
  delete(path: string, options?: CallOptions): Promise<unknown>;
  /** Renews the token pair, sharing a refresh already in flight. Resolves to the new access token. */
  refreshSession(): Promise<string>;
}

interface Exchange {
  status: number;
  ok: boolean;
  body: unknown;
}

function toApiError(exchange: Exchange): ApiError {
  const body = isRecord(exchange.body) ? exchange.body : {};
  return new ApiError({
    status: exchange.status,
    code: typeof body.code === 'string' ? body.code : `http_${exchange.status}`,
    detail: typeof body.detail === 'string' && body.detail.trim() ? body.detail : undefined,
    body: exchange.body,
  });
}

function sessionExpiredError(detail: string = SESSION_MESSAGES.invalidRefreshToken): ApiError {
  return new ApiError({ status: 401, code: CLIENT_ERROR_CODES.sessionExpired, detail });
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const storage = options.storage;
  const defaultTimeout = options.timeoutMs ?? API_TIMEOUT_MS;
  let refreshInFlight: Promise<string> | null = null;

  /** One HTTP round trip, body included, bounded by the timeout. */
  async function exchange(
    path: string,
    init: {
      method: string;
      body?: unknown;
      token: string | null;
      signal?: AbortSignal;
      idempotencyKey?: string;
    },
    timeoutMs: number,
  ): Promise<Exchange> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forwardAbort = () => controller.abort(init.signal?.reason);
    init.signal?.addEventListener('abort', forwardAbort, { once: true });

    const headers: Record<string, string> = { Accept: 'application/json' };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    if (init.idempotencyKey) headers['Idempotency-Key'] = init.idempotencyKey;
    let body: string | undefined;
    if (init.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.body);
    }

    try {
      const response = await fetchImpl(`${baseUrl}${path}`, {
        method: init.method,
        headers,
        body,
        signal: controller.signal,
        credentials: 'same-origin',
      });
      const text = await response.text();
      let parsed: unknown = undefined;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      return { status: response.status, ok: response.ok, body: parsed };
    } catch (error) {
      // The caller cancelled (e.g. a query was abandoned): surface that, not a network error.
      if (init.signal?.aborted && !timedOut) throw error;
      throw new ApiError({
        status: 0,
        code: timedOut ? CLIENT_ERROR_CODES.timeout : CLIENT_ERROR_CODES.network,
        detail: SESSION_MESSAGES.network,
      });
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', forwardAbort);
    }
  }

  function expireSession(): void {
    storage.removeItem(STORAGE_KEYS.accessToken);
    storage.removeItem(STORAGE_KEYS.refreshToken);
    storage.removeItem(STORAGE_KEYS.user);
    options.onSessionExpired?.();
  }

  async function runRefresh(): Promise<string> {
    const refreshToken = storage.getItem(STORAGE_KEYS.refreshToken);
    if (!refreshToken) {
      expireSession();
      throw sessionExpiredError(SESSION_MESSAGES.authRequired);
    }
    // A network failure or timeout propagates without ending the session: the user may retry.
    const answer = await exchange(
      '/api/v1/auth/refresh',
      { method: 'POST', body: { refresh_token: refreshToken }, token: null },
      defaultTimeout,
    );
    // Rate limiting and server faults say nothing about the refresh token; keep the session.
    if (answer.status === 429 || answer.status >= 500) throw toApiError(answer);
    const body = isRecord(answer.body) ? answer.body : {};
    if (
      !answer.ok ||
      typeof body.access_token !== 'string' ||
      !body.access_token ||
      typeof body.refresh_token !== 'string' ||
      !body.refresh_token
    ) {
      expireSession();
      throw sessionExpiredError();
    }
    storage.setItem(STORAGE_KEYS.accessToken, body.access_token);
    storage.setItem(STORAGE_KEYS.refreshToken, body.refresh_token);
    options.onTokensRefreshed?.(body.access_token);
    return body.access_token;
  }

  function refreshSession(): Promise<string> {
    refreshInFlight ??= runRefresh().finally(() => {
      refreshInFlight = null;
    });
    return refreshInFlight;
  }

  /** The token to replay with after a 401 that was answered to `usedToken`. */
  function tokenAfterUnauthorized(usedToken: string | null): Promise<string> {
    if (refreshInFlight) return refreshInFlight;
    // Another request already renewed the session since this one was sent.
    const current = storage.getItem(STORAGE_KEYS.accessToken);
    if (current && usedToken && current !== usedToken) return Promise.resolve(current);
    return refreshSession();
  }

  async function request(
    path: string,
    requestOptions: RequestOptions & Partial<Parsed<unknown>> = {},
  ): Promise<unknown> {
    const method = requestOptions.method ?? 'GET';
    const timeoutMs = requestOptions.timeoutMs ?? defaultTimeout;
    const send = (token: string | null) =>
      exchange(
        path,
        {
          method,
          body: requestOptions.body,
          token,
          signal: requestOptions.signal,
          idempotencyKey: requestOptions.idempotencyKey,
        },
        timeoutMs,
      );

    const firstToken = requestOptions.anonymous
      ? null
      : (requestOptions.token ?? storage.getItem(STORAGE_KEYS.accessToken));
    let answer = await send(firstToken);

    const mayRefresh =
      answer.status === 401 &&
      !requestOptions.anonymous &&
      !requestOptions.skipAuthRefresh &&
      !NO_REFRESH_PATHS.has(path);
    if (mayRefresh) {
      const renewed = await tokenAfterUnauthorized(firstToken);
      // Replayed once; a second 401 is reported as is.
      answer = await send(renewed);
    }
    if (!answer.ok) throw toApiError(answer);
    const { schema } = requestOptions;
    if (!schema) return answer.body;
    const parsed = schema.safeParse(answer.body);
    if (parsed.success) return parsed.data;
    throw new ApiError({
      status: 0,
      code: CLIENT_ERROR_CODES.invalidResponse,
      detail: requestOptions.invalid ?? INVALID_RESPONSE_DETAIL,
      body: answer.body,
    });
  }

  type Options = CallOptions & Partial<Parsed<unknown>>;
  return {
    request,
    get: (path: string, opts?: Options) => request(path, { ...opts, method: 'GET' }),
    post: (path: string, body?: unknown, opts?: Options) =>
      request(path, { ...opts, method: 'POST', body }),
    patch: (path: string, body?: unknown, opts?: Options) =>
      request(path, { ...opts, method: 'PATCH', body }),
    delete: (path: string, opts?: Options) => request(path, { ...opts, method: 'DELETE' }),
    refreshSession,
  } as ApiClient;
}
