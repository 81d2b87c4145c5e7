import type { NextFunction, Request, Response } from 'express';
import { unauthorized } from '../errors.js';
import type { AccessCheck } from '../services/access-check.js';
import type { Caller } from '../services/caller.js';
import type { AccessClaims } from '../services/tokens.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AccessClaims;
    }
  }
}

/** The token of an `Authorization: Bearer ...` header, if that is what it holds. */
export function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer ([A-Za-z0-9_.-]+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/** Requires a valid bearer access token whose session has not been revoked. */
export function requireAuth(access: AccessCheck) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const checked = access.check(bearerToken(req.headers.authorization));
    // A throw here, or a rejection, reaches the error handler as Express passes them on.
    if (checked instanceof Promise) return checked.then((claims) => admit(req, claims, next));
    admit(req, checked, next);
  };
}

function admit(req: Request, claims: AccessClaims | null, next: NextFunction): void {
  if (!claims) throw unauthorized();
  req.auth = claims;
  next();
}

/** The claims of an authenticated request (only after requireAuth). */
export function authOf(req: Request): AccessClaims {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

/** The caller of an authenticated request (only after requireAuth). */
export function callerOf(req: Request): Caller {
  const { userId, sessionId } = authOf(req);
  return { userId, sessionId, ip: req.ip ?? 'unknown' };
}
