import { MESSAGES } from '@studioshot/contracts';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_BY_WAITING_RETRY_AFTER_S, TRAINING_RETRY_AFTER_S } from '../../src/errors.js';
import { creditUser, trainedModel } from '../generation-helpers.js';
import { bearer, createTestApp, registerUser, type TestApp } from '../helpers.js';
import { completedSession, trainingUser } from '../training-helpers.js';
import { readSpecCalls } from './calls.js';

/**
 * Every 409 and 429 a client of the contract can meet carries Retry-After (the README's rule): a
 * limit says when its window frees, a conflict that waiting resolves its expected wait, and one
 * that waiting does not resolve a day. Each case sends a contract call as the contract writes it
 * and provokes one of them.
 */

const LOGIN_WINDOW_SECONDS = 600;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    LOGIN_MAX_PER_ACCOUNT_ADDRESS: '2',
    LOGIN_WINDOW_SECONDS: String(LOGIN_WINDOW_SECONDS),
    // upload/complete answers at once instead of waiting for checks no worker runs here.
    UPLOAD_CHECKS_WAIT_MS: '0',
    GENERATION_WAIT_MS: '0',
  });
});
afterAll(() => t?.close());

const CALLS = new Map(readSpecCalls().map((call) => [call.id, call]));

/** The contract's method and path of a call, with its path parameters filled in. */
function callOf(id: string, params: Record<string, string> = {}) {
  const call = CALLS.get(id);
  if (!call) throw new Error(`no call ${id} in the contract table`);
  const path = call.path
    .replace(/\?.*$/, '')
    .replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const method = call.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
  return t.request[method](path).timeout(call.timeoutMs);
}

const photo = () =>
  sharp({ create: { width: 640, height: 640, channels: 3, background: { r: 90, g: 120, b: 160 } } })
    .jpeg()
    .toBuffer();

interface Provoked {
  res: Response;
  status: 409 | 429;
  /** The Retry-After expected, or the range it must fall in. */
  retryAfter: number | { min: number; max: number };
}

const CASES: Record<string, () => Promise<Provoked>> = {
  'auth.register: an address already registered (409, not by waiting)': async () => {
    const user = await registerUser(t);
    const res = await callOf('auth.register').send({
      email: user.email,
      password: 'secret12',
      name: 'Ada',
    });
    return { res, status: 409, retryAfter: NOT_BY_WAITING_RETRY_AFTER_S };
  },
  'auth.login: too many failed sign-ins (429, until the window frees)': async () => {
    const user = await registerUser(t);
    let res: Response | undefined;
    for (let i = 0; i < 3; i += 1)
      res = await callOf('auth.login').send({ email: user.email, password: `wrong-${i}` });
    return { res: res!, status: 429, retryAfter: { min: 1, max: LOGIN_WINDOW_SECONDS } };
  },
  'upload.complete: photo checks still running (409, a few seconds)': async () => {
    const user = await trainingUser(t);
    const sessionId = await completedSession(t, user.id, { status: 'uploading' });
    await t.c.db
      .updateTable('photos')
      .set({ check_status: 'pending', usable: null })
      .where('session_id', '=', sessionId)
      .execute();
    const res = await callOf('upload.complete', { sessionId }).set(bearer(user.token));
    expect(res.body.detail).toBe(MESSAGES.checksStillRunning);
    return { res, status: 409, retryAfter: { min: 1, max: 10 } };
  },
  'upload.file: to a session already completed (409, not by waiting)': async () => {
    const user = await trainingUser(t);
    const sessionId = await completedSession(t, user.id);
    const res = await callOf('upload.file', { sessionId })
      .set(bearer(user.token))
      .attach('file', await photo(), { filename: 'photo.jpg', contentType: 'image/jpeg' });
    expect(res.body.detail).toBe(MESSAGES.sessionAlreadyComplete);
    return { res, status: 409, retryAfter: NOT_BY_WAITING_RETRY_AFTER_S };
  },
  'generation.generate-trained: a model still training (409, a model refresh)': async () => {
    const user = await creditUser(t, 4);
    const modelId = await trainedModel(t, user.id, { status: 'training' });
    const res = await callOf('generation.generate-trained')
      .set(bearer(user.token))
      .send({ model_id: modelId, prompt: 'studio portrait', num_images: 4, trigger_word: 'sks' });
    expect(res.body.detail).toBe(MESSAGES.modelNotReady);
    return { res, status: 409, retryAfter: TRAINING_RETRY_AFTER_S };
  },
  'generation.generate-trained: a model whose training failed (409, not by waiting)': async () => {
    const user = await creditUser(t, 4);
    const modelId = await trainedModel(t, user.id, { status: 'failed' });
    const res = await callOf('generation.generate-trained')
      .set(bearer(user.token))
      .send({ model_id: modelId, prompt: 'studio portrait', num_images: 4, trigger_word: 'sks' });
    expect(res.body.detail).toBe(MESSAGES.modelNotReady);
    return { res, status: 409, retryAfter: NOT_BY_WAITING_RETRY_AFTER_S };
  },
  'payments.create-credit-payment: a Coming Soon pack (409, not by waiting)': async () => {
    const user = await creditUser(t, 0);
    const res = await callOf('payments.create-credit-payment')
      .set(bearer(user.token))
      .send({ credit_pack_id: 'credits_10' });
    expect(res.body.detail).toBe(MESSAGES.creditPackComingSoon);
    return { res, status: 409, retryAfter: NOT_BY_WAITING_RETRY_AFTER_S };
  },
  'payments.create-training-payment: a price that moved on (409, not by waiting)': async () => {
    const user = await creditUser(t, 0);
    const res = await callOf('payments.create-training-payment')
      .set(bearer(user.token))
      .send({ plan_name: 'professional', plan_price: 1.23, plan_credits: 8 });
    return { res, status: 409, retryAfter: NOT_BY_WAITING_RETRY_AFTER_S };
  },
  'payments.cancel-subscription: nothing to cancel (409, not by waiting)': async () => {
    const user = await creditUser(t, 0);
    const res = await callOf('payments.cancel-subscription').set(bearer(user.token));
    return { res, status: 409, retryAfter: NOT_BY_WAITING_RETRY_AFTER_S };
  },
  'payments.reactivate-subscription: nothing being cancelled (409, not by waiting)': async () => {
    const user = await creditUser(t, 0);
    const res = await callOf('payments.reactivate-subscription').set(bearer(user.token));
    return { res, status: 409, retryAfter: NOT_BY_WAITING_RETRY_AFTER_S };
  },
};

describe('Retry-After on every 409 and 429', () => {
  it.each(Object.entries(CASES))('%s', async (_name, provoke) => {
    const { res, status, retryAfter } = await provoke();
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const header = res.headers['retry-after'] as string | undefined;
    expect(header, 'Retry-After').toMatch(/^\d+$/);
    const seconds = Number(header);
    if (typeof retryAfter === 'number') expect(seconds).toBe(retryAfter);
    else {
      expect(seconds).toBeGreaterThanOrEqual(retryAfter.min);
      expect(seconds).toBeLessThanOrEqual(retryAfter.max);
    }
  });

  it('the OpenAPI document declares Retry-After on every 409 and 429 it lists', async () => {
    const doc = (await t.request.get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { responses?: Record<string, { headers?: object }> }>>;
    };
    let seen = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const status of ['409', '429']) {
          const answer = operation.responses?.[status];
          if (!answer) continue;
          seen += 1;
          expect(answer.headers, `${method} ${path} ${status}`).toHaveProperty('Retry-After');
        }
      }
    }
    expect(seen).toBeGreaterThan(10);
  });
});
