import {
  registrationName,
  type AuthResponse,
  type LoginRequest,
  type RegisterRequest,
  type TokenSet,
} from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, unauthorized } from '../errors.js';
import type { Mailer } from '../repositories/mailer.js';
import type { RefreshGraceRepository } from '../repositories/refresh-grace.repository.js';
import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import type { TokensRepository } from '../repositories/tokens.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { DeviceCookie, DeviceCookies } from './device-cookies.js';
import type { PasswordHasher } from './passwords.js';
import type { AuthRateLimits } from './rate-limits.js';
import {
  newOpaqueToken,
  sha256Hex,
  signAccessToken,
  verifyAccessToken,
  type AccessTokenConfig,
} from './tokens.js';
import { toUserDto } from './users.service.js';

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
const USER_AGENT_MAX_LENGTH = 512;

export interface AuthConfig {
  accessToken: AccessTokenConfig;
  refreshTokenTtlDays: number;
  forgotPasswordMinMs: number;
  publicUrl?: string;
}

export interface AuthDeps {
  config: AuthConfig;
  users: UsersRepository;
  tokens: TokensRepository;
  revocations: SessionRevocationsRepository;
  mailer: Mailer;
  limits: AuthRateLimits;
  passwords: PasswordHasher;
  devices: DeviceCookies;
  grace: RefreshGraceRepository;
}

/** Who is calling: the client's address (as `trust proxy` resolves it) and its cookies. */
export interface Client {
  ip: string;
  cookies: Map<string, string>;
  /** The User-Agent header: shown in the account's sign-ins list. */
  userAgent?: string;
}

/** A signed-in answer and the device cookie that makes this browser a known device. */
export interface SignedIn {
  body: AuthResponse;
  device: DeviceCookie;
}

export class AuthService {
  /** A real bcrypt hash to compare against when the e-mail is unknown, so timing matches. */
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly deps: AuthDeps) {}

  async register(input: RegisterRequest, client: Client): Promise<SignedIn> {
    const { users, passwords, limits, devices } = this.deps;
    await limits.register(client.ip);
    // A taken address costs no bcrypt (the insert below still settles a race).
    if (await users.findByEmail(input.email))
      throw new AppError('email_taken', MESSAGES.emailTaken);
    const passwordHash = await passwords.hash(input.password);
    const user = await users.create({
      email: input.email,
      password_hash: passwordHash,
      name: registrationName(input),
    });
    if (!user) throw new AppError('email_taken', MESSAGES.emailTaken);
    return {
      body: { ...(await this.startSession(user.id, client)), user: toUserDto(user) },
      device: devices.issue(user.id),
    };
  }

  async login(input: LoginRequest, client: Client): Promise<SignedIn> {
    const { users, passwords, limits, devices } = this.deps;
    const user = await users.findByEmail(input.email);
    const knownDevice = user
      ? devices.verify(user.id, client.cookies.get(devices.nameFor(user.id)))
      : null;
    const attempt = await limits.login(input.email, client.ip, knownDevice ?? undefined);
    this.dummyHash ??= passwords.hash(newOpaqueToken());
    const ok = await passwords.verify(
      input.password,
      user?.password_hash ?? (await this.dummyHash),
    );
    if (!user || !ok) throw new AppError('invalid_credentials', MESSAGES.invalidCredentials);
    await attempt.succeeded();
    return {
      body: { ...(await this.startSession(user.id, client)), user: toUserDto(user) },
      device: devices.issue(user.id, knownDevice ?? undefined),
    };
  }

  /**
   * Rotates a refresh token. A token rotated less than the grace window ago answers the same
   * new pair again (two tabs refreshing at once); any later use is taken as theft and ends the
   * whole sign-in.
   */
  async refresh(refreshToken: string): Promise<TokenSet> {
    const { tokens, revocations, grace } = this.deps;
    const next = newOpaqueToken();
    let answer: TokenSet | undefined;
    const result = await tokens.rotate(
      sha256Hex(refreshToken),
      sha256Hex(next),
      async ({ familyId, userId }) => {
        answer = this.tokenSet(userId, familyId, next);
        await grace.remember(refreshToken, answer);
      },
    );
    if (result.outcome === 'rotated' && answer) return answer;
    if (result.outcome === 'reused') {
      const again = result.live ? await grace.recall(refreshToken) : undefined;
      if (again) return again;
      // A rotated token came back after its grace: someone holds a copy. End that whole sign-in.
      await tokens.revokeFamily(result.familyId, 'refresh token reuse');
      await revocations.revoke([result.familyId]);
    }
    throw new AppError('invalid_refresh_token', MESSAGES.invalidRefreshToken);
  }

  /**
   * Ends a sign-in, named by a live access token, by a refresh token of it (current or already
   * rotated: a user whose access token expired can still sign out), or both.
   */
  async logout(input: { accessToken?: string | null; refreshToken?: string }): Promise<void> {
    const { tokens, revocations, config } = this.deps;
    const sessions = new Set<string>();
    if (input.accessToken) {
      const claims = verifyAccessToken(config.accessToken, input.accessToken);
      if (claims && !(await revocations.isRevoked(claims.sessionId)))
        sessions.add(claims.sessionId);
    }
    if (input.refreshToken) {
      const family = await tokens.familyOf(sha256Hex(input.refreshToken));
      if (family) sessions.add(family.familyId);
      else if (sessions.size === 0)
        throw new AppError('invalid_refresh_token', MESSAGES.invalidRefreshToken);
    }
    if (sessions.size === 0) throw unauthorized();
    for (const sessionId of sessions) await tokens.revokeFamily(sessionId, 'logout');
    await revocations.revoke([...sessions]);
  }

  /**
   * Same answer, in the same time, whether or not the e-mail has an account: the response is
   * held until a fixed floor that covers the work done for a known address.
   */
  async forgotPassword(
    email: string,
    ip: string,
  ): Promise<{ message: string; reset_token?: string }> {
    const { users, tokens, mailer, limits, config } = this.deps;
    const floor = sleep(config.forgotPasswordMinMs);
    await limits.forgotPassword(email, ip);
    const token = newOpaqueToken();
    const user = await users.findByEmail(email);
    if (user) {
      await tokens.createResetToken({
        tokenHash: sha256Hex(token),
        userId: user.id,
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      await mailer.send({
        to: user.email,
        kind: 'password_reset',
        subject: 'Reset your Studioshot password',
        text: this.resetEmailText(user.email, token),
      });
    }
    await floor;
    // With the outbox transport (no real mail) the token is handed back so the flow is usable;
    // unknown addresses get an equally-shaped token that matches nothing.
    return mailer.transport === 'outbox'
      ? { message: MESSAGES.forgotPasswordSent, reset_token: token }
      : { message: MESSAGES.forgotPasswordSent };
  }

  /**
   * The reset code is checked before any bcrypt, so made-up codes cost one indexed read; a
   * reset signs out every session and clears the account's rate-limit counters.
   */
  async resetPassword(
    input: { email: string; reset_token: string; new_password: string },
    ip: string,
  ): Promise<void> {
    const { tokens, revocations, passwords, limits } = this.deps;
    await limits.resetPassword(ip);
    const tokenHash = sha256Hex(input.reset_token);
    if (!(await tokens.isResetTokenLive({ tokenHash, email: input.email })))
      throw new AppError('invalid_reset_token', MESSAGES.invalidResetToken);
    const passwordHash = await passwords.hash(input.new_password);
    // Claimed again by a conditional update: of two resets racing with one code, one wins.
    const consumed = await tokens.consumeResetToken({
      tokenHash,
      email: input.email,
      passwordHash,
    });
    if (!consumed) throw new AppError('invalid_reset_token', MESSAGES.invalidResetToken);
    // A new password signs out every existing session.
    const families = await tokens.revokeAllForUser(consumed.userId, 'password reset');
    await revocations.revoke(families);
    // The owner is back in: whatever strangers ran up against the account is forgotten.
    await limits.clearAccount(input.email);
  }

  private resetEmailText(email: string, token: string): string {
    const base = this.deps.config.publicUrl ?? '';
    const link = `${base}/auth?reset_email=${encodeURIComponent(email)}&reset_token=${encodeURIComponent(token)}`;
    return [
      'Someone asked to reset the password of your Studioshot account.',
      '',
      `Open this link within one hour to choose a new password: ${link}`,
      '',
      `Or enter this reset code: ${token}`,
      '',
      'If it was not you, ignore this e-mail: your password stays as it is.',
    ].join('\n');
  }

  private async startSession(userId: string, client: Client): Promise<TokenSet> {
    const { tokens, config } = this.deps;
    const familyId = randomUUID();
    const refreshToken = newOpaqueToken();
    await tokens.createFamily({
      familyId,
      userId,
      tokenHash: sha256Hex(refreshToken),
      expiresAt: new Date(Date.now() + config.refreshTokenTtlDays * 86_400_000),
      // Kept short: it is only ever shown, and a client chooses what it sends.
      userAgent: client.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
      ipAddress: client.ip,
    });
    return this.tokenSet(userId, familyId, refreshToken);
  }

  private tokenSet(userId: string, sessionId: string, refreshToken: string): TokenSet {
    const { accessToken } = this.deps.config;
    return {
      access_token: signAccessToken(accessToken, userId, sessionId),
      refresh_token: refreshToken,
      token_type: 'bearer',
      expires_in: accessToken.ttlSeconds,
    };
  }
}
