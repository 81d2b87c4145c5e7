import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs middlewares one after the other as a single Express layer. Express's own step from one
 * layer to the next (matching the layer's path, the router's bookkeeping) is most of what a
 * small middleware costs; chained here, each step is one function call. The middlewares keep
 * Express's contract: `next()` goes on, `next(error)` (or a throw, or a rejected promise) leaves
 * the layer with the error, and `next('route')` leaves it as it would leave Express's route.
 */
export function inOneLayer(middlewares: readonly RequestHandler[]): RequestHandler {
  if (middlewares.length === 1) return middlewares[0]!;
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error || index === middlewares.length) return next(error);
      callMiddleware(middlewares[index++]!, req, res, step);
    };
    step();
  };
}

/** Calls a middleware as Express does: a throw or a rejected promise reaches `next` as an error. */
export function callMiddleware(
  middleware: RequestHandler,
  req: Request,
  res: Response,
  next: NextFunction,
): void {
  try {
    const result: unknown = middleware(req, res, next);
    if (result instanceof Promise) {
      result.then(undefined, (rejected: unknown) =>
        next(rejected ?? new Error('Rejected promise')),
      );
    }
  } catch (thrown) {
    next(thrown ?? new Error('Thrown without an error'));
  }
}
