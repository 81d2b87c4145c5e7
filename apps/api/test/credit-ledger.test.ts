import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers.js';
import { CreditLedgerRepository } from '../src/repositories/credit-ledger.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the credits ledger', () => {
  it('never goes negative and always equals the sum of its entries, under concurrent grants, spends and replays', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            delta: fc.integer({ min: -5, max: 5 }).filter((d) => d !== 0),
            key: fc.integer({ min: 0, max: 40 }),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        async (ops) => {
          const { res } = await registerUser(t);
          const userId = res.body.user.id as string;
          // Same key, same effect: a replayed key carries its first delta.
          const firstDelta = new Map<number, number>();
          for (const op of ops) if (!firstDelta.has(op.key)) firstDelta.set(op.key, op.delta);
          const results = await Promise.all(
            ops.map((op) =>
              new CreditLedgerRepository(t.c.db).apply({
                userId,
                delta: firstDelta.get(op.key)!,
                reason: 'property-test',
                idempotencyKey: `${userId}:${op.key}`,
              }),
            ),
          );
          const balance = await new CreditLedgerRepository(t.c.db).balanceOf(userId);
          const entries = await t.c.db
            .selectFrom('credit_ledger')
            .select(['delta', 'balance_after', 'idempotency_key'])
            .where('user_id', '=', userId)
            .execute();
          expect(balance).toBeGreaterThanOrEqual(0);
          expect(entries.reduce((sum, e) => sum + e.delta, 0)).toBe(balance);
          expect(new Set(entries.map((e) => e.idempotency_key)).size).toBe(entries.length);
          expect(results.filter((r) => r.outcome === 'applied')).toHaveLength(entries.length);
          for (const e of entries) expect(e.balance_after).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('refuses a spend larger than the balance and records nothing', async () => {
    const { res } = await registerUser(t);
    const userId = res.body.user.id as string;
    await new CreditLedgerRepository(t.c.db).apply({
      userId,
      delta: 3,
      reason: 'grant',
      idempotencyKey: `${userId}:g`,
    });
    expect(
      await new CreditLedgerRepository(t.c.db).apply({
        userId,
        delta: -4,
        reason: 'spend',
        idempotencyKey: `${userId}:s`,
      }),
    ).toEqual({
      outcome: 'insufficient',
    });
    expect(await new CreditLedgerRepository(t.c.db).balanceOf(userId)).toBe(3);
    expect(
      await new CreditLedgerRepository(t.c.db).apply({
        userId,
        delta: -3,
        reason: 'spend',
        idempotencyKey: `${userId}:s2`,
      }),
    ).toEqual({
      outcome: 'applied',
      balance: 0,
    });
  });

  it('is append-only', async () => {
    const { res } = await registerUser(t);
    const userId = res.body.user.id as string;
    await new CreditLedgerRepository(t.c.db).apply({
      userId,
      delta: 5,
      reason: 'grant',
      idempotencyKey: `${userId}:a`,
    });
    await expect(
      sql`UPDATE credit_ledger SET delta = 500 WHERE user_id = ${userId}`.execute(t.c.db),
    ).rejects.toThrow(/append-only/);
    await expect(
      sql`DELETE FROM credit_ledger WHERE user_id = ${userId}`.execute(t.c.db),
    ).rejects.toThrow(/append-only/);
  });
});
