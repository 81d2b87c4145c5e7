import type { Redis } from 'ioredis';
import type { Env } from '../env.js';
import { createMailer } from '../repositories/mailer.js';
import { RefreshGraceRepository } from '../repositories/refresh-grace.repository.js';
import { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import { TokensRepository } from '../repositories/tokens.repository.js';
import { UserCache } from '../repositories/user-cache.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { AccessCheck } from '../services/access-check.js';
import { AccountSettingsService } from '../services/account-settings.service.js';
import { AuthService } from '../services/auth.service.js';
import { DeviceCookies } from '../services/device-cookies.js';
import { PasswordHasher } from '../services/passwords.js';
import { AuthRateLimits } from '../services/rate-limits.js';
import type { AccessTokenConfig } from '../services/tokens.js';
import { UsersService } from '../services/users.service.js';
import type { Connections } from './connections.js';

/** The accounts area's slice of the container: sign-in, tokens, the profile, the settings page. */
export interface AccountsArea {
  accessToken: AccessTokenConfig;
  /** The one access-token check, for HTTP and /ws. */
  accessCheck: AccessCheck;
  revocations: SessionRevocationsRepository;
  auth: AuthService;
  users: UsersService;
  userCache: UserCache;
  /** The settings page: sign-ins, password change. */
  accountSettings: AccountSettingsService;
}

/** What the accounts area lends the privacy area, whose account deletion checks and revokes. */
export interface AccountsForOtherAreas {
  usersRepository: UsersRepository;
  /** bcrypt, bounded to BCRYPT_CONCURRENCY at once. */
  passwords: PasswordHasher;
  /** Sign-in, sign-up and password-reset limits (the account deletion's password check too). */
  authLimits: AuthRateLimits;
  /** Answers of just-rotated refresh tokens, for their grace window. */
  refreshGrace: RefreshGraceRepository;
}

/** The refresh tokens' grace answers, as the deployment keeps them (tests read their keys). */
export function refreshGraceOf(env: Env, redis: Redis): RefreshGraceRepository {
  return new RefreshGraceRepository(
    redis,
    env.REDIS_PREFIX,
    `${env.JWT_SECRET}:refresh-grace`,
    env.REFRESH_GRACE_SECONDS,
  );
}

/** Wires the accounts area from its settings, and what it lends the other areas. */
export function createAccountsArea(
  env: Env,
  shared: Pick<Connections, 'db' | 'redis' | 'logger'>,
): { accounts: AccountsArea; lent: AccountsForOtherAreas } {
  const { db, redis, logger } = shared;
  const accessToken: AccessTokenConfig = {
    secret: env.JWT_SECRET,
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    ttlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
  };
  const userCache = new UserCache(env.DATABASE_URL, logger);
  const usersRepo = new UsersRepository(db, userCache);
  const revocations = new SessionRevocationsRepository(
    redis,
    env.REDIS_PREFIX,
    env.ACCESS_TOKEN_TTL_SECONDS,
  );
  const mailer = createMailer({
    db,
    logger,
    transport: env.MAIL_TRANSPORT,
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
  });
  const passwords = new PasswordHasher(env.BCRYPT_COST, env.BCRYPT_CONCURRENCY);
  const authLimits = new AuthRateLimits(redis, env.REDIS_PREFIX, {
    login: {
      perAccount: env.LOGIN_MAX_PER_ACCOUNT,
      perAccountAddress: env.LOGIN_MAX_PER_ACCOUNT_ADDRESS,
      perIp: env.LOGIN_MAX_PER_IP,
      windowSeconds: env.LOGIN_WINDOW_SECONDS,
    },
    forgot: {
      perAccountAddress: env.FORGOT_MAX_PER_ACCOUNT_ADDRESS,
      perIp: env.FORGOT_MAX_PER_IP,
      windowSeconds: env.FORGOT_WINDOW_SECONDS,
    },
    reset: { points: env.RESET_MAX_PER_IP, windowSeconds: env.FORGOT_WINDOW_SECONDS },
    register: { points: env.REGISTER_MAX_PER_IP, windowSeconds: env.REGISTER_WINDOW_SECONDS },
  });
  const refreshGrace = refreshGraceOf(env, redis);
  const tokensRepo = new TokensRepository(db);
  const auth = new AuthService({
    config: {
      accessToken,
      refreshTokenTtlDays: env.REFRESH_TOKEN_TTL_DAYS,
      forgotPasswordMinMs: env.FORGOT_PASSWORD_MIN_MS,
      publicUrl: env.PUBLIC_URL,
    },
    users: usersRepo,
    tokens: tokensRepo,
    revocations,
    mailer,
    limits: authLimits,
    passwords,
    devices: new DeviceCookies(`${env.JWT_SECRET}:device-cookies`),
    grace: refreshGrace,
  });
  return {
    accounts: {
      accessToken,
      accessCheck: new AccessCheck(accessToken, revocations),
      revocations,
      auth,
      users: new UsersService(usersRepo),
      userCache,
      accountSettings: new AccountSettingsService({
        tokens: tokensRepo,
        revocations,
        users: usersRepo,
        passwords,
        limits: authLimits,
      }),
    },
    lent: { usersRepository: usersRepo, passwords, authLimits, refreshGrace },
  };
}
