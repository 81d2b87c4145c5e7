import {
  ADMIN_COOKIE_PATH,
  ADMIN_QUEUES_PATH,
  ADMIN_SESSION_COOKIE,
  MESSAGES,
  ZAdminSessionSchema,
  ZFleetSchema,
} from '@studioshot/contracts';
import type { RequestHandler } from 'express';
import { AppError } from '../errors.js';
import { type DeclaringRouter } from '../http/declare.js';
import { authOf } from '../middleware/auth.js';
import type { AdminAccessService } from '../services/admin-access.service.js';
import type { FleetService } from '../services/fleet.service.js';

/**
 * The ops console's calls. Each answers 404 to anyone but an admin (`requireAdmin`), and none is
 * in the public API document.
 */
export function adminRoutes(
  api: DeclaringRouter,
  deps: { requireAdmin: RequestHandler; admins: AdminAccessService; fleet: FleetService },
): void {
  api.route(
    {
      method: 'post',
      path: '/api/v1/admin/session',
      summary: 'Open the queue console: a short-lived session cookie for its path',
      description: `Sets ${ADMIN_SESSION_COOKIE} (HttpOnly, Secure, SameSite=Strict, Path=${ADMIN_COOKIE_PATH}): the web app keeps its token in the page, which the console's own pages cannot read.`,
      tag: 'admin',
      auth: 'none',
      published: false,
      before: [deps.requireAdmin],
      responses: { 201: ZAdminSessionSchema },
      errors: [404],
    },
    async ({ req, res }) => {
      const { userId, sessionId } = authOf(req);
      const token = await deps.admins.openSession(userId, sessionId);
      // The role was checked a moment ago; one revoked since is no admin either.
      if (!token) throw new AppError('not_found', MESSAGES.notFound);
      res.cookie(ADMIN_SESSION_COOKIE, token, {
        httpOnly: true,
        secure: true,
        sameSite: 'strict',
        path: ADMIN_COOKIE_PATH,
        maxAge: deps.admins.sessionSeconds * 1000,
      });
      return { expires_in: deps.admins.sessionSeconds, console_path: ADMIN_QUEUES_PATH };
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/admin/fleet',
      summary: 'The fleet: workers online and their jobs, GPU seconds today, cost and waits',
      tag: 'admin',
      auth: 'none',
      published: false,
      before: [deps.requireAdmin],
      responses: { 200: ZFleetSchema },
      errors: [404],
    },
    () => deps.fleet.fleet(),
  );
}
