import {
  MESSAGES,
  type ChangePasswordRequest,
  type SignInSession,
  type SignOutResponse,
} from '@studioshot/contracts';
import Bowser from 'bowser';
import { AppError, unauthorized } from '../errors.js';
import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import type { TokensRepository } from '../repositories/tokens.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { checkCallerPassword } from './caller-password.js';
import type { PasswordHasher } from './passwords.js';
import type { Caller } from './caller.js';
import type { AuthRateLimits } from './rate-limits.js';

export interface AccountSettingsDeps {
  tokens: TokensRepository;
  revocations: SessionRevocationsRepository;
  users: UsersRepository;
  passwords: PasswordHasher;
  limits: AuthRateLimits;
}

/** Who is asking: the user, the sign-in their access token belongs to, and their address. */
/** 'Chrome on macOS' from a User-Agent header; what a person recognises their device by. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ?? '';
  const system = parsed.os.name ?? '';
  if (browser && system) return `${browser} on ${system}`;
  // Bowser answers '' for what it does not know.
  return browser || system || 'Unknown device';
}

/** An address as people write it: an IPv4 client on a dual-stack socket without its `::ffff:`. */
export function displayAddress(ip: string | null): string | null {
  return ip?.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1') ?? null;
}

/**
 * The signed-in side of sessions and passwords: the sign-ins list, ending one or all of them, and
 * changing the password. Every ending goes the way logout and password reset go: the family is
 * revoked in Postgres, then announced as revoked, which stops its access tokens at once.
 */
export class AccountSettingsService {
  constructor(private readonly deps: AccountSettingsDeps) {}

  async listSessions(caller: Caller): Promise<SignInSession[]> {
    const rows = await this.deps.tokens.listLiveFamilies(caller.userId);
    const sessions = rows.map((row) => ({
      id: row.id,
      device: describeDevice(row.user_agent),
      user_agent: row.user_agent,
      ip_address: displayAddress(row.ip_address),
      created_at: row.created_at.toISOString(),
      // The current sign-in is in use right now, whenever it last rotated its refresh token.
      last_used_at: (row.id === caller.sessionId
        ? new Date()
        : (row.last_used_at ?? row.created_at)
      ).toISOString(),
      current: row.id === caller.sessionId,
    }));
    return sessions.sort((a, b) => Number(b.current) - Number(a.current));
  }

  async signOutSession(caller: Caller, sessionId: string): Promise<SignOutResponse> {
    const { tokens, revocations } = this.deps;
    // Another user's sign-in is answered exactly like one that does not exist.
    if (!(await tokens.revokeOwnFamily(caller.userId, sessionId, 'signed out from settings')))
      throw new AppError('not_found', MESSAGES.signInNotFound);
    await revocations.revoke([sessionId]);
    return { message: MESSAGES.sessionSignedOut, signed_out: 1 };
  }

  /** Every sign-in of the account, this one included. */
  async signOutEverywhere(caller: Caller): Promise<SignOutResponse> {
    const { tokens, revocations } = this.deps;
    const ended = await tokens.revokeAllForUser(caller.userId, 'signed out everywhere');
    // The asking token ends too, even if its family had already been revoked meanwhile.
    await revocations.revoke([...new Set([...ended, caller.sessionId])]);
    return { message: MESSAGES.signedOutEverywhere, signed_out: ended.length };
  }

  /**
   * Checks the current password (limited like sign-in attempts from a known device, so a stolen
   * access token cannot be used to guess it), sets the new one, and signs out every other
   * sign-in; this one stays.
   */
  async changePassword(caller: Caller, input: ChangePasswordRequest): Promise<SignOutResponse> {
    const { users, passwords, tokens, revocations } = this.deps;
    const user = await users.findById(caller.userId);
    if (!user) throw unauthorized();
    await checkCallerPassword(
      this.deps,
      caller,
      user,
      input.current_password,
      MESSAGES.currentPasswordWrong,
    );
    await tokens.setPassword(user.id, await passwords.hash(input.new_password));
    const ended = await tokens.revokeAllForUser(user.id, 'password changed', caller.sessionId);
    await revocations.revoke(ended);
    return { message: MESSAGES.passwordChanged, signed_out: ended.length };
  }
}
