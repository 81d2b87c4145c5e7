import { MESSAGES, SCHEDULED_JOBS, ZGenerationResultSchema } from '@studioshot/contracts';
import { endTask } from '@studioshot/db';
import { GENERATION_ORDER } from '@studioshot/pricing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balance,
  creditUser,
  deliver,
  generate,
  trainedModel,
  type GenUser,
} from './generation-helpers.js';
import { queueRefundsAtGenerationEnd } from '../src/money/area.js';
import { createTestApp, type TestApp } from './helpers.js';
import { createIntent, payWithCard, type Intent } from './payments-helpers.js';
import { completedSession } from './training-helpers.js';

/**
 * The $29 generation order of the post-payment page: the payment pays for exactly one
 * generation, bound to it, and is refunded when that generation fails for good.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ GENERATION_WAIT_MS: '0' });
});
afterAll(async () => {
  await t?.close();
});

const ORDER = '/api/v1/users/create-payment-intent';
const RESULTS_CALL = '/inference/generate';

/** A user with a trained model who has paid the $29 order (paid, not yet confirmed). */
async function paidOrder(user?: GenUser): Promise<{ user: GenUser; intent: Intent }> {
  const buyer = user ?? (await creditUser(t, 0));
  if (!user) await trainedModel(t, buyer.id);
  const intent = await createIntent(t, buyer.token, ORDER, { style: 'professional' });
  await payWithCard(t, buyer.token, intent).expect(200);
  return { user: buyer, intent };
}

/** What the results page sends; each call a fresh idempotency key, as a reload would make. */
function resultsCall(user: GenUser, intent: Intent | string) {
  return generate(t, user, RESULTS_CALL, {
    prompt: 'professional person',
    num_images: 4,
    width: 1024,
    height: 1024,
    style: 'professional',
    payment_intent: typeof intent === 'string' ? intent : intent.payment_intent_id,
  });
}

async function paymentOf(intent: Intent) {
  return t.c.db
    .selectFrom('payments')
    .selectAll()
    .where('provider_intent_id', '=', intent.payment_intent_id)
    .executeTakeFirstOrThrow();
}
async function refundedAtProvider(intent: Intent): Promise<number> {
  const row = await t.c.db
    .selectFrom('test_payment_intents')
    .select('amount_refunded')
    .where('id', '=', intent.payment_intent_id)
    .executeTakeFirstOrThrow();
  return row.amount_refunded;
}
async function generationsOf(userId: string) {
  return t.c.db
    .selectFrom('generations')
    .select(['id', 'payment_id'])
    .where('user_id', '=', userId)
    .execute();
}

describe('the generation order', () => {
  it('confirming it grants no credits: the payment itself pays for one generation', async () => {
    const { user, intent } = await paidOrder();
    const confirmed = await t.request
      .post('/api/v1/payments/confirm-payment')
      .set('Authorization', `Bearer ${user.token}`)
      .send({ payment_intent_id: intent.payment_intent_id });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ kind: 'generation', credits_awarded: 0 });
    expect(await balance(t, user.id)).toBe(0);
  });

  it('refunded under the money-back guarantee before it was used, it makes no generation', async () => {
    const { user, intent } = await paidOrder();
    await t.request
      .post('/api/v1/payments/confirm-payment')
      .set('Authorization', `Bearer ${user.token}`)
      .send({ payment_intent_id: intent.payment_intent_id })
      .expect(200);
    const payment = await paymentOf(intent);
    await t.request
      .post('/api/v1/payments/refunds')
      .set('Authorization', `Bearer ${user.token}`)
      .send({ payment_id: payment.id, reason: 'no_longer_needed' })
      .expect(200);
    expect(await refundedAtProvider(intent)).toBe(intent.amount);
    const res = await resultsCall(user, intent);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(MESSAGES.paymentRefunded);
    expect(await generationsOf(user.id)).toEqual([]);
  });

  it('makes one generation per payment: a reload answers the same generation and its images', async () => {
    const { user, intent } = await paidOrder();
    const first = await resultsCall(user, intent);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const accepted = ZGenerationResultSchema.parse(first.body);
    // Paid by the order, not by credits (the user has none).
    expect(accepted.credits_used).toBe(0);
    expect(accepted.cost).toBe(GENERATION_ORDER.price_cents / 100);

    const reload = await resultsCall(user, intent);
    expect(ZGenerationResultSchema.parse(reload.body).id).toBe(accepted.id);

    const images = await deliver(t, user.id, accepted.id);
    const done = await resultsCall(user, intent);
    expect(done.status).toBe(200);
    const result = ZGenerationResultSchema.parse(done.body);
    expect(result.id).toBe(accepted.id);
    expect(result.success).toBe(true);
    expect(result.images.map((i) => i.position)).toEqual(images.map((i) => i.position));
    const again = ZGenerationResultSchema.parse((await resultsCall(user, intent)).body);
    expect(again.images.map((i) => i.id)).toEqual(result.images.map((i) => i.id));

    expect(await generationsOf(user.id)).toHaveLength(1);
    expect(await balance(t, user.id)).toBe(0);
    expect((await paymentOf(intent)).status).toBe('succeeded');
  });

  it('concurrent calls for one payment make one generation', async () => {
    const { user, intent } = await paidOrder();
    const answers = await Promise.all(Array.from({ length: 6 }, () => resultsCall(user, intent)));
    const ids = new Set(answers.map((a) => ZGenerationResultSchema.parse(a.body).id));
    expect(ids.size).toBe(1);
    expect(await generationsOf(user.id)).toHaveLength(1);
  });

  it('without a model, the paid generation restyles the best checked photo', async () => {
    const user = await creditUser(t, 0);
    await completedSession(t, user.id, { usable: 2 });
    const { intent } = await paidOrder(user);
    const res = await resultsCall(user, intent);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const row = await t.c.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', ZGenerationResultSchema.parse(res.body).id)
      .executeTakeFirstOrThrow();
    expect(row.model_id).toBeNull();
    expect(row.source_photo_id).not.toBeNull();
  });

  it('is refused before any charge when there is nothing to make headshots from', async () => {
    const user = await creditUser(t, 0);
    const before = await t.c.db.selectFrom('payments').select('id').execute();
    const res = await t.request
      .post(ORDER)
      .set('Authorization', `Bearer ${user.token}`)
      .send({ style: 'professional' });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(MESSAGES.generationPaymentNeedsPhotos);
    expect(await t.c.db.selectFrom('payments').select('id').execute()).toHaveLength(before.length);
  });

  it("the spec's payload (no payment_intent, no key) uses the user's paid, unused order", async () => {
    const specPayload = { prompt: 'professional person', num_images: 4, width: 1024, height: 1024 };
    const { user, intent } = await paidOrder();
    const first = await generate(t, user, RESULTS_CALL, specPayload, null);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const id = ZGenerationResultSchema.parse(first.body).id;
    const payment = await paymentOf(intent);
    expect(await generationsOf(user.id)).toEqual([{ id, payment_id: payment.id }]);
    expect(await balance(t, user.id)).toBe(0);

    // The order is used, and an order whose card step has not paid it is none: credits would
    // pay, and this user has none.
    const again = await generate(t, user, RESULTS_CALL, specPayload, null);
    expect([again.status, again.body.detail]).toEqual([402, MESSAGES.insufficientCredits]);
    await createIntent(t, user.token, ORDER, {});
    const unpaid = await generate(t, user, RESULTS_CALL, specPayload, null);
    expect([unpaid.status, unpaid.body.detail]).toEqual([402, MESSAGES.insufficientCredits]);
    expect(await generationsOf(user.id)).toHaveLength(1);
    // A second paid order is found the same way, before any credit.
    const { intent: second } = await paidOrder(user);
    const paidAgain = await generate(t, user, RESULTS_CALL, specPayload, null);
    expect(paidAgain.status).toBe(202);
    expect((await generationsOf(user.id)).map((g) => g.payment_id)).toContain(
      (await paymentOf(second)).id,
    );
    // The legacy path under /api/v1 never spends an order.
    const { user: other } = await paidOrder();
    const legacy = await generate(t, other, '/api/v1/inference/generate', specPayload, null);
    expect(legacy.status).toBe(402);
    expect(legacy.body.detail).toBe(MESSAGES.insufficientCredits);
  });

  it('an unpaid, foreign or other kind of payment makes nothing and says why', async () => {
    const owner = await creditUser(t, 0);
    await trainedModel(t, owner.id);
    const unpaid = await createIntent(t, owner.token, ORDER, {});
    const notPaid = await resultsCall(owner, unpaid);
    expect([notPaid.status, notPaid.body]).toEqual([
      402,
      { detail: MESSAGES.paymentNotPaid, code: 'payment_required' },
    ]);

    const { intent } = await paidOrder();
    const foreign = await resultsCall(owner, intent);
    expect([foreign.status, foreign.body.detail]).toEqual([404, MESSAGES.paymentNotFound]);
    const unknown = await resultsCall(owner, 'pi_test_does_not_exist');
    expect(unknown.status).toBe(404);

    const credits = await createIntent(t, owner.token, '/api/v1/payments/create-credit-package', {
      package_id: 'starter_pack',
    });
    await payWithCard(t, owner.token, credits).expect(200);
    const wrongKind = await resultsCall(owner, credits);
    expect([wrongKind.status, wrongKind.body.detail]).toEqual([
      409,
      MESSAGES.paymentNotForGeneration,
    ]);
    expect(await generationsOf(owner.id)).toHaveLength(0);
  });

  // The refund moved to the generation's end: the end records it, the refund handler carries it
  // out, before any page asks (it used to start when the results page saw the failure).
  it('a paid generation that fails for good is refunded at the provider at its end, once', async () => {
    const { user, intent } = await paidOrder();
    const id = ZGenerationResultSchema.parse((await resultsCall(user, intent)).body).id;
    await endTask(t.c.db, id, {
      status: 'failed',
      message: 'Generation failed',
      errorMessage: 'The engine broke',
    });
    // What the refund job runs, before the results page asks again.
    expect(await t.c.generationOrders.refundDue()).toBe(1);
    expect(await refundedAtProvider(intent)).toBe(GENERATION_ORDER.price_cents);
    expect((await paymentOf(intent)).status).toBe('refunded');
    const failed = await resultsCall(user, intent);
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toBe(`The engine broke ${MESSAGES.generationOrderRefunded}`);

    // A reload and the handler again refund nothing more; the failed order makes no second generation.
    await resultsCall(user, intent);
    expect(await t.c.generationOrders.refundDue()).toBe(0);
    expect(await refundedAtProvider(intent)).toBe(GENERATION_ORDER.price_cents);
    expect(await generationsOf(user.id)).toHaveLength(1);
    expect(await balance(t, user.id)).toBe(0);
  });

  it("a failed paid generation's end records its refund in the same transaction, and the handler carries it out once", async () => {
    const { user, intent } = await paidOrder();
    const id = ZGenerationResultSchema.parse((await resultsCall(user, intent)).body).id;
    expect((await paymentOf(intent)).refund_due_at).toBeNull();
    await endTask(t.c.db, id, {
      status: 'failed',
      message: 'Generation failed',
      errorMessage: 'x',
    });
    // Recorded with the task's end; the money has not moved yet.
    expect(await paymentOf(intent)).toMatchObject({
      status: 'succeeded',
      refund_due_at: expect.any(Date),
    });
    expect(await refundedAtProvider(intent)).toBe(0);
    expect(await t.c.generationOrders.refundDue()).toBe(1);
    expect(await refundedAtProvider(intent)).toBe(GENERATION_ORDER.price_cents);
    expect(await t.c.generationOrders.refundDue()).toBe(0);
  });

  it("queues the refund job as soon as the API sees a paid generation's end", async () => {
    const stop = queueRefundsAtGenerationEnd(t.c);
    try {
      const { user, intent } = await paidOrder();
      const id = ZGenerationResultSchema.parse((await resultsCall(user, intent)).body).id;
      const queued = new Promise<void>((resolve) => {
        const off = t.c.taskEvents.onChange(async (change) => {
          if (change.taskId !== id) return;
          // The listener under test reads the same row; the job is added right after.
          for (;;) {
            if (await t.c.scheduled.job(`refund.${id}`)) break;
            await new Promise((next) => setImmediate(next));
          }
          off();
          resolve();
        });
      });
      await endTask(t.c.db, id, {
        status: 'failed',
        message: 'Generation failed',
        errorMessage: 'x',
      });
      await t.c.taskEvents.announce(id, { userId: user.id, taskType: 'generation' });
      await queued;
      expect(await t.c.scheduled.job(`refund.${id}`)).toMatchObject({
        name: SCHEDULED_JOBS.generationOrderRefunds,
      });
      // Once the handler has run, nothing is due for it any more.
      expect(await t.c.generationOrders.refundDue()).toBe(1);
      expect(await t.c.generationOrders.refundDueFor(id)).toBe(false);
      expect(await refundedAtProvider(intent)).toBe(GENERATION_ORDER.price_cents);
    } finally {
      stop();
    }
  });
});
