import express from 'express';
import { IncomingMessage, ServerResponse } from 'node:http';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createExpressServer } from './express-server.js';

describe('createExpressServer', () => {
  it('creates requests and responses with the app’s prototypes, and Express serves them as usual', async () => {
    const app = express();
    app.get('/hello', (req, res) => {
      res.set('X-Seen-Host', req.get('host') ? 'yes' : 'no').json({
        query: req.query,
        sameApp: req.app === app && res.app === app,
        httpClasses: req instanceof IncomingMessage && res instanceof ServerResponse,
      });
    });
    // A mounted app switches the prototypes on its way in and restores them on its way out.
    const mounted = express();
    mounted.get('/', (req, res) => res.json({ mountedApp: req.app === mounted }));
    app.use('/mounted', mounted);
    app.get('/after-mounted', (req, res) => res.json({ sameApp: req.app === app }));

    const server = createExpressServer(app);
    // Before Express sees them: the objects the server built already have the app's prototypes,
    // so Express's own switch changes nothing.
    const born: boolean[] = [];
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      born.push(
        Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response,
      );
    });
    const client = supertest(server);

    const hello = await client.get('/hello?name=ada').expect(200);
    expect(hello.headers['x-seen-host']).toBe('yes');
    expect(hello.body).toEqual({ query: { name: 'ada' }, sameApp: true, httpClasses: true });
    expect((await client.get('/mounted').expect(200)).body).toEqual({ mountedApp: true });
    expect((await client.get('/after-mounted').expect(200)).body).toEqual({ sameApp: true });
    // Express's own 404 still answers what no route takes.
    await client.get('/nowhere').expect(404);
    expect(born).toEqual([true, true, true, true]);
  });
});
