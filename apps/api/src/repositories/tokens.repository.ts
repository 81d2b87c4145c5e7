import type { Db } from '@studioshot/db';
import { sql } from 'kysely';

/** Refresh-token families and password-reset tokens. Only hashes are stored. */
export class TokensRepository {
  constructor(private readonly db: Db) {}

  async createFamily(input: {
    familyId: string;
    userId: string;
    expiresAt: Date;
    tokenHash: string;
    /** Where the sign-in came from, for the account's sign-ins list. */
    userAgent?: string | null;
    ipAddress?: string | null;
  }): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('refresh_token_families')
        .values({
          id: input.familyId,
          user_id: input.userId,
          expires_at: input.expiresAt,
          user_agent: input.userAgent ?? null,
          ip_address: input.ipAddress ?? null,
          last_used_at: sql<Date>`now()`,
        })
        .execute();
      await trx
        .insertInto('refresh_tokens')
        .values({ token_hash: input.tokenHash, family_id: input.familyId })
        .execute();
    });
  }

  /**
   * Rotates a refresh token atomically: marks the presented one used (only if unused) and adds
   * its successor in the same family. The conditional update makes two concurrent uses of one
   * token impossible to both succeed. `beforeCommit` runs once the token is claimed, before the
   * rotation commits: a concurrent use of the same token waits on the row until then, so
   * whatever it records (the grace answer) is there when that use finds the token used.
   */
  async rotate(
    presentedHash: string,
    nextHash: string,
    beforeCommit: (claimed: { familyId: string; userId: string }) => Promise<void> = async () => {},
  ): Promise<
    | { outcome: 'rotated'; familyId: string; userId: string }
    | { outcome: 'reused'; familyId: string; userId: string; live: boolean }
    | { outcome: 'invalid' }
  > {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('refresh_tokens as t')
        .set({ used_at: sql`now()` })
        .from('refresh_token_families as f')
        .whereRef('f.id', '=', 't.family_id')
        .where('t.token_hash', '=', presentedHash)
        .where('t.used_at', 'is', null)
        .where('f.revoked_at', 'is', null)
        .where('f.expires_at', '>', sql<Date>`now()`)
        .returning(['t.family_id', 'f.user_id'])
        .executeTakeFirst();
      if (claimed) {
        await trx
          .insertInto('refresh_tokens')
          .values({ token_hash: nextHash, family_id: claimed.family_id })
          .execute();
        // A rotation is the sign-in being used: what the sign-ins list shows as 'last used'.
        await trx
          .updateTable('refresh_token_families')
          .set({ last_used_at: sql<Date>`now()` })
          .where('id', '=', claimed.family_id)
          .execute();
        await beforeCommit({ familyId: claimed.family_id, userId: claimed.user_id });
        return { outcome: 'rotated', familyId: claimed.family_id, userId: claimed.user_id };
      }
      const known = await trx
        .selectFrom('refresh_tokens as t')
        .innerJoin('refresh_token_families as f', 'f.id', 't.family_id')
        .select([
          't.family_id',
          't.used_at',
          'f.user_id',
          sql<boolean>`f.revoked_at is null and f.expires_at > now()`.as('live'),
        ])
        .where('t.token_hash', '=', presentedHash)
        .executeTakeFirst();
      if (known?.used_at)
        return {
          outcome: 'reused',
          familyId: known.family_id,
          userId: known.user_id,
          live: known.live,
        };
      return { outcome: 'invalid' };
    });
  }

  /** The sign-in a refresh token (current or already rotated) belongs to. */
  async familyOf(tokenHash: string): Promise<{ familyId: string; userId: string } | undefined> {
    const row = await this.db
      .selectFrom('refresh_tokens as t')
      .innerJoin('refresh_token_families as f', 'f.id', 't.family_id')
      .select(['t.family_id', 'f.user_id'])
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row && { familyId: row.family_id, userId: row.user_id };
  }

  async revokeFamily(familyId: string, reason: string): Promise<void> {
    await this.db
      .updateTable('refresh_token_families')
      .set({ revoked_at: sql`now()`, revoked_reason: reason })
      .where('id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * Revokes every live session of a user, but `except` (the one asking, when it stays signed
   * in); returns the family ids revoked.
   */
  async revokeAllForUser(userId: string, reason: string, except?: string): Promise<string[]> {
    let update = this.db
      .updateTable('refresh_token_families')
      .set({ revoked_at: sql`now()`, revoked_reason: reason })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (except) update = update.where('id', '!=', except);
    const rows = await update.returning('id').execute();
    return rows.map((r) => r.id);
  }

  /** Revokes one live session, only if it is this user's; whether it did. */
  async revokeOwnFamily(userId: string, familyId: string, reason: string): Promise<boolean> {
    const row = await this.db
      .updateTable('refresh_token_families')
      .set({ revoked_at: sql`now()`, revoked_reason: reason })
      .where('id', '=', familyId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A user's live sign-ins (neither revoked nor past their absolute expiry). */
  listLiveFamilies(userId: string) {
    return this.db
      .selectFrom('refresh_token_families')
      .select(['id', 'user_agent', 'ip_address', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('last_used_at', (ob) => ob.desc().nullsLast())
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** A new password set while signed in: outstanding reset links stop working. */
  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: new Date() })
        .where('id', '=', userId)
        .execute();
      await trx
        .updateTable('password_reset_tokens')
        .set({ used_at: sql`now()` })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    });
  }

  async createResetToken(input: {
    tokenHash: string;
    userId: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto('password_reset_tokens')
      .values({ token_hash: input.tokenHash, user_id: input.userId, expires_at: input.expiresAt })
      .execute();
  }

  /**
   * Whether a reset token is live for this e-mail (unused, unexpired): checked before any
   * password hashing, so a made-up token costs a single indexed read.
   */
  async isResetTokenLive(input: { tokenHash: string; email: string }): Promise<boolean> {
    const row = await this.db
      .selectFrom('password_reset_tokens as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select('r.user_id')
      .where('r.token_hash', '=', input.tokenHash)
      .where('u.email', '=', input.email)
      .where('r.used_at', 'is', null)
      .where('r.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Consumes a reset token and sets the new password in one transaction. Single use holds under
   * concurrency because the token is claimed by a conditional update.
   */
  async consumeResetToken(input: {
    tokenHash: string;
    email: string;
    passwordHash: string;
  }): Promise<{ userId: string } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('password_reset_tokens as r')
        .set({ used_at: sql`now()` })
        .from('users as u')
        .whereRef('u.id', '=', 'r.user_id')
        .where('r.token_hash', '=', input.tokenHash)
        .where('u.email', '=', input.email)
        .where('r.used_at', 'is', null)
        .where('r.expires_at', '>', sql<Date>`now()`)
        .returning('r.user_id')
        .executeTakeFirst();
      if (!claimed) return undefined;
      await trx
        .updateTable('users')
        .set({ password_hash: input.passwordHash, updated_at: new Date() })
        .where('id', '=', claimed.user_id)
        .execute();
      // Any other outstanding reset links die with this one.
      await trx
        .updateTable('password_reset_tokens')
        .set({ used_at: sql`now()` })
        .where('user_id', '=', claimed.user_id)
        .where('used_at', 'is', null)
        .execute();
      return { userId: claimed.user_id };
    });
  }
}
