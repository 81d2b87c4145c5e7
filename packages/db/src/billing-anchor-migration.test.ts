import { Migrator, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from './client.js';
import { migrations } from './migrations/index.js';
import { createMigratedDatabase, dropDatabase } from './testing.js';

const adminUrl = process.env.STUDIOSHOT_PG_ADMIN_URL;
if (!adminUrl)
  throw new Error('STUDIOSHOT_PG_ADMIN_URL is not set: run the tests with `npm test`.');

const BILLING_ANCHOR = '20261126003100-billing-anchor';
const names = Object.keys(migrations).sort();
const before = names[names.indexOf(BILLING_ANCHOR) - 1]!;

let name: string;
let db: Db;
// The tables as they were before the migration: no billing_anchor column to type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let raw: Kysely<any>;
let migrator: Migrator;
beforeAll(async () => {
  name = await createMigratedDatabase(adminUrl);
  db = createDb(adminUrl.replace(/\/[^/]*$/, `/${name}`), { max: 2 });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  raw = db as unknown as Kysely<any>;
  migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  expect((await migrator.migrateTo(before)).error).toBeUndefined();
});
afterAll(async () => {
  await db.destroy();
  await dropDatabase(adminUrl, name);
});

const at = (iso: string) => new Date(`${iso}T10:00:00Z`);

async function user(): Promise<string> {
  const row = await raw
    .insertInto('users')
    .values({ email: `${Math.random()}@example.com`, password_hash: 'x', name: 'N' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id as string;
}

async function payment(userId: string, kind: 'subscription' | 'renewal'): Promise<string> {
  const row = await raw
    .insertInto('payments')
    .values({
      user_id: userId,
      provider: 'test',
      provider_intent_id: `pi_${Math.random()}`,
      kind,
      item_id: 'starter',
      amount_cents: 999,
      currency: 'usd',
      status: 'succeeded',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id as string;
}

/** Paid periods, each starting where the one before ended; the last is the running one. */
async function subscription(
  userId: string,
  periods: { start: string; end: string; paidBy: 'subscription' | 'renewal' | null }[],
  running = periods[periods.length - 1]!,
) {
  for (const period of periods) {
    await raw
      .insertInto('subscription_periods')
      .values({
        user_id: userId,
        tier: 'starter',
        billing_cycle: 'monthly',
        period_start: at(period.start),
        period_end: at(period.end),
        amount_cents: 999,
        status: 'paid',
        payment_id: period.paidBy ? await payment(userId, period.paidBy) : null,
      })
      .execute();
  }
  await raw
    .insertInto('subscriptions')
    .values({
      user_id: userId,
      tier: 'starter',
      billing_cycle: 'monthly',
      status: 'active',
      current_period_start: at(running.start),
      current_period_end: at(running.end),
    })
    .execute();
}

describe('the billing anchor migration', () => {
  it("gives each subscription its first period's start", async () => {
    // Bought on 31 January, renewed onto the 28th by the old arithmetic.
    const drifted = await user();
    await subscription(drifted, [
      { start: '2026-01-31', end: '2026-02-28', paidBy: 'subscription' },
      { start: '2026-02-28', end: '2026-03-28', paidBy: 'renewal' },
      { start: '2026-03-28', end: '2026-04-28', paidBy: 'renewal' },
    ]);
    // An earlier subscription that ended, then a new one bought and renewed.
    const again = await user();
    await subscription(again, [
      { start: '2026-01-05', end: '2026-02-05', paidBy: 'subscription' },
      { start: '2026-06-10', end: '2026-07-10', paidBy: 'subscription' },
      { start: '2026-07-10', end: '2026-08-10', paidBy: 'renewal' },
    ]);
    // A period recorded when periods were first kept (no payment), then renewed.
    const recorded = await user();
    await subscription(recorded, [
      { start: '2026-03-15', end: '2026-04-15', paidBy: null },
      { start: '2026-04-15', end: '2026-05-15', paidBy: 'renewal' },
    ]);
    // No period at all: its running period's start.
    const bare = await user();
    await subscription(bare, [], { start: '2026-05-20', end: '2026-06-20', paidBy: null });

    expect((await migrator.migrateTo(BILLING_ANCHOR)).error).toBeUndefined();
    const anchors = await db
      .selectFrom('subscriptions')
      .select(['user_id', 'billing_anchor'])
      .execute();
    const anchorOf = (userId: string) => anchors.find((a) => a.user_id === userId)?.billing_anchor;
    expect(anchorOf(drifted)).toEqual(at('2026-01-31'));
    expect(anchorOf(again)).toEqual(at('2026-06-10'));
    expect(anchorOf(recorded)).toEqual(at('2026-03-15'));
    expect(anchorOf(bare)).toEqual(at('2026-05-20'));

    // Every subscription has one from now on.
    await expect(
      raw
        .insertInto('subscriptions')
        .values({
          user_id: await user(),
          tier: 'starter',
          billing_cycle: 'monthly',
          status: 'active',
          current_period_start: at('2026-06-01'),
          current_period_end: at('2026-07-01'),
        })
        .execute(),
    ).rejects.toThrow(/billing_anchor/);
  });
});
