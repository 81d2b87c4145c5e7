import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { inOneLayer } from './one-layer.js';

/** An app whose one layer runs `middlewares`, then answers with what they did, or the error. */
function appWith(middlewares: RequestHandler[]) {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.seen = [];
    next();
  });
  app.use(inOneLayer(middlewares));
  app.get('/', (_req, res) => {
    res.json({ seen: res.locals.seen as string[] });
  });
  const onError: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    res.status(500).json({ seen: res.locals.seen as string[], error: (error as Error).message });
  };
  app.use(onError);
  return supertest(app);
}
const mark =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    (res.locals.seen as string[]).push(name);
    next();
  };

describe('inOneLayer', () => {
  it('runs the middlewares in order, then what follows the layer', async () => {
    const res = await appWith([mark('a'), mark('b'), mark('c')]).get('/');
    expect(res.body).toEqual({ seen: ['a', 'b', 'c'] });
  });

  it('goes on once a middleware that waits calls next', async () => {
    const later: RequestHandler = (_req, _res, next) => void setImmediate(next);
    const res = await appWith([mark('a'), later, mark('b')]).get('/');
    expect(res.body).toEqual({ seen: ['a', 'b'] });
  });

  it.each<[string, RequestHandler]>([
    ['next(error)', (_req, _res, next) => next(new Error('passed'))],
    [
      'a throw',
      () => {
        throw new Error('thrown');
      },
    ],
    ['a rejected promise', async () => Promise.reject(new Error('rejected'))],
  ])('leaves the layer with the error of %s, skipping the rest', async (_name, failing) => {
    const res = await appWith([mark('a'), failing, mark('b')]).get('/');
    expect(res.status).toBe(500);
    expect(res.body.seen).toEqual(['a']);
    expect(res.body.error).toMatch(/passed|thrown|rejected/);
  });
});
