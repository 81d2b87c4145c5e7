import { AppError } from '../errors.js';
import type { Caller } from './caller.js';
import type { PasswordHasher } from './passwords.js';
import type { AuthRateLimits } from './rate-limits.js';

/**
 * The signed-in caller's password, checked before a change only its owner may make (a new
 * password, deleting the account). Limited like sign-in attempts from a known device, so a stolen
 * access token is not enough to guess it; a wrong one is refused 403 with `wrongMessage`.
 */
export async function checkCallerPassword(
  deps: { limits: AuthRateLimits; passwords: PasswordHasher },
  caller: Caller,
  user: { email: string; password_hash: string },
  password: string,
  wrongMessage: string,
): Promise<void> {
  const attempt = await deps.limits.login(user.email, caller.ip, `session-${caller.sessionId}`);
  if (!(await deps.passwords.verify(password, user.password_hash)))
    throw new AppError('forbidden', wrongMessage);
  await attempt.succeeded();
}
