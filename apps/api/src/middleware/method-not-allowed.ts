import { MESSAGES } from '@studioshot/contracts';
import type { RequestHandler } from 'express';
import { AppError } from '../errors.js';

/** The methods an OpenAPI path item may hold. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Resource {
  pattern: RegExp;
  /** Upper case, as `Allow` lists them: the declared ones, HEAD with GET, and OPTIONS. */
  allowed: string[];
}

/** `/models/generated-images/{id}` -> a regex Express's own (non-strict, any case) routing agrees with. */
function templateToRegExp(template: string): RegExp {
  const source = template
    .split(/\{[^}/]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}/?$`, 'i');
}

/**
 * 405 Method Not Allowed, with `Allow`, for a request whose path is one the API serves but whose
 * method is not one it takes there (RFC 9110 15.5.6), instead of a 404 that says the address does
 * not exist. Mounted after every route, before the 404: `paths` is the OpenAPI document's, so the
 * answer lists exactly the methods the document declares for that path. An OPTIONS request for
 * such a path is answered here too, 200 with the same `Allow` (as Express answers it for a router
 * that has the path's routes, which the app's own routes would otherwise leave to the 404).
 */
export function methodNotAllowed(paths: Record<string, object>): RequestHandler {
  const resources: Resource[] = Object.entries(paths).map(([template, item]) => {
    const declared = METHODS.filter((method) => method in item).map((m) => m.toUpperCase());
    const allowed = new Set(declared);
    if (allowed.has('GET')) allowed.add('HEAD');
    allowed.add('OPTIONS');
    return { pattern: templateToRegExp(template), allowed: [...allowed] };
  });
  return (req, res, next) => {
    const resource = resources.find(({ pattern }) => pattern.test(req.path));
    if (!resource) {
      next();
      return;
    }
    const allow = resource.allowed.join(', ');
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', allow);
      res.status(200).type('text/plain').send(allow);
      return;
    }
    if (resource.allowed.includes(req.method)) {
      next();
      return;
    }
    next(
      new AppError(
        'method_not_allowed',
        MESSAGES.methodNotAllowed.replace('{method}', req.method).replace('{allowed}', allow),
        { headers: { Allow: allow } },
      ),
    );
  };
}
