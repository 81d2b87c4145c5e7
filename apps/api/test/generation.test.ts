import {
  MESSAGES,
  ZGeneratedImagesResponseSchema,
  ZGenerationResultSchema,
  ZQueueTaskSchema,
  ZStylesResponseSchema,
} from '@studioshot/contracts';
import { endTask, TASK_EFFECTS } from '@studioshot/db';
import { CREDIT_LIST_PRICE_CENTS } from '@studioshot/pricing';
import { STYLES, templateById, templatePrompt } from '@studioshot/templates';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageTokens } from '../src/services/image-tokens.js';
import {
  balance,
  creditUser,
  deliver,
  footprint,
  generate,
  generationJob,
  jpeg,
  queuedGeneration,
  trainedModel,
  JOB_NAMES,
} from './generation-helpers.js';
import { bearer, createTestApp, TEST_JWT_SECRET, type TestApp } from './helpers.js';
import { completedSession } from './training-helpers.js';

/** Answers at once (202) unless the generation is already final: no worker in this suite. */
let t: TestApp;
/** Waits for the images, as production does; the test plays the worker. */
let waiting: TestApp;

beforeAll(async () => {
  [t, waiting] = await Promise.all([
    createTestApp({ GENERATION_WAIT_MS: '0' }),
    createTestApp({ GENERATION_WAIT_MS: '20000' }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), waiting?.close()]);
});

const TRAINED = '/api/v1/generation/generate-trained';

async function generationRow(app: TestApp, id: string) {
  return app.c.db
    .selectFrom('generations')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}
async function taskRow(app: TestApp, id: string) {
  return app.c.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
async function ledgerOf(app: TestApp, userId: string) {
  return app.c.db
    .selectFrom('credit_ledger')
    .select(['delta', 'balance_after', 'reason', 'idempotency_key'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('balance_after', 'desc')
    .execute();
}

/** A user with credits and a trained model, and one generation of theirs accepted (queued). */
async function acceptedGeneration(app: TestApp, credits = 3) {
  const user = await creditUser(app, credits);
  const modelId = await trainedModel(app, user.id);
  const res = await generate(app, user, TRAINED, { model_id: modelId, prompt: 'x' });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return { user, modelId, id: ZGenerationResultSchema.parse(res.body).id };
}

describe('GET /api/v1/generation/styles', () => {
  it('lists the style cards without authentication', async () => {
    const res = await t.request.get('/api/v1/generation/styles');
    expect(res.status).toBe(200);
    expect(ZStylesResponseSchema.parse(res.body).styles).toEqual(STYLES);
    // Both texts: the studio engine's and the flux engine's; a page shows its model's.
    for (const style of res.body.styles as typeof STYLES) {
      expect(style.description.length).toBeGreaterThan(20);
      expect(style.flux_description.length).toBeGreaterThan(20);
    }
  });
});

describe('POST /api/v1/generation/generate-trained', () => {
  it('reserves one credit with the task, waits for the images and answers them with token URLs', async () => {
    const user = await creditUser(waiting, 2);
    const modelId = await trainedModel(waiting, user.id, { trigger_word: 'ohwx' });
    const answer = generate(waiting, user, TRAINED, {
      model_id: modelId,
      prompt: 'a person on a yacht',
      num_images: 4,
      trigger_word: 'person',
    }).then((res) => res);
    const task = await queuedGeneration(waiting, user.id);
    // Accepted: the credit is reserved with the task, before any image exists.
    expect(await balance(waiting, user.id)).toBe(1);
    await deliver(waiting, user.id, task.id);

    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = ZGenerationResultSchema.parse(res.body);
    expect(body).toMatchObject({
      id: task.id,
      status: 'completed',
      success: true,
      model_id: modelId,
      credits_used: 1,
      credits_refunded: 0,
      images_dropped: 0,
      // One credit at list price, to the cent: $9.99 for 20 credits.
      cost: Math.round(CREDIT_LIST_PRICE_CENTS) / 100,
    });
    expect(body.generation_time).toBeGreaterThanOrEqual(0);
    // Beside a style, any user's prompt is the prompt (with the model's trigger word); the
    // studio engine renders none of its words, and the answer says so.
    expect(body.items).toEqual([
      {
        template_id: 'prof_1',
        variant: 0,
        prompt: 'a ohwx on a yacht',
        prompt_applied: false,
        prompt_note: MESSAGES.promptNoStudioWords,
      },
    ]);
    expect(body).toMatchObject({
      prompt: 'a ohwx on a yacht',
      prompt_applied: false,
      prompt_note: MESSAGES.promptNoStudioWords,
    });
    expect(body.images.map((i) => i.position)).toEqual([0, 1, 2, 3]);
    for (const image of body.images) {
      expect(image.url).toMatch(new RegExp(`^/images/generated/${image.id}\\?token=`));
      expect(image.thumbnail_url).toMatch(
        new RegExp(`^/images/generated/${image.id}/thumbnail\\?token=`),
      );
      expect(image.filename).toMatch(/^headshot-[0-9a-f]{8}-[1-4]\.jpg$/);
    }
    const served = await waiting.request.get(body.images[0]!.url).buffer(true);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(served.body as Buffer, await jpeg({ r: 0, g: 100, b: 200 }))).toBe(0);

    // Delivered: the credit is kept, the generation counted.
    expect(await balance(waiting, user.id)).toBe(1);
    const ledger = await ledgerOf(waiting, user.id);
    expect(ledger.map((e) => [e.delta, e.reason])).toEqual([
      [2, 'test_grant'],
      [-1, 'generation'],
    ]);
    const profile = await waiting.request.get('/api/v1/users/profile').set(bearer(user.token));
    expect(profile.body).toMatchObject({ credits_balance: 1, total_generations: 1 });
  });

  it('a set delivered short is not charged: its credit comes back, in the ledger and the answer', async () => {
    const user = await creditUser(waiting, 2);
    const modelId = await trainedModel(waiting, user.id);
    // Sent now (a request starts when it is awaited or given a then).
    const answer = generate(waiting, user, TRAINED, { model_id: modelId, prompt: 'x' }).then(
      (res) => res,
    );
    const task = await queuedGeneration(waiting, user.id);
    expect(await balance(waiting, user.id)).toBe(1);
    // The engine dropped one of the four (none of its renders passed the quality check).
    await deliver(waiting, user.id, task.id, 3);

    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ZGenerationResultSchema.parse(res.body)).toMatchObject({
      status: 'completed',
      success: true,
      credits_used: 0,
      credits_refunded: 1,
      images_dropped: 1,
      cost: 0,
    });
    expect(res.body.images).toHaveLength(3);
    expect(await balance(waiting, user.id)).toBe(2);
    const ledger = await ledgerOf(waiting, user.id);
    expect(ledger.map((e) => [e.delta, e.reason])).toEqual([
      [2, 'test_grant'],
      [-1, 'generation'],
      [1, 'generation_incomplete'],
    ]);
  });

  it('uses the custom prompt for premium annual plans and debug users', async () => {
    for (const profile of [
      { plan_type: 'premium' as const, subscription_interval: 'annual' },
      { is_debug: true },
    ]) {
      const user = await creditUser(t, 1, profile);
      const modelId = await trainedModel(t, user.id, { trigger_word: 'ohwx' });
      const res = await generate(t, user, TRAINED, {
        model_id: modelId,
        prompt: 'a woman on a yacht, person at sea',
      });
      expect(res.status).toBe(202);
      expect(ZGenerationResultSchema.parse(res.body).prompt).toBe('ohwx on a yacht, ohwx at sea');
    }
    // Beside a chosen template a monthly premium plan is not enough: accepted, and told why.
    const monthly = await creditUser(t, 1, {
      plan_type: 'premium',
      subscription_interval: 'monthly',
    });
    const modelId = await trainedModel(t, monthly.id);
    const res = await generate(t, monthly, TRAINED, {
      model_id: modelId,
      template_id: 'prof_1',
      prompt: 'on a yacht, dark office',
    });
    expect(res.status).toBe(202);
    const body = ZGenerationResultSchema.parse(res.body);
    expect(body.prompt).not.toContain('yacht');
    expect(body).toMatchObject({ prompt_applied: false, prompt_note: MESSAGES.promptNeedsPlan });
  });

  it('one prompt rule: what the prompt did is in every answer, and no prompt is refused', async () => {
    const user = await creditUser(t, 6);
    const modelId = await trainedModel(t, user.id, { trigger_word: 'ohwx' });
    const send = async (path: string, body: Record<string, unknown>) => {
      const res = await generate(t, user, path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      return ZGenerationResultSchema.parse(res.body);
    };
    // Beside a style, on every Generate call with a style: the recognised words shape the look.
    for (const path of [TRAINED, '/api/v1/inference/generate']) {
      const shaped = await send(path, {
        model_id: modelId,
        style: 'professional',
        prompt: 'dark moody portrait of person in an office, close-up',
      });
      expect(shaped).toMatchObject({
        prompt: 'dark moody portrait of ohwx in an office, close-up',
        prompt_applied: ['office', 'dark', 'moody', 'close-up'],
        prompt_note: 'Your prompt set the look: office, dark, moody, close-up.',
      });
      expect(shaped.items[0]!.prompt_applied).toEqual(shaped.prompt_applied);
    }
    // The style page's default prompt shapes it too.
    expect(
      (
        await send(TRAINED, {
          model_id: modelId,
          prompt: 'professional headshot in business attire',
        })
      ).prompt_applied,
    ).toEqual(['business']);
    // None sent, or the template's own: the template's look, said so.
    expect(await send(TRAINED, { model_id: modelId, template_id: 'prof_1' })).toMatchObject({
      prompt_applied: false,
      prompt_note: MESSAGES.promptNotSent,
    });
    const own = templatePrompt(templateById('prof_1')!, 0);
    expect(
      await send(TRAINED, { model_id: modelId, template_id: 'prof_1', prompt: own }),
    ).toMatchObject({ prompt_applied: false, prompt_note: MESSAGES.promptIsTemplates });
    // A custom prompt beside a chosen template on a plan without one: accepted, not used, said so.
    expect(
      await send('/models/generate-image', {
        model_id: modelId,
        template_used: 'prof_1',
        prompt: 'dark office',
      }),
    ).toMatchObject({ prompt_applied: false, prompt_note: MESSAGES.promptNeedsPlan });
  });

  it('on flux the prompt is the prompt, whole', async () => {
    const user = await creditUser(t, 1);
    const modelId = await trainedModel(t, user.id, { model_type: 'flux', trigger_word: 'ohwx' });
    const res = await generate(t, user, TRAINED, {
      model_id: modelId,
      prompt: 'a person on a yacht at sunset',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(ZGenerationResultSchema.parse(res.body)).toMatchObject({
      prompt: 'a ohwx on a yacht at sunset',
      prompt_applied: ['a person on a yacht at sunset'],
      prompt_note: 'Your prompt is what the model rendered.',
    });
  });

  it("takes anyone's custom prompt under the server's debug setting (DEBUG_PROMPTS)", async () => {
    const debugging = await createTestApp({ DEBUG_PROMPTS: 'true', GENERATION_WAIT_MS: '0' });
    try {
      const user = await creditUser(debugging, 1);
      const modelId = await trainedModel(debugging, user.id, { trigger_word: 'ohwx' });
      const res = await generate(debugging, user, TRAINED, {
        model_id: modelId,
        prompt: 'a man on a yacht',
      });
      expect(res.status).toBe(202);
      expect(ZGenerationResultSchema.parse(res.body).prompt).toBe('ohwx on a yacht');
    } finally {
      await debugging.close();
    }
  });

  it('answers 202 with the generation id and status when the wait runs out', async () => {
    const { user, id } = await acceptedGeneration(t);
    const status = await t.request.get(`/api/v1/queue/status/${id}`).set(bearer(user.token));
    expect(ZQueueTaskSchema.parse(status.body)).toMatchObject({
      task_type: 'generation',
      status: 'queued',
      position: expect.any(Number) as number,
    });
    const job = await generationJob(t, 'generation', 'studio', id);
    expect(job).toMatchObject({ name: JOB_NAMES.generate, data: { task_id: id } });
  });

  it('answers a generation that failed while it waited with the reason, its credit back', async () => {
    const user = await creditUser(waiting, 1);
    const modelId = await trainedModel(waiting, user.id);
    const answer = generate(waiting, user, TRAINED, { model_id: modelId }).then((res) => res);
    const task = await queuedGeneration(waiting, user.id);
    await endTask(waiting.c.db, task.id, {
      status: 'failed',
      message: 'Generation failed',
      errorMessage: 'The engine broke',
    });
    await waiting.c.taskEvents.announce(task.id);
    const res = await answer;
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ detail: 'The engine broke', code: 'generation_failed' });
    expect(await balance(waiting, user.id)).toBe(1);
  });

  it('runs on the model engine kind queue', async () => {
    const user = await creditUser(t, 1);
    const modelId = await trainedModel(t, user.id, { model_type: 'flux' });
    const res = await generate(t, user, TRAINED, { model_id: modelId });
    const id = ZGenerationResultSchema.parse(res.body).id;
    expect((await taskRow(t, id)).engine_kind).toBe('flux');
    expect(await generationJob(t, 'generation', 'flux', id)).not.toBeNull();
    expect(await generationJob(t, 'generation', 'studio', id)).toBeNull();
  });
});

describe('idempotency', () => {
  it('a double-clicked Generate makes one generation and spends one credit', async () => {
    const user = await creditUser(t, 5);
    const modelId = await trainedModel(t, user.id);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => generate(t, user, TRAINED, { model_id: modelId }, key)),
    );
    const ids = answers.map((res) => {
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      return ZGenerationResultSchema.parse(res.body).id;
    });
    expect(new Set(ids).size).toBe(1);
    // Later repeats too, the key in the body, and the defaults spelled out: the same request.
    const later = await generate(
      t,
      user,
      TRAINED,
      { model_id: modelId, num_images: 4, idempotency_key: key },
      null,
    );
    expect(later.status).toBe(202);
    expect(ZGenerationResultSchema.parse(later.body).id).toBe(ids[0]);
    expect(await footprint(t, user.id)).toMatchObject({
      balance: 4,
      tasks: 1,
      generations: 1,
      ledger: 2,
    });
    expect((await generationRow(t, ids[0]!)).idempotency_key).toBe(key);
    // Keys are kept at least 24 hours: a day and an hour later the key still finds it.
    await t.c.db
      .updateTable('generations')
      .set({ created_at: sql`now() - interval '25 hours'` })
      .where('id', '=', ids[0]!)
      .execute();
    const nextDay = await generate(t, user, TRAINED, { model_id: modelId }, key);
    expect(ZGenerationResultSchema.parse(nextDay.body).id).toBe(ids[0]);
    expect(await balance(t, user.id)).toBe(4);
  });

  it('the same key with a different request is refused (422), changing nothing', async () => {
    const user = await creditUser(t, 5);
    const modelId = await trainedModel(t, user.id);
    const key = randomUUID();
    const first = await generate(t, user, TRAINED, { model_id: modelId, prompt: 'x' }, key);
    expect(first.status).toBe(202);
    const before = await footprint(t, user.id);
    for (const [path, body] of [
      [TRAINED, { model_id: modelId, prompt: 'x', num_images: 2 }],
      [TRAINED, { model_id: modelId, prompt: 'y' }],
      ['/api/v1/inference/generate', { model_id: modelId, prompt: 'x', style: 'creative' }],
    ] as const) {
      const reused = await generate(t, user, path, body, key);
      expect([reused.status, reused.body]).toEqual([
        422,
        { detail: MESSAGES.idempotencyKeyReused, code: 'idempotency_key_reused' },
      ]);
    }
    // Racing requests with one key and different bodies: one generation, the others refused.
    const raceKey = randomUUID();
    const race = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        generate(t, user, TRAINED, { model_id: modelId, num_images: n }, raceKey),
      ),
    );
    expect(race.map((res) => res.status).sort()).toEqual([202, 422, 422, 422]);
    expect(await footprint(t, user.id)).toMatchObject({
      balance: before.balance - 1,
      generations: before.generations + 1,
    });
  });

  it('without a key each call is a new generation; a malformed key is refused', async () => {
    const user = await creditUser(t, 2);
    const modelId = await trainedModel(t, user.id);
    const before = await footprint(t, user.id);
    const malformed = await generate(t, user, TRAINED, { model_id: modelId }, 'short');
    expect(malformed.status).toBe(422);
    expect(await footprint(t, user.id)).toEqual(before);
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const res = await generate(t, user, TRAINED, { model_id: modelId }, null);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      ids.push(ZGenerationResultSchema.parse(res.body).id);
    }
    expect(ids[0]).not.toBe(ids[1]);
    expect(await footprint(t, user.id)).toMatchObject({ balance: 0, generations: 2 });
    expect((await generationRow(t, ids[0]!)).idempotency_key).toBeNull();
  });

  it('keys are per user: the same key from another user is another generation', async () => {
    const key = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const user = await creditUser(t, 1);
      const modelId = await trainedModel(t, user.id);
      const res = await generate(t, user, TRAINED, { model_id: modelId }, key);
      ids.push(ZGenerationResultSchema.parse(res.body).id);
    }
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe('credits', () => {
  it('out of credits: the spec message, no task, nothing reserved', async () => {
    const user = await creditUser(t, 0);
    const modelId = await trainedModel(t, user.id);
    const before = await footprint(t, user.id);
    const res = await generate(t, user, TRAINED, { model_id: modelId });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      detail: MESSAGES.insufficientCredits,
      code: 'insufficient_credits',
    });
    expect(await footprint(t, user.id)).toEqual(before);
  });

  it('50 concurrent generations against 10 credits: exactly 10 accepted, never below zero', async () => {
    const user = await creditUser(t, 10);
    const modelId = await trainedModel(t, user.id);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => generate(t, user, TRAINED, { model_id: modelId })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    expect(await footprint(t, user.id)).toMatchObject({
      balance: 0,
      tasks: 10,
      generations: 10,
      ledger: 11,
    });
    // Every state the balance went through: 10, then each of 9 down to 0 once, a step of one.
    const ledger = await ledgerOf(t, user.id);
    expect(ledger.map((e) => e.balance_after).sort((a, b) => b - a)).toEqual([
      10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    ]);
    expect(ledger.filter((e) => e.delta === -1)).toHaveLength(10);
    expect(ledger.reduce((sum, e) => sum + e.delta, 0)).toBe(0);
  });

  it('a generation that fails for good gets its credit back once', async () => {
    const { user, id } = await acceptedGeneration(t, 1);
    expect(await balance(t, user.id)).toBe(0);
    const ended = await endTask(t.c.db, id, {
      status: 'failed',
      message: 'Generation failed',
      errorMessage: 'The engine broke',
    });
    expect(ended?.status).toBe('failed');
    expect(await balance(t, user.id)).toBe(1);
    // The effect again (a replay), and the ending again: nothing more.
    await TASK_EFFECTS.generation.ended!(t.c.db, ended!, 'failed');
    await t.c.db
      .transaction()
      .execute((trx) => TASK_EFFECTS.generation.ended!(trx, ended!, 'failed'));
    expect(
      await endTask(t.c.db, id, { status: 'failed', message: 'x', errorMessage: 'x' }),
    ).toBeUndefined();
    expect(await balance(t, user.id)).toBe(1);
    const ledger = await ledgerOf(t, user.id);
    expect(ledger.map((e) => [e.delta, e.reason])).toEqual([
      [1, 'test_grant'],
      [-1, 'generation'],
      [1, 'generation_refund'],
    ]);
  });

  it('a cancelled generation gets its credit back, and its job leaves the queue', async () => {
    const { user, id } = await acceptedGeneration(t, 1);
    const res = await t.request.delete(`/api/v1/queue/cancel/${id}`).set(bearer(user.token));
    expect(res.status).toBe(200);
    expect(ZQueueTaskSchema.parse(res.body).status).toBe('cancelled');
    expect(await balance(t, user.id)).toBe(1);
    expect(await generationJob(t, 'generation', 'studio', id)).toBeNull();
    const again = await t.request.delete(`/api/v1/queue/cancel/${id}`).set(bearer(user.token));
    expect(again.status).toBe(409);
    expect(await balance(t, user.id)).toBe(1);
  });

  it('a generation no worker serves fails and gets its credit back', async () => {
    const { user, id } = await acceptedGeneration(t, 1);
    const failed = await t.c.queue.failUnservedTasks(new Date(Date.now() + 60 * 60_000));
    expect(failed).toContain(id);
    expect(await taskRow(t, id)).toMatchObject({
      status: 'failed',
      error_message: MESSAGES.noWorkerForGeneration,
    });
    expect(await balance(t, user.id)).toBe(1);
  });
});

describe('models', () => {
  it("another user's model is not found, and nothing changes", async () => {
    const owner = await creditUser(t, 1);
    const modelId = await trainedModel(t, owner.id);
    const other = await creditUser(t, 1);
    const before = await footprint(t, other.id);
    const res = await generate(t, other, TRAINED, { model_id: modelId });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe(MESSAGES.modelNotFound);
    const missing = await generate(t, other, TRAINED, { model_id: randomUUID() });
    expect(missing.status).toBe(404);
    expect(await footprint(t, other.id)).toEqual(before);
  });

  it('refuses a model that has not finished training, or needs a retrain it cannot get', async () => {
    const user = await creditUser(t, 1);
    const pending = await trainedModel(t, user.id, { status: 'training' });
    const oldNoPhotos = await trainedModel(t, user.id, { artifact_format: 1 });
    const before = await footprint(t, user.id);
    const a = await generate(t, user, TRAINED, { model_id: pending });
    expect([a.status, a.body.detail]).toEqual([409, MESSAGES.modelNotReady]);
    const b = await generate(t, user, TRAINED, { model_id: oldNoPhotos });
    expect([b.status, b.body.detail]).toEqual([409, MESSAGES.retrainToGenerate]);
    expect(await footprint(t, user.id)).toEqual(before);
    // An old model whose photos are still there is accepted: the worker rebuilds it.
    const session = await completedSession(t, user.id, { usable: 10 });
    const oldWithPhotos = await trainedModel(t, user.id, {
      artifact_format: 1,
      session_id: session,
    });
    const c = await generate(t, user, TRAINED, { model_id: oldWithPhotos });
    expect(c.status).toBe(202);
  });
});

describe('the other Generate calls', () => {
  it('legacy /api/v1/inference/generate: no model given uses the latest completed one, the style picks the template', async () => {
    const user = await creditUser(t, 3, { gender: 'female' });
    const none = await generate(t, user, '/api/v1/inference/generate', {
      prompt: 'professional headshot in business attire',
      style: 'executive',
      num_images: 4,
    });
    expect(none.status).toBe(409);
    expect(none.body.detail).toBe(MESSAGES.uploadPhotosFirst);
    expect(await balance(t, user.id)).toBe(3);

    await trainedModel(t, user.id);
    const latest = await trainedModel(t, user.id);
    const res = await generate(t, user, '/api/v1/inference/generate', {
      prompt: 'professional headshot in business attire',
      style: 'executive',
      num_images: 4,
    });
    expect(res.status).toBe(202);
    const body = ZGenerationResultSchema.parse(res.body);
    expect(body.model_id).toBe(latest);
    // The executive category's first template for a woman (prof_31).
    expect(body.items[0]!.template_id).toBe('prof_31');

    const unknownStyle = await generate(t, user, '/api/v1/inference/generate', { style: 'gothic' });
    expect([unknownStyle.status, unknownStyle.body.detail]).toEqual([
      422,
      `style: ${MESSAGES.styleNotFound}`,
    ]);
    expect(await balance(t, user.id)).toBe(2);
  });

  it('without a model, restyles the best checked photo on the default engine', async () => {
    const user = await creditUser(t, 2);
    const session = await completedSession(t, user.id, { usable: 3, unusable: 1 });
    const photos = await t.c.db
      .selectFrom('photos')
      .select(['id', 'usable'])
      .where('session_id', '=', session)
      .orderBy('created_at')
      .execute();
    // The sharpest usable photo is the best; an unusable one never is, however sharp.
    const sharpness = [40, 95, 60, 500];
    for (const [i, photo] of photos.entries())
      await t.c.db
        .updateTable('photos')
        .set({ analysis: JSON.stringify({ sharpness: sharpness[i] }), usable: i < 3 })
        .where('id', '=', photo.id)
        .execute();
    const res = await generate(t, user, '/api/v1/inference/generate', { style: 'professional' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const body = ZGenerationResultSchema.parse(res.body);
    expect(body.model_id).toBeNull();
    const row = await generationRow(t, body.id);
    expect(row.source_photo_id).toBe(photos[1]!.id);
    expect(row.model_id).toBeNull();
    expect((await taskRow(t, body.id)).engine_kind).toBe('studio');
    expect(await balance(t, user.id)).toBe(1);
    // The prompt names the person with the default trigger word.
    expect(body.prompt).toMatch(/\bperson\b/);
  });

  it('premium /api/v1/inference/generate with a model, and the post-payment /inference/generate', async () => {
    const user = await creditUser(t, 2);
    const modelId = await trainedModel(t, user.id);
    const premium = await generate(t, user, '/api/v1/inference/generate', {
      style: 'creative',
      prompt: 'x',
      num_images: 4,
      model_id: modelId,
    });
    expect(premium.status).toBe(202);
    expect(ZGenerationResultSchema.parse(premium.body).items[0]!.template_id).toBe('prof_41');
    const postPayment = await generate(t, user, '/inference/generate', {
      prompt: 'professional person',
      num_images: 4,
      width: 1024,
      height: 1024,
    });
    expect(postPayment.status).toBe(202);
    const body = ZGenerationResultSchema.parse(postPayment.body);
    expect((await generationRow(t, body.id)).size).toBe(1024);
    const notSquare = await generate(t, user, '/inference/generate', { width: 1024, height: 512 });
    expect([notSquare.status, notSquare.body.detail]).toEqual([422, MESSAGES.squareImagesOnly]);
    expect(await balance(t, user.id)).toBe(0);
  });

  it('/models/generate-image takes a form with the template used', async () => {
    const user = await creditUser(t, 1);
    await trainedModel(t, user.id);
    const res = await t.request
      .post('/models/generate-image')
      .set(bearer(user.token))
      .set('Idempotency-Key', randomUUID())
      .field('prompt', 'not used on this plan')
      .field('template_used', 'prof_12')
      .field('variant', '2');
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const body = ZGenerationResultSchema.parse(res.body);
    expect(body.items).toEqual([
      {
        template_id: 'prof_12',
        variant: 2,
        prompt: expect.stringContaining('sks') as string,
        prompt_applied: false,
        prompt_note: MESSAGES.promptNeedsPlan,
      },
    ]);
    const unknown = await t.request
      .post('/models/generate-image')
      .set(bearer(user.token))
      .set('Idempotency-Key', randomUUID())
      .field('template_used', 'prof_99');
    expect([unknown.status, unknown.body.detail]).toEqual([404, MESSAGES.templateNotFound]);
    // A variant the template does not have is as unknown (schemathesis' rule: a schema-valid
    // request is never refused as malformed).
    const noVariant = await t.request
      .post('/models/generate-image')
      .set(bearer(user.token))
      .set('Idempotency-Key', randomUUID())
      .field('template_used', 'prof_1')
      .field('variant', '8');
    expect([noVariant.status, noVariant.body.detail]).toEqual([404, MESSAGES.templateNotFound]);
  });

  it('/generation/flux-generate records the spec defaults and the seed', async () => {
    const user = await creditUser(t, 2);
    const modelId = await trainedModel(t, user.id);
    const res = await generate(t, user, '/generation/flux-generate', {
      prompt: 'x',
      model_id: modelId,
      seed: 42,
    });
    expect(res.status).toBe(202);
    const id = ZGenerationResultSchema.parse(res.body).id;
    expect(await generationRow(t, id)).toMatchObject({ seed: 42, size: 1024, images_per_item: 4 });
    expect((await taskRow(t, id)).params).toMatchObject({ steps: 20, guidance_scale: 2.5 });
    const custom = await generate(t, user, '/generation/flux-generate', {
      model_id: modelId,
      width: 512,
      height: 512,
      steps: 30,
      guidance_scale: 4,
    });
    const customId = ZGenerationResultSchema.parse(custom.body).id;
    expect((await generationRow(t, customId)).size).toBe(512);
    expect((await taskRow(t, customId)).params).toMatchObject({ steps: 30, guidance_scale: 4 });
  });

  it('queue submit and start-queued: a generation and a batch of templates, one credit each', async () => {
    // Premium: its plan allows the high priority asked for.
    const user = await creditUser(t, 5, { plan_type: 'premium' });
    const modelId = await trainedModel(t, user.id);
    const batch = await t.request
      .post('/api/v1/queue/submit')
      .set(bearer(user.token))
      .set('Idempotency-Key', randomUUID())
      .send({
        task_type: 'batch_generation',
        priority: 'high',
        params: { model_id: modelId, template_ids: ['prof_2', 'prof_22', 'prof_42'] },
      });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    const task = ZQueueTaskSchema.parse(batch.body);
    expect(task).toMatchObject({
      task_type: 'batch_generation',
      priority: 'high',
      status: 'queued',
    });
    expect((await generationRow(t, task.id)).items.map((i) => i.template_id)).toEqual([
      'prof_2',
      'prof_22',
      'prof_42',
    ]);
    expect(await generationJob(t, 'batch_generation', 'studio', task.id)).not.toBeNull();
    expect(await balance(t, user.id)).toBe(2);

    const single = await t.request
      .post('/api/v1/queue/generation/start-queued')
      .set(bearer(user.token))
      .send({ model_id: modelId, template_id: 'prof_5', idempotency_key: randomUUID() });
    expect(single.status).toBe(201);
    expect(ZQueueTaskSchema.parse(single.body).task_type).toBe('generation');
    expect(await balance(t, user.id)).toBe(1);

    // More templates than credits: refused whole.
    const tooMany = await t.request
      .post('/api/v1/queue/submit')
      .set(bearer(user.token))
      .set('Idempotency-Key', randomUUID())
      .send({
        task_type: 'batch_generation',
        params: { model_id: modelId, template_ids: ['prof_1', 'prof_2'] },
      });
    expect(tooMany.status).toBe(402);
    expect(await balance(t, user.id)).toBe(1);
  });
});

describe('generated images', () => {
  /** A user with one delivered generation of four images. */
  async function delivered() {
    const { user, id } = await acceptedGeneration(t, 1);
    const records = await deliver(t, user.id, id);
    const list = await t.request.get('/models/generated-images').set(bearer(user.token));
    expect(list.status).toBe(200);
    return { user, id, records, images: ZGeneratedImagesResponseSchema.parse(list.body).images };
  }

  it('lists the images newest first, paged, and only the owner sees them', async () => {
    const { user, id, images } = await delivered();
    expect(images).toHaveLength(4);
    expect(images.every((i) => i.generation_id === id)).toBe(true);
    const page = await t.request
      .get('/models/generated-images?limit=2&offset=1')
      .set(bearer(user.token));
    expect(ZGeneratedImagesResponseSchema.parse(page.body)).toMatchObject({
      total: 4,
      limit: 2,
      offset: 1,
    });
    expect(page.body.images.map((i: { id: string }) => i.id)).toEqual(
      images.slice(1, 3).map((i) => i.id),
    );
    const other = await creditUser(t, 0);
    const theirs = await t.request.get('/models/generated-images').set(bearer(other.token));
    expect(theirs.body).toMatchObject({ images: [], total: 0 });
    const bad = await t.request.get('/models/generated-images?limit=0').set(bearer(user.token));
    expect(bad.status).toBe(422);
    // The generation's own answer now has them too.
    const status = await t.request.get('/models/generated-images').set(bearer(user.token));
    expect(status.status).toBe(200);
  });

  it('favourite: an empty body toggles, {favorite} sets; another user gets 404', async () => {
    const { user, images } = await delivered();
    const path = `/models/generated-images/${images[0]!.id}/favorite`;
    const on = await t.request.post(path).set(bearer(user.token));
    expect([on.status, on.body.favorite]).toEqual([200, true]);
    const off = await t.request.post(path).set(bearer(user.token)).send({});
    expect(off.body.favorite).toBe(false);
    const set = await t.request.post(path).set(bearer(user.token)).send({ favorite: true });
    const setAgain = await t.request.post(path).set(bearer(user.token)).send({ favorite: true });
    expect([set.body.favorite, setAgain.body.favorite]).toEqual([true, true]);
    const other = await creditUser(t, 0);
    const theirs = await t.request.post(path).set(bearer(other.token)).send({ favorite: false });
    expect(theirs.status).toBe(404);
    const row = await t.c.db
      .selectFrom('generated_images')
      .select('favorite')
      .where('id', '=', images[0]!.id)
      .executeTakeFirstOrThrow();
    expect(row.favorite).toBe(true);
  });

  it('delete removes the row and both files; another user gets 404 and nothing changes', async () => {
    const { user, images, records } = await delivered();
    const [first, second] = images;
    const other = await creditUser(t, 0);
    const theirs = await t.request
      .delete(`/models/generated-images/${first!.id}`)
      .set(bearer(other.token));
    expect(theirs.status).toBe(404);
    expect(await t.c.storage.exists(records[0]!.imageKey)).toBe(true);

    const res = await t.request
      .delete(`/models/generated-images/${first!.id}`)
      .set(bearer(user.token));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MESSAGES.imageDeleted, id: first!.id });
    expect(await t.c.storage.exists(records[0]!.imageKey)).toBe(false);
    expect(await t.c.storage.exists(records[0]!.thumbnailKey)).toBe(false);
    expect(await t.c.storage.exists(records[1]!.imageKey)).toBe(true);
    const served = await t.request.get(first!.url);
    expect(served.status).toBe(404);
    const list = await t.request.get('/models/generated-images').set(bearer(user.token));
    expect(list.body.images.map((i: { id: string }) => i.id)).not.toContain(first!.id);
    expect(list.body.images.map((i: { id: string }) => i.id)).toContain(second!.id);
    const again = await t.request
      .delete(`/models/generated-images/${first!.id}`)
      .set(bearer(user.token));
    expect(again.status).toBe(404);
  });

  it('serves an image and its thumbnail only with a valid token for that image', async () => {
    const { images } = await delivered();
    const [first, second] = images;
    const thumb = await t.request.get(first!.thumbnail_url).buffer(true);
    expect(thumb.status).toBe(200);
    expect(Buffer.compare(thumb.body as Buffer, await jpeg({ r: 0, g: 10, b: 20 }))).toBe(0);

    const token = new URL(first!.url, 'http://x').searchParams.get('token')!;
    const [expiry, mac] = token.split('.');
    const tampered = `${expiry}.${mac!.slice(0, -2)}${mac!.endsWith('AA') ? 'BB' : 'AA'}`;
    const longer = `${Number(expiry) + 900}.${mac}`;
    const expired = new ImageTokens(`${TEST_JWT_SECRET}:images`).sign(
      first!.id,
      Date.now() - 3 * 3600_000,
    );
    const otherImage = new URL(second!.url, 'http://x').searchParams.get('token')!;
    for (const bad of [tampered, longer, expired, otherImage, '']) {
      for (const path of [
        `/images/generated/${first!.id}`,
        `/images/generated/${first!.id}/thumbnail`,
      ]) {
        const res = await t.request.get(`${path}?token=${encodeURIComponent(bad)}`);
        expect(res.status, `${path} ${bad}`).toBe(403);
        expect(res.body.detail).toBe(MESSAGES.imageLinkExpired);
      }
    }
    expect((await t.request.get(`/images/generated/${first!.id}`)).status).toBe(403);
  });

  it("another user's generation is not theirs to cancel or read", async () => {
    const { id } = await acceptedGeneration(t, 1);
    const other = await creditUser(t, 0);
    const cancel = await t.request.delete(`/api/v1/queue/cancel/${id}`).set(bearer(other.token));
    expect(cancel.status).toBe(404);
    const status = await t.request.get(`/api/v1/queue/status/${id}`).set(bearer(other.token));
    expect(status.status).toBe(404);
    expect((await taskRow(t, id)).status).toBe('queued');
  });
});
