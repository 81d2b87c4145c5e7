import {
  ENGINE_KINDS,
  MESSAGES,
  TASK_TYPES,
  taskQueueName,
  ZGenerationResultSchema,
} from '@studioshot/contracts';
import { Queue } from 'bullmq';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditUser, deliver, trainedModel, type GenUser } from '../generation-helpers.js';
import { bearer, createTestApp, registerUser, uniqueEmail, type TestApp } from '../helpers.js';
import { createIntent, payWithCard } from '../payments-helpers.js';
import { completedSession, trainingUser } from '../training-helpers.js';
import { hasAnswerField, ofType, readSpecCalls, type SpecCall } from './calls.js';

/**
 * A client written from the contract alone: every call of docs/spec/calls.md sent exactly as the
 * contract writes it (method, path, authentication, body field names and types, nothing else),
 * with the contract's client timeout, and its answer checked for the fields the client reads. A
 * row without a case here fails the suite. Two calls differ, as the README's table of
 * differences says: `users.create-payment-intent` needs sign-in, and `create-credit-payment`
 * refuses the pricing page's Coming Soon packs.
 */

let t: TestApp;
beforeAll(async () => {
  // Generate calls answer at once (202 with the generation's id): no worker runs here.
  t = await createTestApp({ GENERATION_WAIT_MS: '0' });
});
afterAll(() => t?.close());

const CALLS = readSpecCalls();

/** What one call sends: its path parameters, fields (body, form or query), file and token. */
interface Sent {
  token?: string;
  params?: Record<string, string>;
  fields?: Record<string, unknown>;
  file?: Buffer;
}

interface Case {
  /** The state the call needs, and what it sends. */
  request: () => Promise<Sent>;
  /** The answer the contract expects: 2xx unless the call is one of the two differences. */
  status?: number;
  /** Further checks of the answer. */
  check?: (res: Response) => void | Promise<void>;
  /** A failure the server words with one of the row's catalogue messages. */
  failure?: () => Promise<Sent>;
}

/** Sends `sent` as the row says: the contract's method, path, authentication and body format. */
function send(call: SpecCall, sent: Sent): Promise<Response> {
  const url = call.path
    .replace(/\?.*$/, '')
    .replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(sent.params?.[name] ?? ''));
  const method = call.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
  let req = t.request[method](url).timeout(call.timeoutMs);
  if (call.auth === 'bearer' && sent.token) req = req.set(bearer(sent.token));
  const fields = sent.fields ?? {};
  switch (call.body) {
    case 'json':
    case 'not shown':
      return sent.fields ? req.send(fields) : req;
    case 'form':
      for (const [name, value] of Object.entries(fields)) req = req.field(name, String(value));
      return req;
    case 'multipart':
      return req.attach('file', sent.file!, { filename: 'photo.jpg', contentType: 'image/jpeg' });
    case 'query':
      return req.query(fields);
    case 'none':
      return req;
  }
}

/** The fields sent are the row's, of its types, every required one present. */
function expectContractFields(call: SpecCall, sent: Sent) {
  if (call.body === 'not shown' || call.body === 'none' || call.body === 'multipart') {
    if (call.body === 'none') expect(sent.fields, `${call.id} sends no body`).toBeUndefined();
    return;
  }
  const fields = sent.fields ?? {};
  for (const [name, value] of Object.entries(fields)) {
    const declared = call.request.find((field) => field.name === name);
    expect(declared, `${call.id}: the contract has no field ${name}`).toBeDefined();
    expect(ofType(value, declared!), `${call.id}: ${name} is a ${declared!.type}`).toBe(true);
  }
  for (const field of call.request.filter((f) => !f.optional))
    expect(fields, `${call.id} sends ${field.name}`).toHaveProperty(field.name);
}

function expectAnswer(call: SpecCall, res: Response) {
  for (const alternatives of call.answer) {
    expect(
      alternatives.some((field) => hasAnswerField(res.body, field)),
      `${call.id} answers ${alternatives.join(' or ')}: ${JSON.stringify(res.body)}`,
    ).toBe(true);
  }
}

/** Every 409 and 429 says when asking again is worthwhile (retry-after.test.ts has each one). */
function expectRetryAfterWhenRefused(call: SpecCall, res: Response) {
  if (res.status === 409 || res.status === 429)
    expect(res.headers['retry-after'], `${call.id}: Retry-After`).toMatch(/^\d+$/);
}

// ── State the calls need ───────────────────────────────────────────────────────────────────

const jpegPhoto = () =>
  sharp({ create: { width: 640, height: 640, channels: 3, background: { r: 90, g: 120, b: 160 } } })
    .jpeg()
    .toBuffer();

async function signedIn(): Promise<GenUser> {
  return creditUser(t, 0);
}

/** A user who may train, with a finished upload session of 10 usable photos. */
async function withPhotoSet(status: 'completed' | 'uploading' = 'completed') {
  const user = await trainingUser(t);
  return { user, sessionId: await completedSession(t, user.id, { status }) };
}

async function withModel(credits = 1) {
  const user = await creditUser(t, credits);
  return { user, modelId: await trainedModel(t, user.id) };
}

const post = (token: string, path: string, body: object = {}) =>
  t.request.post(path).set(bearer(token)).send(body);

/** A subscriber to the professional plan (bought and confirmed as the pricing page does it). */
async function subscriber(): Promise<GenUser> {
  const user = await signedIn();
  const intent = await createIntent(t, user.token, '/api/v1/payments/create-training-payment', {
    plan_name: 'professional',
    plan_price: 19.99,
    plan_credits: 8,
  });
  await post(user.token, '/api/v1/payments/confirm-plan-subscription', {
    payment_intent_id: intent.payment_intent_id,
  }).expect(200);
  return user;
}

/** A generation of the user's, finished with its images. */
async function generatedImages(user: GenUser, modelId: string): Promise<string> {
  const res = await post(user.token, '/api/v1/generation/generate-trained', { model_id: modelId });
  const id = ZGenerationResultSchema.parse(res.body).id;
  await deliver(t, user.id, id);
  const list = await t.request.get('/models/generated-images').set(bearer(user.token));
  return (list.body as { images: { id: string }[] }).images[0]!.id;
}

/** A user on a plan of one training, with that training started (queued). */
async function startedTraining() {
  const user = await trainingUser(t, 1, 'starter');
  const sessionId = await completedSession(t, user.id);
  await post(user.token, '/api/v1/training/start', {
    model_name: 'First',
    trigger_word: 'person',
    user_id: user.id,
    session_id: sessionId,
  }).expect(201);
  return { user, sessionId };
}

async function drainTaskQueues() {
  for (const type of TASK_TYPES)
    for (const kind of ENGINE_KINDS) {
      const queue = new Queue(taskQueueName(type, kind), {
        connection: t.c.redis,
        prefix: `${t.c.env.REDIS_PREFIX}bull`,
      });
      await queue.drain(true);
      await queue.close();
    }
}

async function queuedGenerationTask(): Promise<{ user: GenUser; taskId: string }> {
  const { user, modelId } = await withModel(2);
  const res = await post(user.token, '/api/v1/queue/submit', {
    task_type: 'generation',
    params: { model_id: modelId },
  });
  return { user, taskId: (res.body as { task_id: string }).task_id };
}

// ── One case per row ───────────────────────────────────────────────────────────────────────

const CASES: Record<string, Case> = {
  'auth.register': {
    request: async () => ({
      fields: { email: uniqueEmail('spec'), password: 'secret12', name: 'Ada Lovelace' },
    }),
    check: async () => {
      // The sign-up page builds the name from full_name: that field is taken too.
      const res = await t.request
        .post('/api/v1/auth/register')
        .timeout(10_000)
        .send({ email: uniqueEmail('spec'), password: 'secret12', full_name: 'Ada Lovelace' });
      expect(res.status).toBe(201);
      expect(res.body.user.name).toBe('Ada Lovelace');
    },
  },
  'auth.login': {
    request: async () => {
      const user = await registerUser(t);
      return { fields: { email: user.email, password: user.password } };
    },
  },
  'auth.logout': { request: async () => ({ token: (await signedIn()).token }) },
  'auth.forgot-password': {
    request: async () => ({ fields: { email: (await registerUser(t)).email } }),
  },
  'auth.reset-password': {
    request: async () => {
      const user = await registerUser(t);
      const forgot = await t.request
        .post('/api/v1/auth/forgot-password')
        .send({ email: user.email });
      return {
        fields: {
          email: user.email,
          reset_token: (forgot.body as { reset_token: string }).reset_token,
          new_password: 'another secret',
        },
      };
    },
  },
  'auth.refresh': {
    request: async () => ({
      fields: { refresh_token: (await registerUser(t)).tokens.refresh_token },
    }),
  },
  health: { request: async () => ({}) },
  'users.profile.get': { request: async () => ({ token: (await signedIn()).token }) },
  'users.profile.update': {
    request: async () => ({ token: (await signedIn()).token, fields: { gender: 'male', age: 34 } }),
  },
  'upload.user-models': {
    request: async () => ({ token: (await withModel()).user.token }),
  },
  'upload.create-session': {
    request: async () => ({
      token: (await trainingUser(t)).token,
      fields: { expected_files: 10, session_type: 'training' },
    }),
  },
  'upload.file': {
    request: async () => {
      const user = await trainingUser(t);
      const session = await post(user.token, '/api/v1/upload/create-session', {
        expected_files: 10,
        session_type: 'training',
      });
      return {
        token: user.token,
        params: { sessionId: (session.body as { session_id: string }).session_id },
        file: await jpegPhoto(),
      };
    },
  },
  'upload.complete': {
    request: async () => {
      const { user, sessionId } = await withPhotoSet('uploading');
      return { token: user.token, params: { sessionId } };
    },
  },
  'upload.session.status': {
    request: async () => {
      const { user, sessionId } = await withPhotoSet();
      return { token: user.token, params: { id: sessionId } };
    },
  },
  'upload.sessions.get': {
    request: async () => {
      const { user, sessionId } = await withPhotoSet();
      return { token: user.token, params: { id: sessionId } };
    },
    failure: async () => ({
      token: (await signedIn()).token,
      params: { id: '00000000-0000-4000-8000-000000000000' },
    }),
  },
  'training.start': {
    request: async () => {
      const { user, sessionId } = await withPhotoSet();
      return {
        token: user.token,
        fields: {
          model_name: 'My headshots',
          trigger_word: 'person',
          user_id: user.id,
          session_id: sessionId,
        },
      };
    },
    failure: async () => {
      // A user whose one training is used: the second answers the limit.
      const { user } = await startedTraining();
      const sessionId = await completedSession(t, user.id);
      return {
        token: user.token,
        fields: {
          model_name: 'Over the limit',
          trigger_word: 'person',
          user_id: user.id,
          session_id: sessionId,
        },
      };
    },
  },
  'training.history': { request: async () => ({ token: (await withModel()).user.token }) },
  'training.jobs': { request: async () => ({ token: (await withModel()).user.token }) },
  'models.status': { request: async () => ({ token: (await withModel()).user.token }) },
  'models.start-training': {
    // The contract shows no payload: the fields of training.start, which it mirrors.
    request: async () => {
      const { user, sessionId } = await withPhotoSet();
      return {
        token: user.token,
        fields: { model_name: 'Legacy path', trigger_word: 'person', session_id: sessionId },
      };
    },
  },
  'models.training-status': {
    request: async () => ({ token: (await startedTraining()).user.token }),
  },
  'generation.styles': { request: async () => ({}) },
  'generation.generate-trained': {
    request: async () => {
      const { user, modelId } = await withModel();
      return {
        token: user.token,
        fields: { model_id: modelId, prompt: 'a person', num_images: 4, trigger_word: 'person' },
      };
    },
    failure: async () => {
      const { user, modelId } = await withModel(0);
      return {
        token: user.token,
        fields: { model_id: modelId, prompt: 'a person', num_images: 4, trigger_word: 'person' },
      };
    },
  },
  'inference.generate.legacy': {
    request: async () => ({
      token: (await withModel()).user.token,
      fields: { prompt: 'professional person', style: 'professional', num_images: 4 },
    }),
  },
  'inference.generate.premium': {
    request: async () => {
      const { user, modelId } = await withModel();
      return {
        token: user.token,
        fields: { style: 'creative', prompt: 'a person', num_images: 4, model_id: modelId },
      };
    },
  },
  'inference.generate.post-payment': {
    request: async () => {
      const { user } = await withModel(0);
      const intent = await createIntent(t, user.token, '/api/v1/users/create-payment-intent', {});
      await payWithCard(t, user.token, intent).expect(200);
      return {
        token: user.token,
        fields: { prompt: 'professional person', num_images: 4, width: 1024, height: 1024 },
      };
    },
  },
  'models.generate-image': {
    request: async () => ({
      token: (await withModel()).user.token,
      fields: { prompt: 'a person', template_used: 'prof_1' },
    }),
  },
  'generation.flux-generate': {
    request: async () => {
      const { user, modelId } = await withModel();
      return {
        token: user.token,
        fields: {
          prompt: 'a person',
          model_id: modelId,
          width: 1024,
          height: 1024,
          steps: 20,
          guidance_scale: 2.5,
          seed: 42,
        },
      };
    },
  },
  'models.generated-images.list': {
    request: async () => ({
      token: (await withModel()).user.token,
      fields: { limit: 20, offset: 0 },
    }),
  },
  'models.generated-images.favorite': {
    request: async () => {
      const { user, modelId } = await withModel();
      return { token: user.token, params: { id: await generatedImages(user, modelId) } };
    },
  },
  'models.generated-images.delete': {
    request: async () => {
      const { user, modelId } = await withModel();
      return { token: user.token, params: { id: await generatedImages(user, modelId) } };
    },
  },
  'payments.pricing': { request: async () => ({}) },
  'payments.create-credit-payment': {
    // One of the two differences: the pricing page's packs are Coming Soon (it says so).
    request: async () => ({
      token: (await signedIn()).token,
      fields: { credit_pack_id: 'credits_10' },
    }),
    status: 409,
    check: (res) => expect(res.body.detail).toBe(MESSAGES.creditPackComingSoon),
    failure: async () => ({
      token: (await signedIn()).token,
      fields: { credit_pack_id: 'gold_pack' },
    }),
  },
  'payments.create-credit-package': {
    request: async () => ({
      token: (await signedIn()).token,
      fields: { package_id: 'starter_pack' },
    }),
  },
  'payments.confirm-credit-package': {
    request: async () => {
      const user = await signedIn();
      const intent = await createIntent(t, user.token, '/api/v1/payments/create-credit-package', {
        package_id: 'starter_pack',
      });
      return { token: user.token, fields: { payment_intent_id: intent.payment_intent_id } };
    },
  },
  'payments.confirm-payment': {
    request: async () => {
      const user = await signedIn();
      const intent = await createIntent(t, user.token, '/api/v1/payments/create-credit-payment', {
        credit_pack_id: 'starter_pack',
      });
      return { token: user.token, fields: { payment_intent_id: intent.payment_intent_id } };
    },
  },
  'payments.create-training-payment': {
    request: async () => ({
      token: (await signedIn()).token,
      fields: { plan_price: 19.99, plan_name: 'professional', plan_credits: 8 },
    }),
  },
  'payments.create-training-purchase': {
    request: async () => ({ token: (await signedIn()).token, fields: { quantity: 3 } }),
  },
  'payments.create-upgrade': {
    request: async () => ({
      token: (await subscriber()).token,
      fields: { plan_id: 'premium', current_plan: 'professional', upgrade_immediately: true },
    }),
  },
  'users.create-payment-intent': {
    // The other difference: the contract sends it without authentication; we need sign-in.
    request: async () => ({ token: (await withModel(0)).user.token }),
    status: 401,
    check: async () => {
      const { user } = await withModel(0);
      const res = await t.request
        .post('/api/v1/users/create-payment-intent')
        .set(bearer(user.token))
        .timeout(10_000);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(
        expect.arrayContaining(['payment_intent_id', 'client_secret', 'amount', 'currency']),
      );
    },
  },
  'payments.confirm-additional-training': {
    request: async () => {
      const user = await signedIn();
      const intent = await createIntent(
        t,
        user.token,
        '/api/v1/payments/create-training-purchase',
        {
          quantity: 1,
        },
      );
      return {
        token: user.token,
        fields: {
          payment_intent_id: intent.payment_intent_id,
          pack_id: 'training_1',
          amount: intent.amount,
          payment_method: 'stripe',
        },
      };
    },
    check: (res) => expect(res.body.message).toContain(MESSAGES.trainingUploadNext),
  },
  'payments.confirm-plan-subscription': {
    request: async () => {
      const user = await signedIn();
      const intent = await createIntent(t, user.token, '/api/v1/payments/create-training-payment', {
        plan_name: 'starter',
        plan_price: 9.99,
      });
      return { token: user.token, fields: { payment_intent_id: intent.payment_intent_id } };
    },
    check: (res) => expect(res.body.message).toContain(MESSAGES.trainingUploadNext),
  },
  'payments.subscription': { request: async () => ({ token: (await subscriber()).token }) },
  'payments.cancel-subscription': {
    request: async () => ({ token: (await subscriber()).token }),
  },
  'payments.reactivate-subscription': {
    request: async () => {
      const user = await subscriber();
      await post(user.token, '/api/v1/payments/cancel-subscription').expect(200);
      return { token: user.token };
    },
  },
  'queue.user.status': { request: async () => ({ token: (await signedIn()).token }) },
  'queue.submit': {
    // Fields not shown by the contract: ours (the OpenAPI document's).
    request: async () => {
      const { user, modelId } = await withModel();
      return {
        token: user.token,
        fields: { task_type: 'generation', params: { model_id: modelId } },
      };
    },
  },
  'queue.status.task': {
    request: async () => {
      const { user, taskId } = await queuedGenerationTask();
      return { token: user.token, params: { id: taskId } };
    },
  },
  'queue.cancel': {
    request: async () => {
      const { user, taskId } = await queuedGenerationTask();
      return { token: user.token, params: { id: taskId } };
    },
  },
  'queue.cost.projection': { request: async () => ({ token: (await signedIn()).token }) },
  'queue.status': { request: async () => ({ token: (await signedIn()).token }) },
  'queue.monitor.health': {
    request: async () => {
      // A healthy fleet: the cases above left tasks waiting with no worker (degraded, 503).
      await drainTaskQueues();
      return { token: (await signedIn()).token };
    },
  },
  'queue.estimate.wait-time': {
    // The contract does not say what {a} and {b} are: ours are the task type and priority.
    request: async () => ({
      token: (await signedIn()).token,
      params: { a: 'generation', b: 'normal' },
    }),
  },
  'queue.training.start-queued': {
    request: async () => {
      const { user, sessionId } = await withPhotoSet();
      return {
        token: user.token,
        fields: { model_name: 'Queued', trigger_word: 'person', session_id: sessionId },
      };
    },
  },
  'queue.generation.start-queued': {
    request: async () => {
      const { user, modelId } = await withModel();
      return { token: user.token, fields: { model_id: modelId } };
    },
  },
};

describe('the contract table', () => {
  it('has every call of sections 7.1-7.7 (55), each with a case here', () => {
    expect(CALLS).toHaveLength(55);
    expect(new Set(CALLS.map((call) => call.id)).size).toBe(CALLS.length);
    const missing = CALLS.filter((call) => !CASES[call.id]).map((call) => call.id);
    expect(missing, 'rows without a conformance case').toEqual([]);
    const stale = Object.keys(CASES).filter((id) => !CALLS.some((call) => call.id === id));
    expect(stale, 'cases for no row').toEqual([]);
  });
});

describe.each(CALLS.map((call) => [call.id, call] as const))('%s', (_id, call) => {
  const spec = CASES[call.id];
  it('answers the contract as written', async () => {
    expect(spec, `a case for ${call.id}`).toBeDefined();
    const sent = await spec!.request();
    expectContractFields(call, sent);
    const res = await send(call, sent);
    if (spec!.status !== undefined) {
      expect(res.status, JSON.stringify(res.body)).toBe(spec!.status);
    } else {
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(200);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      expectAnswer(call, res);
    }
    expectRetryAfterWhenRefused(call, res);
    await spec!.check?.(res);
    if (spec!.failure) {
      const failed = await send(call, await spec!.failure());
      expectRetryAfterWhenRefused(call, failed);
      expect(failed.status).toBeGreaterThanOrEqual(400);
      expect(call.messages, `${call.id}: ${JSON.stringify(failed.body)}`).toContain(
        (failed.body as { detail: string }).detail,
      );
    }
  });
});
