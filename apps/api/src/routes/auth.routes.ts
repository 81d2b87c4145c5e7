import {
  MESSAGES,
  ZAuthResponseSchema,
  ZForgotPasswordRequestSchema,
  ZForgotPasswordResponseSchema,
  ZLoginRequestSchema,
  ZLogoutRequestSchema,
  ZMessageResponseSchema,
  ZRefreshRequestSchema,
  ZRefreshResponseSchema,
  ZRegisterRequestSchema,
  ZResetPasswordRequestSchema,
} from '@studioshot/contracts';
import type { Request, Response } from 'express';
import type { DeclaringRouter } from '../http/declare.js';
import { bearerToken } from '../middleware/auth.js';
import type { AuthService, Client, SignedIn } from '../services/auth.service.js';
import { parseCookies } from '../services/device-cookies.js';

/** Where the auth routes live: the device cookie is sent to these routes only. */
const AUTH_PATH = '/api/v1/auth';

/** The client's address as `trust proxy` resolves it, its cookies and its User-Agent. */
function clientOf(req: Request): Client {
  return {
    ip: req.ip ?? 'unknown',
    cookies: parseCookies(req.headers.cookie),
    userAgent: req.get('user-agent'),
  };
}

/** A sign-in's answer, making this browser a known device of the account. */
function signedIn(req: Request, res: Response, result: SignedIn): SignedIn['body'] {
  const { device } = result;
  res.cookie(device.name, device.value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: AUTH_PATH,
    maxAge: device.maxAgeMs,
  });
  return result.body;
}

const DEVICE_COOKIE =
  'Sets the device cookie (HttpOnly, path /api/v1/auth) that makes this browser a known device of the account: it is spared the per-account sign-in slow-down.';

export function authRoutes(api: DeclaringRouter, auth: AuthService): void {
  api.route(
    {
      method: 'post',
      path: `${AUTH_PATH}/register`,
      summary: 'Create an account',
      description: DEVICE_COOKIE,
      tag: 'auth',
      auth: 'none',
      body: ZRegisterRequestSchema,
      responses: { 201: ZAuthResponseSchema },
      errors: [409, 429],
    },
    async ({ req, res, body }) => signedIn(req, res, await auth.register(body, clientOf(req))),
  );

  api.route(
    {
      method: 'post',
      path: `${AUTH_PATH}/login`,
      summary: 'Sign in',
      description: DEVICE_COOKIE,
      tag: 'auth',
      auth: 'none',
      body: ZLoginRequestSchema,
      responses: { 200: ZAuthResponseSchema },
      errors: [401, 429],
    },
    async ({ req, res, body }) => signedIn(req, res, await auth.login(body, clientOf(req))),
  );

  api.route(
    {
      method: 'post',
      path: `${AUTH_PATH}/refresh`,
      summary: 'Rotate the refresh token',
      description:
        'Answers a new pair. A repeat with the same token within the grace window (a second tab) answers the same pair; a used token presented later revokes the whole sign-in.',
      tag: 'auth',
      auth: 'none',
      body: ZRefreshRequestSchema,
      responses: { 200: ZRefreshResponseSchema },
      errors: [401],
    },
    async ({ body }) => auth.refresh(body.refresh_token),
  );

  // A live access token, or the sign-in's refresh token in the body (an expired access token
  // must not keep a user from signing out), or both.
  api.route(
    {
      method: 'post',
      path: `${AUTH_PATH}/logout`,
      summary:
        'Sign out this session: by its access token, or by its refresh token in the body (an expired access token is no obstacle)',
      tag: 'auth',
      auth: 'optional',
      body: ZLogoutRequestSchema,
      responses: { 200: ZMessageResponseSchema },
    },
    async ({ req, body }) => {
      await auth.logout({
        accessToken: bearerToken(req.headers.authorization),
        refreshToken: body?.refresh_token,
      });
      return { message: MESSAGES.loggedOut };
    },
  );

  api.route(
    {
      method: 'post',
      path: `${AUTH_PATH}/forgot-password`,
      summary: 'Send a password reset code',
      description:
        'Answers the same, after the same delay, whether or not the address has an account.',
      tag: 'auth',
      auth: 'none',
      body: ZForgotPasswordRequestSchema,
      responses: { 200: ZForgotPasswordResponseSchema },
      errors: [429],
    },
    async ({ req, body }) => auth.forgotPassword(body.email, clientOf(req).ip),
  );

  api.route(
    {
      method: 'post',
      path: `${AUTH_PATH}/reset-password`,
      summary: 'Set a new password with a reset code',
      description: 'Signs out every session of the account.',
      tag: 'auth',
      auth: 'none',
      body: ZResetPasswordRequestSchema,
      responses: { 200: ZMessageResponseSchema },
      errors: [429],
    },
    async ({ req, body }) => {
      await auth.resetPassword(body, clientOf(req).ip);
      return { message: MESSAGES.passwordResetDone };
    },
  );
}
