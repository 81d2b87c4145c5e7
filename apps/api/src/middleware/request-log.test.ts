import { createLogger } from '@studioshot/observability';
import express from 'express';
import { EventEmitter, once } from 'node:events';
import { Writable } from 'node:stream';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { requestLog } from './request-log.js';

function appLogging() {
  const lines: Record<string, unknown>[] = [];
  const written = new EventEmitter();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      written.emit('line');
      done();
    },
  });
  /** Resolves once `count` lines are written (a request's line comes when its answer closes). */
  const linesWritten = async (count: number) => {
    while (lines.length < count) await once(written, 'line');
    return lines;
  };
  const logger = createLogger({ service: 'api', level: 'info', destination });
  const app = express();
  app.use(requestLog(logger, { quietPaths: ['/health'] }));
  app.get('/health', (_req, res) => res.json({}));
  app.post('/login', (req, res) => {
    // What a handler logs still goes through the redaction.
    req.log.info({ body: { password: 'hunter22' } }, 'signing in');
    res.status(201).json({});
  });
  app.get('/fails', (_req, res) => res.status(503).json({}));
  return { request: supertest(app), linesWritten };
}

describe('requestLog', () => {
  it('logs one line per answer: method, path without its query, status, time; quiet paths none', async () => {
    const { request, linesWritten } = appLogging();
    await request.get('/health').expect(200);
    const res = await request.post('/login?token=secret-image-token').expect(201);
    await request.get('/fails').expect(503);
    const lines = await linesWritten(3);
    expect(lines).toHaveLength(3);
    const [signingIn, login, failed] = lines as [
      Record<string, unknown>,
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    expect(signingIn).toMatchObject({ msg: 'signing in', body: { password: '[redacted]' } });
    expect(login).toMatchObject({
      msg: 'request completed',
      level: 30,
      service: 'api',
      req: { id: res.headers['x-request-id'], method: 'POST', url: '/login' },
      res: { statusCode: 201 },
    });
    expect(login.responseTime).toEqual(expect.any(Number));
    expect(JSON.stringify(lines)).not.toContain('secret-image-token');
    expect(failed).toMatchObject({ msg: 'request errored', level: 50, res: { statusCode: 503 } });
  });
});
