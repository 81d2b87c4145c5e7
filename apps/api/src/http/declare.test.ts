import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { errorHandler } from '../middleware/errors.js';
import { buildOpenApiDocument } from '../openapi.js';
import { reply, RouteTable, type DeclaredRoute } from './declare.js';

const Thing = z.object({ id: z.string(), n: z.number().int() });

function appWith(declare: (table: RouteTable) => void) {
  const problems: string[] = [];
  const table = new RouteTable({
    requireAuth: (req, _res, next) => {
      if (req.headers.authorization !== 'Bearer ok') throw new Error('no token');
      req.auth = { userId: 'u1' } as never;
      next();
    },
    checkResponses: (_route: DeclaredRoute, status, problem) => {
      problems.push(`${status}: ${problem}`);
    },
  });
  declare(table);
  const app = express();
  app.use(express.json());
  for (const router of routers) app.use(router);
  routers.length = 0;
  app.use(table.checkErrors());
  app.use(errorHandler);
  return { request: supertest(app), problems, table };
}
const routers: express.IRouter[] = [];
const router = (table: RouteTable) => {
  const api = table.router();
  routers.push(api.express);
  return api;
};

describe('declare', () => {
  it('validates the parts it declares, in order, with the usual messages', async () => {
    const { request } = appWith((table) => {
      router(table).route(
        {
          method: 'post',
          path: '/things/:id',
          summary: 's',
          tag: 'system',
          auth: 'none',
          params: z.object({ id: z.uuid() }),
          notFound: { params: 'No such thing' },
          query: z.object({ n: z.coerce.number().int().optional() }),
          body: { schema: z.strictObject({ name: z.string() }), whenAbsent: { name: 'none' } },
          responses: { 200: Thing },
        },
        ({ params, query, body }) => ({ id: `${params.id}:${body.name}`, n: query.n ?? 0 }),
      );
    });
    const id = '3f1d6a2e-8c4b-4f7a-9e2d-5b6c7d8e9f01';
    expect((await request.post('/things/nope').send({ name: 'a' })).body).toEqual({
      code: 'not_found',
      detail: 'No such thing',
    });
    expect((await request.post(`/things/${id}?n=x`)).status).toBe(422);
    expect((await request.post(`/things/${id}`).send({ name: 1 })).body.detail).toMatch(/^name: /);
    expect((await request.post(`/things/${id}?n=2`)).body).toEqual({ id: `${id}:none`, n: 2 });
  });

  it('answers a reply with its status; checks answers against their declaration', async () => {
    const { request, problems } = appWith((table) => {
      const api = router(table);
      api.route(
        {
          method: 'get',
          path: '/a',
          summary: 's',
          tag: 'system',
          auth: 'required',
          responses: { 200: Thing, 202: Thing },
        },
        ({ userId }) => reply(202, { id: userId, n: 1 }),
      );
      api.route(
        {
          method: 'get',
          path: '/b',
          summary: 's',
          tag: 'system',
          auth: 'none',
          responses: { 200: Thing },
        },
        // A field the schema lacks, as a careless service might leak it.
        () => ({ id: 'x', n: 1, secret: 'y' }) as z.input<typeof Thing>,
      );
    });
    const a = await request.get('/a').set('Authorization', 'Bearer ok');
    expect([a.status, a.body]).toEqual([202, { id: 'u1', n: 1 }]);
    await request.get('/b');
    expect(problems).toEqual(['200: secret is not in the schema']);
  });

  it('reports an error answered with a status the route does not declare', async () => {
    const { request, problems } = appWith((table) => {
      const api = router(table);
      for (const [path, code] of [
        ['/conflict', 'conflict'],
        ['/gone', 'gone'],
      ] as const) {
        api.route(
          {
            method: 'post',
            path,
            summary: 's',
            tag: 'system',
            auth: 'none',
            responses: { 200: Thing },
            errors: [409],
          },
          () => {
            throw new AppError(code, 'No');
          },
        );
      }
    });
    expect((await request.post('/conflict')).status).toBe(409);
    expect(problems).toEqual([]);
    expect((await request.post('/gone')).status).toBe(410);
    expect(problems).toEqual(['410: error gone (No) is not a declared answer']);
  });

  it('serves a route without parameters by lookup, answering as Express would', async () => {
    const walked: string[] = [];
    const { request } = appWith((table) => {
      const api = router(table);
      // Express's layers after the lookup: a request the lookup serves never reaches them.
      api.express.use((req, _res, next) => {
        walked.push(`${req.method} ${req.path}`);
        next();
      });
      const spec = {
        method: 'get',
        summary: 's',
        tag: 'system',
        auth: 'none',
        responses: { 200: Thing },
      } as const;
      api.route({ ...spec, path: '/items/:id' }, () => ({ id: 'by id', n: 1 }));
      // Express routes /items/latest to the route above, declared first: so does the lookup.
      api.route({ ...spec, path: '/items/latest' }, () => ({ id: 'latest', n: 2 }));
      api.route({ ...spec, path: '/plain' }, () => ({ id: 'plain', n: 3 }));
      api.route({ ...spec, auth: 'required', path: '/mine' }, ({ userId }) => ({
        id: userId,
        n: 4,
      }));
    });
    for (const path of ['/plain', '/plain/', '/PLAIN']) {
      expect((await request.get(path)).body, path).toEqual({ id: 'plain', n: 3 });
    }
    expect((await request.get('/mine').set('Authorization', 'Bearer ok')).body).toEqual({
      id: 'u1',
      n: 4,
    });
    expect((await request.get('/mine')).status).toBe(500); // the test's auth throws
    expect(walked).toEqual([]);

    expect((await request.get('/items/latest')).body).toEqual({ id: 'by id', n: 1 });
    const head = await request.head('/plain');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    expect((await request.post('/plain')).status).toBe(404);
    expect(walked).toEqual(['GET /items/latest', 'HEAD /plain', 'POST /plain']);
  });

  it('refuses a route declared twice', () => {
    expect(() =>
      appWith((table) => {
        const spec = {
          method: 'get',
          path: '/x/:id',
          summary: 's',
          tag: 'system',
          auth: 'none',
          responses: { 200: Thing },
        } as const;
        router(table).route(spec, () => ({ id: 'x', n: 1 }));
        router(table).route({ ...spec, path: '/x/:other' }, () => ({ id: 'x', n: 1 }));
      }),
    ).toThrow(/declared twice/);
  });

  it('documents what it declares', () => {
    const { table } = appWith((t) => {
      router(t).route(
        {
          method: 'patch',
          path: '/things/:id',
          summary: 'Change a thing',
          tag: 'system',
          auth: 'required',
          params: z.object({ id: z.uuid() }),
          notFound: { params: 'No such thing' },
          headers: z.object({ 'X-Key': z.string().min(8).optional() }),
          body: z.strictObject({ n: z.number().int() }),
          responses: { 200: Thing, 204: { description: 'Nothing to change' } },
          errors: [409],
        },
        () => undefined,
      );
    });
    const document = buildOpenApiDocument(table.routes, 'v1');
    const operation = document.paths['/things/{id}']!.patch!;
    expect(operation).toMatchObject({
      operationId: 'patchThingsId',
      security: [{ bearer: [] }],
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        { name: 'X-Key', in: 'header', required: false, schema: { type: 'string', minLength: 8 } },
      ],
      requestBody: { required: true },
    });
    expect(Object.keys(operation.responses as object)).toEqual([
      '200',
      '204',
      '400',
      '401',
      '404',
      '409',
      '413',
      '415',
      '422',
    ]);
    const body = (
      operation.requestBody as { content: Record<string, { schema: { $ref: string } }> }
    ).content['application/json']!.schema.$ref;
    const name = body.split('/').pop()!;
    expect(document.components.schemas[name]).toMatchObject({ additionalProperties: false });
  });
});
