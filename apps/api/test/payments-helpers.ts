import { expect } from 'vitest';
import { waitFor } from './generation-helpers.js';
import { bearer, type TestApp } from './helpers.js';

export const GOOD_CARD = {
  number: '4242 4242 4242 4242',
  expiry: '12/34',
  cvc: '123',
  name: 'Ada Lovelace',
};
export const DECLINED_CARD = { ...GOOD_CARD, number: '4000 0000 0000 0002' };

export interface Intent {
  payment_intent_id: string;
  client_secret: string;
  amount: number;
  currency: string;
}

export async function createIntent(
  t: TestApp,
  token: string,
  path: string,
  body: object = {},
): Promise<Intent> {
  const res = await t.request.post(path).set(bearer(token)).send(body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Intent;
}

/** The test provider's stand-in for Stripe.js: pay the intent with a card. */
export function payWithCard(t: TestApp, token: string, intent: Intent, card = GOOD_CARD) {
  return t.request.post('/api/v1/payments/test/confirm-card').set(bearer(token)).send({
    payment_intent_id: intent.payment_intent_id,
    client_secret: intent.client_secret,
    card,
  });
}

type ProfileMoney = { credits_balance: number; training_limit: number; plan_type: string };

export async function profileOf(t: TestApp, token: string) {
  return (await t.request.get('/api/v1/users/profile').set(bearer(token))).body as ProfileMoney;
}

/**
 * The profile once it shows `expected`. For reads after a provider event: the event's request is
 * not the user's, so the profile call may answer from its cache until Postgres's change
 * announcement reaches it, a moment later. Fails, with the last answer, if it never does.
 */
export async function profileReaches(
  t: TestApp,
  token: string,
  expected: Partial<ProfileMoney>,
): Promise<ProfileMoney> {
  let last: ProfileMoney | undefined;
  try {
    return await waitFor(
      async () => {
        last = await profileOf(t, token);
        const matches = Object.entries(expected).every(
          ([key, value]) => last![key as keyof ProfileMoney] === value,
        );
        return matches ? last : undefined;
      },
      `the profile to show ${JSON.stringify(expected)}`,
    );
  } catch (error) {
    expect(last).toMatchObject(expected);
    throw error;
  }
}

export async function countRows(t: TestApp) {
  const [payments, ledger] = await Promise.all([
    t.c.db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    t.c.db
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { payments: Number(payments.n), ledger: Number(ledger.n) };
}
