import {
  MESSAGES,
  ZForgotPasswordRequestSchema,
  ZLoginRequestSchema,
  ZLogoutRequestSchema,
  ZRefreshRequestSchema,
  ZRegisterRequestSchema,
  ZResetPasswordRequestSchema,
} from '@studioshot/contracts';
import { Router, type RequestHandler } from 'express';
import { authOf } from '../middleware/auth.js';
import { parse } from '../middleware/validate.js';
import type { AuthService } from '../services/auth.service.js';

export function authRoutes(auth: AuthService, requireAuth: RequestHandler): Router {
  const router = Router();
  const ipOf = (ip: string | undefined) => ip ?? 'unknown';

  router.post('/register', async (req, res) => {
    res.status(201).json(await auth.register(parse(ZRegisterRequestSchema, req.body)));
  });
  router.post('/login', async (req, res) => {
    res.json(await auth.login(parse(ZLoginRequestSchema, req.body), ipOf(req.ip)));
  });
  router.post('/refresh', async (req, res) => {
    res.json(await auth.refresh(parse(ZRefreshRequestSchema, req.body).refresh_token));
  });
  router.post('/logout', requireAuth, async (req, res) => {
    parse(ZLogoutRequestSchema, req.body);
    await auth.logout(authOf(req).sessionId);
    res.json({ message: MESSAGES.loggedOut });
  });
  router.post('/forgot-password', async (req, res) => {
    const { email } = parse(ZForgotPasswordRequestSchema, req.body);
    res.json(await auth.forgotPassword(email, ipOf(req.ip)));
  });
  router.post('/reset-password', async (req, res) => {
    await auth.resetPassword(parse(ZResetPasswordRequestSchema, req.body));
    res.json({ message: MESSAGES.passwordResetDone });
  });
  return router;
}
