import type { RequestHandler } from 'express';
import onHeaders from 'on-headers';
import type { UserCache } from '../repositories/user-cache.js';

/**
 * A signed-in request that may have written (anything but GET and HEAD) drops its user's cached
 * profile as its answer goes out, after its writes committed: the next read, the client's own
 * refresh after paying or spending, sees them. Postgres's change announcement would drop it too,
 * but a moment later, on its own connection; other writers (the worker, webhooks, scheduled
 * jobs) rely on that announcement.
 */
export function freshProfileAfterWrites(cache: UserCache): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      onHeaders(res, () => {
        if (req.auth) cache.changed(req.auth.userId);
      });
    }
    next();
  };
}
