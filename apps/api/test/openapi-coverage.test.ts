import { MESSAGES, WS_PATH } from '@studioshot/contracts';
import { Router, type Express } from 'express';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createApp } from '../src/app.js';
import { createHttpServer } from '../src/server.js';
import { createTestApp, type TestApp } from './helpers.js';

/**
 * The OpenAPI document against what the app really serves: every (method, path) Express routes,
 * found by walking its router stack, is in /api/openapi.json, and every operation there is served.
 * /ws is documented as the GET that upgrades (with its messages in `x-websocket`): the socket
 * really opens there, and nowhere else.
 */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle: { stack?: Layer[] } & ((...args: never[]) => unknown);
  rawPath?: unknown;
  slash?: boolean;
  name: string;
}

interface Served {
  /** `get /models/generated-images/{id}` */
  operations: string[];
  /** Routes or mounts whose path is not a plain string path (a pattern), or middleware mounted on a path. */
  other: string[];
}

/** Express's `:name` as OpenAPI's `{name}` (the test's own conversion, not the app's). */
const templated = (expressPath: string) =>
  expressPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

/** Every route of the app's router and of the routers mounted in it, with the mount prefixes. */
function walk(stack: Layer[], prefix: string, served: Served): Served {
  for (const layer of stack) {
    if (layer.route) {
      const { path: routePath, methods } = layer.route;
      for (const method of Object.keys(methods).filter((m) => methods[m] && m !== '_all')) {
        if (typeof routePath === 'string') {
          served.operations.push(`${method} ${templated(prefix + routePath)}`);
        } else served.other.push(`${method} ${String(routePath)}`);
      }
    } else if (Array.isArray(layer.handle.stack)) {
      const mount = typeof layer.rawPath === 'string' && !layer.slash ? layer.rawPath : '';
      walk(layer.handle.stack, prefix + mount, served);
    } else if (typeof layer.rawPath === 'string' && !layer.slash && layer.rawPath !== '/') {
      served.other.push(`use ${prefix}${layer.rawPath} (${layer.name})`);
    }
  }
  return served;
}

function servedBy(app: Express): Served {
  const router = (app as unknown as { router: { stack: Layer[] } }).router;
  return walk(router.stack, '', { operations: [], other: [] });
}

interface Parameter {
  name: string;
  in: string;
  schema: { enum?: string[]; format?: string; pattern?: string };
}
interface Operation {
  parameters?: Parameter[];
  'x-websocket'?: unknown;
}
type Document = { paths: Record<string, Record<string, Operation>>; components: object };

function documented(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    METHODS.filter((method) => method in item).map((method) => `${method} ${template}`),
  );
}

/** A value of a path parameter its schema takes. */
function example(parameter: Parameter): string {
  if (parameter.schema.enum) return parameter.schema.enum[0]!;
  if (parameter.schema.format === 'uuid') return '3f1d6a2e-8c4b-4f7a-9e2d-5b6c7d8e9f01';
  if (parameter.name === 'file') return 'swagger-ui.css';
  return 'x';
}

/**
 * Served operations the document lacks. The ops console's calls alone are left out on purpose:
 * they answer 404 to all but admins, and the document does not advertise them either
 * (test/admin-console.test.ts walks them).
 */
const undocumentedOf = (operations: string[], inDocument: string[]) =>
  operations.filter((op) => !inDocument.includes(op) && !op.includes(' /api/v1/admin/'));

let t: TestApp;
let webDist: string;
let app: Express;
let document: Document;

beforeAll(async () => {
  // The web app's files too, so its routes (static files, the page for any other GET) are there.
  webDist = await mkdtemp(path.join(tmpdir(), 'studioshot-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Studioshot</title>');
  t = await createTestApp({ WEB_DIST: webDist });
  app = createApp(t.c);
  const res = await supertest(app).get('/api/openapi.json');
  expect(res.status).toBe(200);
  document = res.body as Document;
});
afterAll(async () => {
  await t.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('every route Express serves is in the OpenAPI document', () => {
  it('walks the router stack: the same operations as the document, none missing either way', () => {
    const served = servedBy(app);
    const inDocument = documented(document);
    const undocumented = undocumentedOf(served.operations, inDocument);
    const notServed = inDocument.filter((op) => !served.operations.includes(op));
    expect(undocumented, 'served but not in the document').toEqual([]);
    expect(notServed, 'in the document but not served').toEqual([]);
    // Every route, the unprefixed legacy ones, the webhook, /health, images and /ws included.
    expect(served.operations.length).toBeGreaterThan(60);
    for (const op of [
      'get /health',
      'post /api/v1/payments/webhook',
      'post /models/start-training',
      'post /inference/generate',
      'get /images/generated/{id}/thumbnail',
      'get /api/v1/upload/photos/{id}/thumbnail',
      'post /api/v1/payments/test/confirm-card',
      'get /ws',
      'get /api/openapi.json',
    ]) {
      expect(served.operations).toContain(op);
    }
  });

  it('a route added outside the declarations is found, mounted routers included', () => {
    const patched = createApp(t.c);
    const undeclared = Router();
    undeclared.post('/hidden/:id', (_req, res) => void res.end());
    patched.use('/api/v1/extra', undeclared);
    patched.delete('/api/v1/also-hidden', (_req, res) => void res.end());
    const inDocument = documented(document);
    expect(undocumentedOf(servedBy(patched).operations, inDocument)).toEqual([
      'post /api/v1/extra/hidden/{id}',
      'delete /api/v1/also-hidden',
    ]);
  });

  it('besides them, only the web app: its static files and its page for any other GET', () => {
    expect(servedBy(app).other.sort()).toEqual(['get /.*/', 'use /assets (serveStatic)'].sort());
  });

  it('each documented operation is answered by its route, not the 404 of an unknown address', async () => {
    for (const [template, item] of Object.entries(document.paths)) {
      for (const method of METHODS.filter((m) => m in item)) {
        const operation = item[method]!;
        let address = template;
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === 'path') {
            address = address.replace(`{${parameter.name}}`, example(parameter));
          }
        }
        const res = await supertest(app)[method](address);
        const where = `${method} ${template} -> ${res.status} ${JSON.stringify(res.body)}`;
        expect(res.status, where).not.toBe(405);
        if (res.status === 404) expect(res.body.detail, where).not.toBe(MESSAGES.notFound);
      }
    }
  });

  it('every reference in the document resolves to a component', () => {
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) {
      const name = /"#\/components\/schemas\/([^"]+)"/.exec(ref)?.[1];
      expect(name && schemas[name], ref).toBeTruthy();
    }
  });

  it('the test payment card step is documented only where it is served', async () => {
    const stripe = await createTestApp({
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
    });
    try {
      const doc = (await stripe.request.get('/api/openapi.json')).body as Document;
      expect(doc.paths).not.toHaveProperty(['/api/v1/payments/test/confirm-card']);
      expect(document.paths).toHaveProperty(['/api/v1/payments/test/confirm-card']);
    } finally {
      await stripe.close();
    }
  });
});

describe('/ws', () => {
  let server: ReturnType<typeof createHttpServer>;
  let origin: string;
  beforeAll(async () => {
    server = createHttpServer(t.c);
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.feed.close();
    await new Promise((resolve) => server.server.close(resolve));
  });

  /** The upgrade's outcome: 101 (the socket opened), or the status it was refused with. */
  function upgrade(address: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${origin.replace('http', 'ws')}${address}`, { origin });
      socket.once('upgrade', () => {
        socket.close();
        resolve(101);
      });
      socket.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('error', reject);
    });
  }

  it('is documented as the GET that upgrades, with the messages each way', () => {
    const upgrades = Object.entries(document.paths).filter(([, item]) => item.get?.['x-websocket']);
    expect(upgrades.map(([template]) => template)).toEqual([WS_PATH]);
    const operation = document.paths[WS_PATH]!.get as Record<string, unknown>;
    expect(operation.responses).toHaveProperty(['101']);
    expect(operation['x-websocket']).toMatchObject({
      clientMessage: { $ref: '#/components/schemas/WsClientMessage' },
      serverMessage: { $ref: '#/components/schemas/WsServerMessage' },
    });
  });

  it('opens a socket at the documented path, and nowhere else', async () => {
    expect(await upgrade(WS_PATH)).toBe(101);
    expect(await upgrade(`${WS_PATH}?x=1`)).toBe(101);
    for (const other of ['/ws2', '/api/ws', '/health']) expect(await upgrade(other)).toBe(404);
  });

  it('a plain GET (no Upgrade) is answered 426, as documented', async () => {
    const res = await supertest(server.server).get(WS_PATH);
    expect(res.status).toBe(426);
    expect(res.headers.upgrade).toBe('websocket');
    expect(res.body).toEqual({ code: 'upgrade_required', detail: MESSAGES.wsUpgradeRequired });
  });
});
