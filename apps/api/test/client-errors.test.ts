import { ZErrorSchema } from '@studioshot/contracts';
import { sql } from 'kysely';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { bearer, createTestApp, registerUser, uniqueEmail, type TestApp } from './helpers.js';

/**
 * Requests a careless or hostile client sends: each is answered with a 4xx naming what is wrong
 * (never a 500, which means our bug), and changes nothing.
 */

let t: TestApp;
let work: string;
let uploadTmp: string;
let token: string;
let userId: string;
let sessionId: string;
let photo: Buffer;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'client-errors-'));
  uploadTmp = path.join(work, 'incoming');
  t = await createTestApp({ UPLOAD_TMP_DIR: uploadTmp, STORAGE_DIR: path.join(work, 'storage') });
  const user = await registerUser(t);
  token = user.tokens.access_token;
  const row = await t.c.db
    .updateTable('users')
    .set({ training_limit: 1, extra_training_slots: 1 })
    .where('email', '=', user.email)
    .returning('id')
    .executeTakeFirstOrThrow();
  userId = row.id;
  const session = await t.request
    .post('/api/v1/upload/create-session')
    .set(bearer(token))
    .send({ expected_files: 12, session_type: 'training' });
  expect(session.status).toBe(201);
  sessionId = session.body.session_id as string;
  photo = await sharp({
    create: { width: 640, height: 640, channels: 3, background: { r: 90, g: 120, b: 150 } },
  })
    .jpeg()
    .toBuffer();
});
afterAll(async () => {
  await t.close();
  await rm(work, { recursive: true, force: true });
});

/** Everything a refused request could have written. */
async function snapshot() {
  const { rows } = await sql<Record<string, number>>`
    SELECT (SELECT count(*) FROM users)::int AS users,
           (SELECT count(*) FROM refresh_tokens)::int AS tokens,
           (SELECT count(*) FROM photos)::int AS photos,
           (SELECT count(*) FROM models)::int AS models,
           (SELECT count(*) FROM tasks)::int AS tasks,
           (SELECT md5(string_agg(u::text, ',' ORDER BY id)) FROM users u) AS users_digest`.execute(
    t.c.db,
  );
  return rows[0];
}

function expectClientError(res: { status: number; body: unknown }, status: number, detail: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(ZErrorSchema.parse(res.body).detail).toMatch(detail);
}

/** Sends the bytes as they are (supertest would serialise a Buffer as JSON; its types say string). */
const asIs = (body: Buffer) => body as unknown as string;

const registration = () =>
  JSON.stringify({ email: uniqueEmail('charset'), password: 'correct horse', name: 'Zoë' });

describe('JSON bodies in a charset other than UTF-8', () => {
  it.each(['latin1', 'iso-8859-1', 'windows-1252', 'klingon', 'utf-99'])(
    'charset=%s -> 415 naming the charset',
    async (charset) => {
      const before = await snapshot();
      const res = await t.request
        .post('/api/v1/auth/register')
        .set('Content-Type', `application/json; charset=${charset}`)
        .serialize(asIs)
        .send(Buffer.from(registration(), 'latin1'));
      expectClientError(res, 415, new RegExp(`charset "${charset}".*UTF-8`, 'i'));
      expect(ZErrorSchema.parse(res.body).code).toBe('unsupported_media_type');
      expect(await snapshot()).toEqual(before);
    },
  );

  it('charset=utf-8 in any case is read as usual', async () => {
    const res = await t.request
      .post('/api/v1/auth/register')
      .set('Content-Type', 'application/json; charset=UTF-8')
      .serialize(asIs)
      .send(Buffer.from(registration(), 'utf8'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe('Content-Encoding that does not match the body', () => {
  it.each(['gzip', 'deflate', 'br'])(
    '%s declared, plain JSON sent -> 400 saying the body could not be decompressed',
    async (encoding) => {
      const before = await snapshot();
      const res = await t.request
        .post('/api/v1/auth/register')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .serialize(asIs)
        .send(Buffer.from(registration()));
      expectClientError(res, 400, new RegExp(`not valid ${encoding} data`));
      expect(ZErrorSchema.parse(res.body).code).toBe('bad_request');
      expect(await snapshot()).toEqual(before);
    },
  );

  it('a truncated gzip body -> 400', async () => {
    const before = await snapshot();
    const gzipped = zlib.gzipSync(registration());
    const res = await t.request
      .post('/api/v1/auth/register')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(asIs)
      .send(gzipped.subarray(0, gzipped.length - 12));
    expectClientError(res, 400, /not valid gzip data/);
    expect(await snapshot()).toEqual(before);
  });

  it('an unknown encoding -> 415 naming it', async () => {
    const res = await t.request
      .post('/api/v1/auth/register')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'compress')
      .serialize(asIs)
      .send(Buffer.from(registration()));
    expectClientError(res, 415, /"compress".*gzip, deflate or br/);
  });

  it.each([
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const)('a real %s body is read as usual', async (encoding, compress) => {
    const res = await t.request
      .post('/api/v1/auth/register')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', encoding)
      .serialize(asIs)
      .send(compress(registration()));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('the payment webhook (raw body) answers 400 too', async () => {
    const res = await t.request
      .post('/api/v1/payments/webhook')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(asIs)
      .send(Buffer.from('{"type":"payment_intent.succeeded"}'));
    expectClientError(res, 400, /not valid gzip data/);
  });
});

describe('malformed multipart uploads', () => {
  const BOUNDARY = '----studioshot-client-errors';
  const head = (headers: string) => Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`, 'latin1');
  const fileHeaders =
    'Content-Disposition: form-data; name="file"; filename="me.jpg"\r\nContent-Type: image/jpeg';
  const whole = () =>
    Buffer.concat([head(fileHeaders), photo, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);

  async function uploadState() {
    return { ...(await snapshot()), incoming: await readdir(uploadTmp).catch(() => []) };
  }

  const post = (contentType: string, body: Buffer) =>
    t.request
      .post(`/api/v1/upload/file/${sessionId}`)
      .set(bearer(token))
      .set('Content-Type', contentType)
      .serialize(asIs)
      .send(body);

  it.each([
    ['no boundary parameter', 'multipart/form-data', whole, /boundary/i],
    [
      'a boundary that never appears',
      'multipart/form-data; boundary=something-else',
      whole,
      /ended before|end of the form/i,
    ],
    [
      'a body cut off in the middle of the photo',
      `multipart/form-data; boundary=${BOUNDARY}`,
      () => whole().subarray(0, 400),
      /ended before|end of the form/i,
    ],
    [
      'a part header without a colon',
      `multipart/form-data; boundary=${BOUNDARY}`,
      () =>
        Buffer.concat([head('this is not a header'), photo, Buffer.from(`\r\n--${BOUNDARY}--`)]),
      /part header/i,
    ],
    [
      'a part header over the size limit',
      `multipart/form-data; boundary=${BOUNDARY}`,
      () =>
        Buffer.concat([
          head(`${fileHeaders}\r\nX-Padding: ${'a'.repeat(90_000)}`),
          photo,
          Buffer.from(`\r\n--${BOUNDARY}--`),
        ]),
      /part header/i,
    ],
  ])('%s -> 400 naming the problem, nothing stored', async (_case, contentType, body, detail) => {
    const before = await uploadState();
    const res = await post(contentType, body());
    expectClientError(res, 400, detail);
    expect(ZErrorSchema.parse(res.body).detail).toMatch(/multipart\/form-data/);
    expect(await uploadState()).toEqual(before);
  });

  it('the well-formed body is accepted (the session was open all along)', async () => {
    const res = await post(`multipart/form-data; boundary=${BOUNDARY}`, whole());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('a body that stops arriving (the connection ends mid-upload) leaves nothing behind', async () => {
    // A raw socket: a client that dies after sending part of its body.
    const server = http.createServer(createApp(t.c));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const before = await uploadState();
      const partial = whole().subarray(0, 600);
      const answer = await new Promise<{ status?: number; error?: string }>((resolve) => {
        const req = http.request({
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          method: 'POST',
          path: `/api/v1/upload/file/${sessionId}`,
          headers: {
            ...bearer(token),
            'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
            'Content-Length': String(whole().length),
          },
        });
        req.on('response', (res) => {
          res.resume();
          resolve({ status: res.statusCode });
        });
        req.on('error', (error) => resolve({ error: error.message }));
        req.write(partial, () => req.socket?.end());
      });
      // The server may still answer before it sees the end; if it does, it is a client error.
      if (answer.status !== undefined) expect(answer.status).toBeLessThan(500);
      // The half-written temp file goes once the request is over.
      await expect.poll(() => readdir(uploadTmp).catch(() => [])).toEqual(before.incoming);
      expect(await uploadState()).toEqual(before);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('malformed multipart forms elsewhere (/models/generate-image)', () => {
  const BOUNDARY = '----studioshot-form';
  const generateImage = (contentType: string, body: string) =>
    t.request
      .post('/models/generate-image')
      .set(bearer(token))
      .set('Content-Type', contentType)
      .serialize(asIs)
      .send(Buffer.from(body, 'latin1'));
  const field = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

  it.each([
    ['no boundary parameter', 'multipart/form-data', field('prompt', 'x'), /boundary/i],
    [
      'a body cut off inside a field',
      `multipart/form-data; boundary=${BOUNDARY}`,
      field('prompt', 'a portrait').slice(0, 60),
      /ended before|end of the form/i,
    ],
    [
      'a part header without a colon',
      `multipart/form-data; boundary=${BOUNDARY}`,
      `--${BOUNDARY}\r\nnot a header\r\n\r\nx\r\n--${BOUNDARY}--`,
      /part header/i,
    ],
    [
      'another multipart type',
      `multipart/mixed; boundary=${BOUNDARY}`,
      field('x', 'y'),
      /mixed|another multipart type/i,
    ],
    [
      'a file in a form that takes none',
      `multipart/form-data; boundary=${BOUNDARY}`,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nxx\r\n--${BOUNDARY}--`,
      /too many files/i,
    ],
  ])('%s -> 400 naming the problem, nothing queued', async (_case, contentType, body, detail) => {
    const before = await snapshot();
    const res = await generateImage(contentType, body);
    expectClientError(res, 400, detail);
    expect(await snapshot()).toEqual(before);
  });

  it('a NUL character in a form field -> 422 naming it', async () => {
    const before = await snapshot();
    const res = await generateImage(
      `multipart/form-data; boundary=${BOUNDARY}`,
      `${field('prompt', 'a\u0000b')}--${BOUNDARY}--`,
    );
    expectClientError(res, 422, /prompt.*NUL/);
    expect(await snapshot()).toEqual(before);
  });
});

describe('addresses', () => {
  it('a path parameter that is not valid percent-encoding -> 400', async () => {
    const res = await t.request.get('/api/v1/upload/session/%E0%A4%A/status').set(bearer(token));
    expectClientError(res, 400, /Failed to decode param.*not valid UTF-8/);
  });
});

describe('NUL characters in text', () => {
  it('in a name at sign-up -> 422 naming the field, no user created', async () => {
    const before = await snapshot();
    const res = await t.request
      .post('/api/v1/auth/register')
      .send({ email: uniqueEmail('nul'), password: 'correct horse', name: 'Ada\u0000Lovelace' });
    expectClientError(res, 422, /name.*NUL/);
    expect(ZErrorSchema.parse(res.body).code).toBe('validation_error');
    expect(await snapshot()).toEqual(before);
  });

  it('in an e-mail at sign-in -> 422', async () => {
    const res = await t.request
      .post('/api/v1/auth/login')
      .send({ email: 'a\u0000@example.com', password: 'correct horse' });
    expectClientError(res, 422, /email.*NUL/);
  });

  it('in a profile update -> 422, the profile unchanged', async () => {
    const before = await snapshot();
    const res = await t.request
      .patch('/api/v1/users/profile')
      .set(bearer(token))
      .send({ name: 'Grace\u0000Hopper' });
    expectClientError(res, 422, /name.*NUL/);
    expect(await snapshot()).toEqual(before);
  });

  it('in a model name at training start -> 422, no model, task or slot taken', async () => {
    // A session ready to train, so only the name stands between the request and the insert.
    const ready = await t.c.db
      .insertInto('upload_sessions')
      .values({
        user_id: userId,
        session_type: 'training',
        expected_files: 10,
        status: 'completed',
        expires_at: new Date(Date.now() + 3_600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await snapshot();
    const res = await t.request
      .post('/api/v1/training/start')
      .set(bearer(token))
      .send({ model_name: 'My\u0000model', session_id: ready.id });
    expectClientError(res, 422, /model_name.*NUL/);
    expect(await snapshot()).toEqual(before);
  });

  it('in a property name or a nested value -> 422 with its path', async () => {
    const res = await t.request
      .post('/api/v1/queue/submit')
      .set(bearer(token))
      .send({ task_type: 'generation', params: { prompt: 'x', tags: ['ok', 'b\u0000d'] } });
    expectClientError(res, 422, /params\.tags\.1.*NUL/);
    const key = await t.request
      .post('/api/v1/auth/login')
      .send({ email: 'a@example.com', password: 'x', 'evil\u0000key': 1 });
    expectClientError(key, 422, /NUL/);
  });

  it('in a query string -> 422', async () => {
    const res = await t.request.get('/models/training-status?training_id=%00').set(bearer(token));
    expectClientError(res, 422, /training_id.*NUL/);
  });
});
