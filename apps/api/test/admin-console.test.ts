import { ADMIN_QUEUES_PATH, ADMIN_SESSION_COOKIE, MESSAGES, QUEUES } from '@studioshot/contracts';
import { Queue, Worker } from 'bullmq';
import type { Express } from 'express';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { bullPrefixOf } from '../src/areas/connections.js';
import { bearer, createTestApp, registerUser, uniqueEmail, type TestApp } from './helpers.js';

/**
 * The ops console: the role comes only from the command-line tool; every address under the admin
 * prefixes (found by walking Express's router stack, bull-board's own routes included) is a 404
 * for anyone but an admin; an admin mints the console's cookie, opens bull-board and retries a
 * failed job, and a change sent from another site's page is refused.
 */

const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);
const ADMIN_PREFIXES = [ADMIN_QUEUES_PATH, '/api/v1/admin'];
const WEB_ORIGIN = 'https://studioshot.example';

/** The command-line tool, run as an operator would, against the suite's database. */
async function adminCli(t: TestApp, ...args: string[]) {
  return run(path.join(API_ROOT, 'node_modules/.bin/tsx'), ['src/cli/admin.ts', ...args], {
    cwd: API_ROOT,
    env: { ...process.env, DATABASE_URL: t.c.env.DATABASE_URL },
  });
}

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle: { stack?: Layer[]; router?: { stack: Layer[] } };
  rawPath?: unknown;
  slash?: boolean;
  name: string;
}

interface Address {
  method: string;
  path: string;
}

/**
 * Every route of the app and of the routers and apps mounted in it, with the mount prefixes; a
 * mounted static folder (or other middleware on a path) as a GET of a file under it.
 */
function walk(stack: Layer[], prefix: string, found: Address[]): Address[] {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const routePath of paths.filter((p): p is string => typeof p === 'string')) {
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all')) {
          found.push({ method, path: prefix + routePath });
        }
      }
      continue;
    }
    const mount = typeof layer.rawPath === 'string' && !layer.slash ? layer.rawPath : '';
    const inner = layer.handle.stack ?? layer.handle.router?.stack;
    if (Array.isArray(inner)) walk(inner, prefix + mount, found);
    else if (mount) found.push({ method: 'get', path: `${prefix}${mount}/x.js` });
  }
  return found;
}

/** The addresses under the admin prefixes, each path parameter given a plausible value. */
function adminAddresses(app: Express): Address[] {
  const router = (app as unknown as { router: { stack: Layer[] } }).router;
  return walk(router.stack, '', [])
    .filter(({ path: p }) => ADMIN_PREFIXES.some((prefix) => p.startsWith(prefix)))
    .map(({ method, path: p }) => ({
      method,
      path: p
        .replace(':queueName', QUEUES.photoChecks)
        .replace(':queueStatus', 'failed')
        .replace(/:[A-Za-z]+/g, 'x'),
    }));
}

function cookieOf(res: supertest.Response): string {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = header.find((c) => c.startsWith(`${ADMIN_SESSION_COOKIE}=`));
  if (!cookie) throw new Error(`no ${ADMIN_SESSION_COOKIE} cookie in ${JSON.stringify(header)}`);
  return cookie;
}

let t: TestApp;
let app: Express;
let admin: Awaited<ReturnType<typeof registerUser>>;
let plain: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  t = await createTestApp({ WEB_ORIGINS: WEB_ORIGIN });
  app = createApp(t.c);
  admin = await registerUser(t);
  plain = await registerUser(t);
  const { stdout } = await adminCli(t, 'grant', admin.email);
  expect(stdout).toContain(`${admin.email} is now an admin`);
});
afterAll(async () => {
  await t?.close();
});

async function roleOf(userId: string) {
  const row = await t.c.db
    .selectFrom('users')
    .select('role')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.role;
}

async function userIdOf(token: string): Promise<string> {
  const res = await t.request.get('/api/v1/users/profile').set(bearer(token));
  return (res.body as { id: string }).id;
}

describe('the admin role', () => {
  it('is never granted by sign-up or a profile update: a role field is refused as unknown', async () => {
    for (const field of ['role', 'is_admin']) {
      const email = uniqueEmail('claims-admin');
      const signUp = await t.request.post('/api/v1/auth/register').send({
        email,
        password: 'correct horse',
        name: 'Eve',
        [field]: field === 'role' ? 'admin' : true,
      });
      expect(signUp.status).toBe(422);
      const exists = await t.c.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      expect(exists).toBeUndefined();

      const update = await t.request
        .patch('/api/v1/users/profile')
        .set(bearer(plain.tokens.access_token))
        .send({ name: 'Eve', [field]: field === 'role' ? 'admin' : true });
      expect(update.status).toBe(422);
    }
    expect(await roleOf(await userIdOf(plain.tokens.access_token))).toBe('user');
  });

  it('is granted by the command-line tool, and shown on the admin’s own profile only', async () => {
    expect(await roleOf(await userIdOf(admin.tokens.access_token))).toBe('admin');
    const mine = await t.request
      .get('/api/v1/users/profile')
      .set(bearer(admin.tokens.access_token));
    expect(mine.body.is_admin).toBe(true);
    const theirs = await t.request
      .get('/api/v1/users/profile')
      .set(bearer(plain.tokens.access_token));
    expect(theirs.body).not.toHaveProperty('is_admin');
    const { stdout } = await adminCli(t, 'list');
    expect(stdout.split('\n')).toContain(admin.email);
    await expect(adminCli(t, 'grant', 'nobody@example.com')).rejects.toMatchObject({
      stderr: expect.stringContaining('no account with the address nobody@example.com'),
    });
    await expect(adminCli(t, 'promote', admin.email)).rejects.toMatchObject({ code: 2 });
  });
});

describe('every address under the admin prefixes', () => {
  it('is found by walking the router stack, bull-board’s changes included', () => {
    const addresses = adminAddresses(app).map((a) => `${a.method} ${a.path}`);
    for (const expected of [
      'post /api/v1/admin/session',
      'get /api/v1/admin/fleet',
      `get ${ADMIN_QUEUES_PATH}/`,
      `get ${ADMIN_QUEUES_PATH}/api/queues`,
      `put ${ADMIN_QUEUES_PATH}/api/queues/photo-checks/x/retry`,
      `put ${ADMIN_QUEUES_PATH}/api/queues/photo-checks/retry/failed`,
      `put ${ADMIN_QUEUES_PATH}/api/queues/photo-checks/x/clean`,
      `put ${ADMIN_QUEUES_PATH}/api/queues/photo-checks/clean/failed`,
      `put ${ADMIN_QUEUES_PATH}/api/queues/photo-checks/x/promote`,
      `put ${ADMIN_QUEUES_PATH}/api/queues/photo-checks/promote`,
      `get ${ADMIN_QUEUES_PATH}/static/x.js`,
    ]) {
      expect(addresses).toContain(expected);
    }
  });

  it('answers 404, as an unknown address does, signed out and to a plain user', async () => {
    // A plain user's own console cookie cannot be minted; a made-up one is no better.
    const mint = await t.request
      .post('/api/v1/admin/session')
      .set(bearer(plain.tokens.access_token));
    expect(mint.status).toBe(404);
    expect(mint.headers['set-cookie']).toBeUndefined();
    const addresses = adminAddresses(app);
    expect(addresses.length).toBeGreaterThan(30);
    for (const { method, path: address } of addresses) {
      for (const [who, headers] of [
        ['signed out', {}],
        ['a plain user', bearer(plain.tokens.access_token)],
        [
          'a plain user with a made-up cookie',
          { ...bearer(plain.tokens.access_token), Cookie: `${ADMIN_SESSION_COOKIE}=made-up` },
        ],
      ] as const) {
        const client = supertest(app);
        const res = await client[method as 'get'](address).set(headers).set('Origin', WEB_ORIGIN);
        const where = `${method} ${address} (${who})`;
        expect(res.status, where).toBe(404);
        expect(res.body, where).toEqual({ detail: MESSAGES.notFound, code: 'not_found' });
      }
    }
  });

  it('is left out of the public API document', async () => {
    const doc = await t.request.get('/api/openapi.json');
    expect(JSON.stringify(doc.body)).not.toContain('/admin');
  });
});

describe('an admin', () => {
  const prefix = () => bullPrefixOf(t.c.env);

  async function mint(token = admin.tokens.access_token) {
    const res = await t.request.post('/api/v1/admin/session').set(bearer(token));
    expect(res.status).toBe(201);
    return res;
  }

  /** A photo check whose only attempt failed, as a worker leaves one. */
  async function failedJob(): Promise<{ queue: Queue; id: string }> {
    const queue = new Queue(QUEUES.photoChecks, { connection: t.c.redis, prefix: prefix() });
    const worker = new Worker(
      QUEUES.photoChecks,
      () => {
        throw new Error('the photo checker stopped: out of memory');
      },
      { connection: t.c.redis.duplicate({ maxRetriesPerRequest: null }), prefix: prefix() },
    );
    const failed = new Promise<string>((resolve) => {
      worker.on('failed', (job) => resolve(job!.id!));
    });
    await queue.add('photo.check', { photo_id: 'p' }, { attempts: 1 });
    const id = await failed;
    await worker.close();
    return { queue, id };
  }

  it('mints a short-lived console cookie: HttpOnly, Secure, SameSite=Strict, Path=/admin', async () => {
    const res = await mint();
    expect(res.body).toEqual({ expires_in: 900, console_path: ADMIN_QUEUES_PATH });
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/; Max-Age=900;/);
    expect(cookie).toMatch(/; Path=\/admin;/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    // Never a token in an address: the console's own page names none.
    const page = await t.request.get(`${ADMIN_QUEUES_PATH}/`).set('Cookie', cookie.split(';')[0]!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Studioshot queues</title>');
    expect(page.text).not.toContain(admin.tokens.access_token);
    expect(page.headers['cache-control']).toBe('no-store');
    // bull-board's page runs under the site's own policy, unrelaxed: its scripts and stylesheet
    // are its own files, its inline styles are allowed site-wide, and Chromium reports no
    // violation on it (README, "Ops console").
    const site = await t.request.get('/health');
    expect(page.headers['content-security-policy']).toBe(site.headers['content-security-policy']);
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
  });

  it('opens bull-board, sees a failed job with its error, and retries it', async () => {
    const cookie = cookieOf(await mint()).split(';')[0]!;
    const { queue, id } = await failedJob();
    try {
      const list = await t.request
        .get(`${ADMIN_QUEUES_PATH}/api/queues`)
        .query({ activeQueue: QUEUES.photoChecks, status: 'failed' })
        .set('Cookie', cookie);
      expect(list.status).toBe(200);
      const queues = list.body.queues as {
        name: string;
        jobs: { id: string; failedReason: string }[];
      }[];
      expect(queues.map((q) => q.name)).toEqual(
        expect.arrayContaining([QUEUES.photoChecks, QUEUES.scheduled, 'training.studio']),
      );
      const photoChecks = queues.find((q) => q.name === QUEUES.photoChecks)!;
      expect(photoChecks.jobs).toEqual([
        expect.objectContaining({ id, failedReason: 'the photo checker stopped: out of memory' }),
      ]);

      // From another site's page, or with no Origin at all: refused, nothing changes.
      for (const origin of ['https://evil.example', undefined]) {
        const request = t.request
          .put(`${ADMIN_QUEUES_PATH}/api/queues/${QUEUES.photoChecks}/${id}/retry`)
          .set('Cookie', cookie);
        const refused = await (origin ? request.set('Origin', origin) : request);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ detail: MESSAGES.adminCrossOrigin, code: 'forbidden' });
        expect(await (await queue.getJob(id))!.getState()).toBe('failed');
      }

      const retried = await t.request
        .put(`${ADMIN_QUEUES_PATH}/api/queues/${QUEUES.photoChecks}/${id}/retry`)
        .set('Cookie', cookie)
        .set('Origin', WEB_ORIGIN);
      expect(retried.status).toBe(204);
      expect(await (await queue.getJob(id))!.getState()).toBe('waiting');
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('loses the console with the sign-in it came from, and with the role', async () => {
    const session = await registerUser(t);
    await adminCli(t, 'grant', session.email);
    const cookie = cookieOf(await mint(session.tokens.access_token)).split(';')[0]!;
    const open = () => t.request.get(`${ADMIN_QUEUES_PATH}/api/queues`).set('Cookie', cookie);
    expect((await open()).status).toBe(200);
    await t.request
      .post('/api/v1/auth/logout')
      .set(bearer(session.tokens.access_token))
      .expect(200);
    expect((await open()).status).toBe(404);

    const again = await t.request
      .post('/api/v1/auth/login')
      .send({ email: session.email, password: session.password });
    const token = (again.body as { access_token: string }).access_token;
    const second = cookieOf(await mint(token)).split(';')[0]!;
    const openSecond = () => t.request.get(`${ADMIN_QUEUES_PATH}/`).set('Cookie', second);
    expect((await openSecond()).status).toBe(200);
    const { stdout } = await adminCli(t, 'revoke', session.email);
    expect(stdout).toContain('no longer an admin');
    expect((await openSecond()).status).toBe(404);
    expect((await t.request.get('/api/v1/admin/fleet').set(bearer(token))).status).toBe(404);
  });

  it('reads the fleet: workers online with their jobs, GPU seconds today, cost and waits', async () => {
    const queue = new Queue('training.studio', { connection: t.c.redis, prefix: prefix() });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const worker = new Worker(
      'training.studio',
      async () => {
        started();
        await held;
      },
      {
        name: 'gpu-node-1:4242',
        connection: t.c.redis.duplicate({ maxRetriesPerRequest: null }),
        prefix: prefix(),
      },
    );
    try {
      await queue.add('model.train', { task_id: 'x' }, { jobId: 'task-1' });
      await running;
      const res = await t.request.get('/api/v1/admin/fleet').set(bearer(admin.tokens.access_token));
      expect(res.status).toBe(200);
      expect(res.body.workers).toContainEqual({
        name: 'gpu-node-1:4242',
        engine_kind: 'studio',
        queues: ['training.studio'],
        current_jobs: [
          expect.objectContaining({
            queue: 'training.studio',
            job_id: 'task-1',
            job_name: 'model.train',
          }),
        ],
      });
      // The API's own job worker (its scheduled queue) is no worker of the fleet.
      const queues = (res.body.workers as { queues: string[] }[]).flatMap((w) => w.queues);
      expect(queues).not.toContain(QUEUES.scheduled);
      expect(res.body.gpu_seconds_today).toBe(0);
      expect(res.body.cost_projection).toHaveProperty('projected_monthly_cost');
      expect(res.body.wait_estimate.training).toHaveProperty('estimated_wait_seconds');
      expect(res.body.queues.map((q: { queue: string }) => q.queue)).toContain('training.studio');
    } finally {
      release();
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
