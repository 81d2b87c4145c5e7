import { ADMIN_SESSION_COOKIE, MESSAGES } from '@studioshot/contracts';
import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors.js';
import type { AccessCheck } from '../services/access-check.js';
import type { AdminAccessService } from '../services/admin-access.service.js';
import { parseCookies } from '../services/device-cookies.js';
import { bearerToken } from './auth.js';

/**
 * Anyone but an admin gets the 404 of an unknown address from the ops console, signed in or not:
 * a 401 or 403 would tell them it is there.
 */
const hidden = () => new AppError('not_found', MESSAGES.notFound);

/** The admin API (`/api/v1/admin/...`): a valid bearer token of an admin, else 404. */
export function requireAdmin(access: AccessCheck, admins: AdminAccessService): RequestHandler {
  return async (req, _res, next) => {
    const claims = await access.claims(bearerToken(req.headers.authorization));
    if (!claims || !(await admins.isAdmin(claims.userId))) throw hidden();
    req.auth = claims;
    next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The queue console: the admin session cookie, checked against Redis, the sign-in it came from
 * and the role on every request, else 404. Its cookie is SameSite=Strict; a change must also come
 * from one of our own pages (Origin: a web origin, or this host's own), since the console takes
 * changes by plain JSON calls a form on another site could otherwise aim at it.
 */
export function requireAdminConsoleSession(
  admins: AdminAccessService,
  webOrigins: readonly string[],
): RequestHandler {
  return async (req, res, next) => {
    const token = parseCookies(req.headers.cookie).get(ADMIN_SESSION_COOKIE);
    if (!(await admins.sessionHolder(token))) throw hidden();
    if (!SAFE_METHODS.has(req.method) && !originAllowed(req, webOrigins)) {
      throw new AppError('forbidden', MESSAGES.adminCrossOrigin);
    }
    // The console's pages and answers are for this admin only, now.
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

function originAllowed(req: Request, webOrigins: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  if (webOrigins.includes(origin)) return true;
  try {
    // The API's own pages: the same host the request was sent to.
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
