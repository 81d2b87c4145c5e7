import {
  MESSAGES,
  ZAuthResponseSchema,
  ZForgotPasswordResponseSchema,
  ZMessageResponseSchema,
  ZUserSchema,
  type User,
} from '@studioshot/contracts';
import { api } from '../../lib/api';
import { ApiError, CLIENT_ERROR_CODES } from '../../lib/api-client';
import { replaceUser, startSession } from './session-store';

/** The profile follows about 100 ms after login (product spec, section 4). */
export const PROFILE_REFRESH_DELAY_MS = 100;

function invalidResponse(detail: string): ApiError {
  return new ApiError({ status: 0, code: CLIENT_ERROR_CODES.invalidResponse, detail });
}

export async function fetchProfile(): Promise<User> {
  const parsed = ZUserSchema.safeParse(await api.get('/api/v1/users/profile'));
  if (!parsed.success) throw invalidResponse(MESSAGES.profileLoadFailed);
  return parsed.data;
}

function scheduleProfileRefresh(): void {
  setTimeout(() => {
    fetchProfile().then(replaceUser, () => {
      // The login answer's user stays; a 401 is handled by the API client.
    });
  }, PROFILE_REFRESH_DELAY_MS);
}

/** Stores the token set and user of a login or register answer, or fails with `failure`. */
function establishSession(answer: unknown, failure: string): User {
  const parsed = ZAuthResponseSchema.safeParse(answer);
  if (!parsed.success) throw invalidResponse(failure);
  startSession(parsed.data, parsed.data.user);
  scheduleProfileRefresh();
  return parsed.data.user;
}

export async function login(credentials: { email: string; password: string }): Promise<User> {
  const answer = await api.post('/api/v1/auth/login', credentials, { anonymous: true });
  return establishSession(answer, MESSAGES.loginNoToken);
}

export async function register(input: {
  fullName: string;
  email: string;
  password: string;
}): Promise<User> {
  const answer = await api.post(
    '/api/v1/auth/register',
    { email: input.email, password: input.password, name: input.fullName.trim() },
    { anonymous: true },
  );
  return establishSession(answer, MESSAGES.signupNoToken);
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
