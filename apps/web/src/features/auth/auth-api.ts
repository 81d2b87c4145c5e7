import {
  MESSAGES,
  ZAuthResponseSchema,
  ZForgotPasswordResponseSchema,
  ZMessageResponseSchema,
  ZUserSchema,
  type AuthResponse,
  type User,
} from '@studioshot/contracts';
import { api } from '../../lib/api';
import { replaceUser, startSession } from './session-store';

/** The profile follows about 100 ms after login (product spec, section 4). */
export const PROFILE_REFRESH_DELAY_MS = 100;

export function fetchProfile(): Promise<User> {
  return api.get('/api/v1/users/profile', {
    schema: ZUserSchema,
    invalid: MESSAGES.profileLoadFailed,
  });
}

function scheduleProfileRefresh(): void {
  setTimeout(() => {
    fetchProfile().then(replaceUser, () => {
      // The login answer's user stays; a 401 is handled by the API client.
    });
  }, PROFILE_REFRESH_DELAY_MS);
}

/** Stores the token set and user of a login or register answer. */
function establishSession(answer: AuthResponse): User {
  startSession(answer, answer.user);
  scheduleProfileRefresh();
  return answer.user;
}

export async function login(credentials: { email: string; password: string }): Promise<User> {
  const answer = await api.post('/api/v1/auth/login', credentials, {
    anonymous: true,
    schema: ZAuthResponseSchema,
    invalid: MESSAGES.loginNoToken,
  });
  return establishSession(answer);
}

export async function register(input: {
  fullName: string;
  email: string;
  password: string;
}): Promise<User> {
  const answer = await api.post(
    '/api/v1/auth/register',
    { email: input.email, password: input.password, name: input.fullName.trim() },
    { anonymous: true, schema: ZAuthResponseSchema, invalid: MESSAGES.signupNoToken },
  );
  return establishSession(answer);
}

export async function requestPasswordReset(
  email: string,
): Promise<{ message: string; resetToken?: string }> {
  const answer = await api.post('/api/v1/auth/forgot-password', { email }, { anonymous: true });
  const parsed = ZForgotPasswordResponseSchema.safeParse(answer);
  if (!parsed.success) return { message: MESSAGES.forgotPasswordSent };
  return { message: parsed.data.message, resetToken: parsed.data.reset_token };
}

export async function resetPassword(input: {
  email: string;
  resetToken: string;
  newPassword: string;
}): Promise<string> {
  const answer = await api.post(
    '/api/v1/auth/reset-password',
    { email: input.email, reset_token: input.resetToken, new_password: input.newPassword },
    { anonymous: true },
  );
  const parsed = ZMessageResponseSchema.safeParse(answer);
  return parsed.success ? parsed.data.message : MESSAGES.passwordResetDone;
}
