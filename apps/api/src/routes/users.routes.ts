import { ZProfileUpdateRequestSchema } from '@studioshot/contracts';
import { Router, type RequestHandler } from 'express';
import { authOf } from '../middleware/auth.js';
import { parse } from '../middleware/validate.js';
import type { UsersService } from '../services/users.service.js';

export function usersRoutes(users: UsersService, requireAuth: RequestHandler): Router {
  const router = Router();
  router.use(requireAuth);
  router.get('/profile', async (req, res) => {
    res.json(await users.getProfile(authOf(req).userId));
  });
  router.patch('/profile', async (req, res) => {
    const changes = parse(ZProfileUpdateRequestSchema, req.body);
    res.json(await users.updateProfile(authOf(req).userId, changes));
  });
  return router;
}
