import type { AuthResponse, LoginRequest, RegisterRequest, TokenSet } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors.js';
import type { Mailer } from '../repositories/mailer.js';
import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import type { TokensRepository } from '../repositories/tokens.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { ActionRateLimit } from './rate-limits.js';
import { newOpaqueToken, sha256Hex, signAccessToken, type AccessTokenConfig } from './tokens.js';
import { toUserDto } from './users.service.js';

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface AuthConfig {
  accessToken: AccessTokenConfig;
  refreshTokenTtlDays: number;
  bcryptCost: number;
  forgotPasswordMinMs: number;
  publicUrl?: string;
}

export interface AuthDeps {
  config: AuthConfig;
  users: UsersRepository;
  tokens: TokensRepository;
  revocations: SessionRevocationsRepository;
  mailer: Mailer;
  loginLimit: ActionRateLimit;
  forgotLimit: ActionRateLimit;
}

export class AuthService {
  /** A real bcrypt hash to compare against when the e-mail is unknown, so timing matches. */
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly deps: AuthDeps) {}

  async register(input: RegisterRequest): Promise<AuthResponse> {
    const { users, config } = this.deps;
    const passwordHash = await hashPassword(input.password, config.bcryptCost);
    const user = await users.create({
      email: input.email,
      password_hash: passwordHash,
      name: input.name,
    });
    if (!user) throw new AppError('email_taken', MESSAGES.emailTaken);
    return { ...(await this.startSession(user.id)), user: toUserDto(user) };
  }

  async login(input: LoginRequest, ip: string): Promise<AuthResponse> {
    const { users, config, loginLimit } = this.deps;
    await loginLimit.consume(input.email, ip);
    const user = await users.findByEmail(input.email);
    this.dummyHash ??= hashPassword(newOpaqueToken(), config.bcryptCost);
    const ok = await verifyPassword(input.password, user?.password_hash ?? (await this.dummyHash));
    if (!user || !ok) throw new AppError('invalid_credentials', MESSAGES.invalidCredentials);
    await loginLimit.reset(input.email);
    return { ...(await this.startSession(user.id)), user: toUserDto(user) };
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    const { tokens, revocations } = this.deps;
    const next = newOpaqueToken();
    const result = await tokens.rotate(sha256Hex(refreshToken), sha256Hex(next));
    if (result.outcome === 'reused') {
      // A rotated token came back: someone holds a copy. End that whole sign-in.
      await tokens.revokeFamily(result.familyId, 'refresh token reuse');
      await revocations.revoke([result.familyId]);
    }
    if (result.outcome !== 'rotated') {
      throw new AppError('invalid_refresh_token', MESSAGES.invalidRefreshToken);
    }
    return this.tokenSet(result.userId, result.familyId, next);
  }

  async logout(sessionId: string): Promise<void> {
    await this.deps.tokens.revokeFamily(sessionId, 'logout');
    await this.deps.revocations.revoke([sessionId]);
  }

  /**
   * Same answer, in the same time, whether or not the e-mail has an account: the response is
   * held until a fixed floor that covers the work done for a known address.
   */
  async forgotPassword(
    email: string,
    ip: string,
  ): Promise<{ message: string; reset_token?: string }> {
    const { users, tokens, mailer, forgotLimit, config } = this.deps;
    const floor = sleep(config.forgotPasswordMinMs);
    await forgotLimit.consume(email, ip);
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

  async resetPassword(input: {
    email: string;
    reset_token: string;
    new_password: string;
  }): Promise<void> {
    const { tokens, revocations, config } = this.deps;
    const passwordHash = await hashPassword(input.new_password, config.bcryptCost);
    const consumed = await tokens.consumeResetToken({
      tokenHash: sha256Hex(input.reset_token),
      email: input.email,
      passwordHash,
    });
    if (!consumed) throw new AppError('invalid_reset_token', MESSAGES.invalidResetToken);
    // A new password signs out every existing session.
    const families = await tokens.revokeAllForUser(consumed.userId, 'password reset');
    await revocations.revoke(families);
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

  private async startSession(userId: string): Promise<TokenSet> {
    const { tokens, config } = this.deps;
    const familyId = randomUUID();
    const refreshToken = newOpaqueToken();
    await tokens.createFamily({
      familyId,
      userId,
      tokenHash: sha256Hex(refreshToken),
      expiresAt: new Date(Date.now() + config.refreshTokenTtlDays * 86_400_000),
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
