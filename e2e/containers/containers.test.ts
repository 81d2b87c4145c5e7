import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, makeTrainingPhotos, uploadPhoto } from '../fixtures.js';
import { differingPaths, docker, Project, ROOT, run, runShown, unavailable } from './compose.js';

// The product as an operator runs it on one host: every image built from infra/Dockerfile on
// local stand-ins of the official bases, docker-compose.yml in production mode plus
// infra/test/compose.override.yml (only the changes the override test below allows), and a user
// going through nginx from sign-up to downloaded headshots, a worker killed mid-training, and a
// backup restored into an emptied stack.

const reason = unavailable();
if (reason) console.log(`container test: ${reason}`);
// Where Docker cannot be had it says why; CI must have it.
const suite = reason && !process.env.CI ? describe.skip : describe;

/** The keys the override may change; anything else it touches fails the test. */
const OVERRIDE_MAY_CHANGE = [
  /^services\.(postgres|redis)\.image$/,
  /^services\.[a-z-]+\.build\.args\.(NODE_IMAGE|NGINX_IMAGE)$/,
  /^services\.(api|web)\.ports(\.|$)/,
  /^services\.api\.environment\.(PAYMENT_PROVIDER|ALLOW_TEST_PAYMENTS_IN_PRODUCTION|SMTP_URL)$/,
  // The mail-catching SMTP server the API's SMTP_URL points at.
  /^services\.mail(\.|$)/,
];
/** The official images and tags the shipped file names, and each stand-in's version command. */
const STAND_INS = [
  { official: 'postgres:15', version: ['postgres', '--version'], found: /\(PostgreSQL\) (\d+)\./ },
  { official: 'redis:7', version: ['redis-server', '--version'], found: /v=(\d+)\./ },
  { official: 'nginx:1.22', version: ['nginx', '-v'], found: /nginx\/(\d+\.\d+)\./ },
  { official: 'node:20-bookworm-slim', version: ['node', '--version'], found: /^v(\d+)\./ },
];
const IMAGES = ['studioshot-api', 'studioshot-worker', 'studioshot-web'];
/** The build cache kept between runs: one warm build's layers, with room for a second. */
const BUILD_CACHE_KEPT = '8GB';
const PASSWORD = 'studio-portrait-1';
/** Where the API and the worker serve their metrics in production (their env.ts). */
const METRICS_PORTS = { api: 9464, worker: 9465 };

let project: Project;
let work: string;
let web: string;
/** The commit the images are built from (APP_VERSION). */
let commit: string;

async function until<T>(
  read: () => Promise<T | undefined>,
  what: string,
  ms = 600_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}\n${await project.logs().catch(String)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface Session {
  access_token: string;
  user: { id: string };
}

async function call<T>(
  session: Session | null,
  p: string,
  body?: unknown,
  method = 'POST',
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${web}${p}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(session ? { Authorization: `Bearer ${session.access_token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Pays a purchase with the test card 4242, as the page's card form does, and confirms it. */
async function pay(
  session: Session,
  create: string,
  body: object,
  confirm: string,
  extra: object = {},
) {
  const intent = await call<{ payment_intent_id: string; client_secret: string }>(
    session,
    create,
    body,
  );
  expect(intent.status, JSON.stringify(intent.body)).toBeLessThan(300);
  const card = await call(session, '/api/v1/payments/test/confirm-card', {
    payment_intent_id: intent.body.payment_intent_id,
    client_secret: intent.body.client_secret,
    card: { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Ada Operator' },
  });
  expect(card.status, JSON.stringify(card.body)).toBeLessThan(300);
  const confirmed = await call(session, confirm, {
    payment_intent_id: intent.body.payment_intent_id,
    ...extra,
  });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBeLessThan(300);
}

/** Twelve photos of one person; one of them a PNG over 10 MB (a phone's full-size shot). */
async function twelvePhotos(dir: string): Promise<string[]> {
  const files = await makeTrainingPhotos(dir);
  const big = files.find((file) => file.endsWith('.png'))!;
  await sharp(path.join(FIXTURES, 'astronaut.jpg'))
    .resize(2048, 2048, { kernel: 'lanczos3' })
    .png({ compressionLevel: 0 })
    .toFile(big);
  expect((await stat(big)).size).toBeGreaterThan(10 * 1024 * 1024);
  expect(files).toHaveLength(12);
  return files;
}

/** Uploads twelve photos through nginx into a new session and waits for the worker's checks. */
async function uploadPhotos(session: Session): Promise<string> {
  const created = await call<{ session_id: string }>(session, '/api/v1/upload/create-session', {
    expected_files: 12,
    session_type: 'training',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.session_id;
  const dir = await mkdtemp(path.join(work, 'photos-'));
  for (const file of await twelvePhotos(dir)) await uploadPhoto(web, session, id, file);
  await rm(dir, { recursive: true, force: true });
  await until(async () => {
    const status = await call<{ checks_pending: number }>(
      session,
      `/api/v1/upload/session/${id}/status`,
      undefined,
      'GET',
    );
    return status.body.checks_pending === 0 ? true : undefined;
  }, 'the photo checks');
  const completed = await call(session, `/api/v1/upload/complete/${id}`);
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  return id;
}

async function startTraining(session: Session, sessionId: string, name: string) {
  const started = await call<{ id: string; model_id: string }>(session, '/api/v1/training/start', {
    model_name: name,
    session_id: sessionId,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body;
}

async function finishedTraining(session: Session, id: string) {
  return until(async () => {
    const job = await call<{ status: string; error_message: string | null }>(
      session,
      `/api/v1/training/jobs/${id}`,
      undefined,
      'GET',
    );
    return ['completed', 'failed'].includes(job.body.status) ? job.body : undefined;
  }, 'the training');
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function download(url: string): Promise<Buffer> {
  const res = await fetch(new URL(url, web));
  expect(res.status, url).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function startStack() {
  await project.composeShown('up', '--detach', '--no-build');
  web = await project.published('web', 8080);
  await until(healthy, 'the API through nginx');
}

/** The API answers /health through nginx (a refused connection is not yet). */
const healthy = () =>
  fetch(`${web}/health`).then(
    (res) => (res.ok ? true : undefined),
    () => undefined,
  );

suite('one host in containers', () => {
  beforeAll(async () => {
    if (reason) throw new Error(`the container test cannot run: ${reason}`);
    work = await mkdtemp(path.join(tmpdir(), 'studioshot-containers-'));
    // The commit the images are built from, as an operator passes it (README); one already in
    // the environment (npm test exports it) takes precedence in Compose, and is the same commit.
    commit = process.env.APP_VERSION || (await run('git', ['rev-parse', 'HEAD'])).stdout.trim();
    // An operator's .env: the secrets and the required settings, never inside an image.
    const envFile = path.join(work, 'operator.env');
    await writeFile(
      envFile,
      [
        `JWT_SECRET=${randomBytes(36).toString('base64url')}`,
        'SMTP_URL=smtp://mail:1025',
        'STRIPE_SECRET_KEY=sk_test_unused_with_the_test_provider',
        'STRIPE_WEBHOOK_SECRET=whsec_unused_with_the_test_provider',
        'STRIPE_PUBLISHABLE_KEY=pk_test_unused_with_the_test_provider',
        `APP_VERSION=${commit}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    project = new Project('studioshot-container-test', envFile);
    // What an earlier run that was killed may have left.
    await project.down();
  }, 120_000);

  afterAll(async () => {
    await project?.down().catch((error: unknown) => console.error(error));
    // Images replaced by this run's build; the current ones stay as the next run's layer cache.
    await docker('image', 'prune', '--force', '--filter', 'label=org.studioshot.image').catch(
      () => {},
    );
    // The build cache stays bounded: the layers used last are kept, older ones past the limit go.
    await docker('builder', 'prune', '--force', '--keep-storage', BUILD_CACHE_KEPT).catch(() => {});
    if (work) await rm(work, { recursive: true, force: true });
  }, 180_000);

  it('the override changes only the base images, ports, payment provider and SMTP target', async () => {
    const shipped = await project.config('shipped');
    const overridden = await project.config('overridden');
    const changed = differingPaths(shipped, overridden);
    expect(changed.length).toBeGreaterThan(0);
    expect(
      changed.filter((key) => !OVERRIDE_MAY_CHANGE.some((allowed) => allowed.test(key))),
    ).toEqual([]);
  });

  it('the gpu profile adds the flux worker: one NVIDIA GPU reserved, the weights read-only, compiled kernels in a volume', async () => {
    interface Service {
      profiles?: string[];
      build?: { target?: string };
      deploy?: { resources?: { reservations?: { devices?: unknown[] } } };
      volumes?: { type: string; source: string; target: string; read_only?: boolean }[];
    }
    const { services } = (await project.config('shipped')) as { services: Record<string, Service> };
    const flux = services['worker-flux']!;
    expect(flux.profiles).toEqual(['gpu']);
    expect(flux.build?.target).toBe('worker-flux');
    expect(flux.deploy?.resources?.reservations?.devices).toEqual([
      { driver: 'nvidia', count: 1, capabilities: ['gpu'] },
    ]);
    const mounts = Object.fromEntries((flux.volumes ?? []).map((v) => [v.target, v]));
    expect(mounts['/var/lib/studioshot/flux']).toMatchObject({ type: 'bind', read_only: true });
    expect(mounts['/var/cache/studioshot/torch-compile']).toMatchObject({
      type: 'volume',
      source: 'flux-compile-cache',
    });
    expect(mounts['/var/lib/studioshot/storage']).toMatchObject({
      type: 'volume',
      source: 'storage',
    });
    // Without the profile there is no flux worker.
    const { stdout } = await project.compose('config', '--services');
    expect(stdout.split('\n')).not.toContain('worker-flux');
    expect(stdout.split('\n')).toContain('worker');
  });

  it('builds every image from infra/Dockerfile: non-root, without .env, node_modules or a virtualenv from the host', async () => {
    await runShown('bash', ['infra/stand-ins/make-stand-ins.sh'], {
      DOCKER: process.env.STUDIOSHOT_DOCKER,
    });
    // The stand-ins carry the versions of the official tags they replace.
    const shipped = JSON.stringify(await project.config('shipped'));
    const overridden = JSON.stringify(await project.config('overridden'));
    for (const { official, version, found } of STAND_INS) {
      const standIn = `studioshot-stand-in/${official}`;
      expect(shipped, `the compose file names ${official}`).toContain(`"${official}"`);
      expect(overridden, `the override uses ${standIn}`).toContain(standIn);
      const shown = await docker(
        'run',
        '--rm',
        '--entrypoint',
        version[0]!,
        standIn,
        ...version.slice(1),
      );
      const tag = official.split(':')[1]!.split('-')[0]!;
      expect(found.exec(shown.stdout + shown.stderr)?.[1], standIn).toBe(tag);
    }

    // A secret planted where operators keep theirs, and marked files in this checkout's
    // installed packages and virtualenv: none may reach an image.
    const secret = randomUUID();
    const marker = `studioshot-planted-${secret}`;
    const planted = [
      ['.env', `JWT_SECRET=${secret}`],
      ['apps/api/.env', `STRIPE_SECRET_KEY=sk_live_${secret}`],
      [`node_modules/${marker}`, secret],
      [`apps/api/node_modules/${marker}`, secret],
      [`apps/worker/engine/.venv/${marker}`, secret],
    ]
      .map(([file, content]) => [path.join(ROOT, file!), content!] as const)
      .filter(([file]) => !existsSync(file));
    const made: string[] = [];
    try {
      for (const [file, content] of planted) {
        const dir = path.dirname(file);
        if (!existsSync(dir)) {
          await mkdir(dir, { recursive: true });
          made.push(dir);
        }
        await writeFile(file, `${content}\n`);
      }
      await project.composeShown('build', 'api', 'worker', 'web');
    } finally {
      for (const [file] of planted) await rm(file, { force: true });
      for (const dir of made) await rm(dir, { recursive: true, force: true });
    }

    for (const image of IMAGES) {
      const inspected = await docker('image', 'inspect', '--format', '{{.Config.User}}', image);
      expect(inspected.stdout.trim(), `${image} runs as`).not.toMatch(/^(|root|0)$/);
      const revision = await docker(
        'image',
        'inspect',
        '--format',
        '{{index .Config.Labels "org.opencontainers.image.revision"}}',
        image,
      );
      expect(revision.stdout.trim(), `${image} was built from`).toBe(commit);
      const { stdout } = await docker(
        'run',
        '--rm',
        '--entrypoint',
        'sh',
        image,
        '-c',
        [
          'id -u',
          // Any .env, a planted file, or the planted secret where the app's or web's files live.
          `find / -xdev \\( -name ".env" -o -name ".env.*" -o -name "${marker}" \\) -print 2>/dev/null`,
          `grep -rl "${secret}" /app /usr/share/nginx /home /tmp 2>/dev/null || true`,
          // A virtualenv made on this machine would name this machine's Python; the image's own
          // name its system Python.
          'for cfg in $(find / -xdev -name pyvenv.cfg 2>/dev/null); do echo "$cfg: $(grep ^home "$cfg")"; done',
        ].join('; '),
      );
      const [uid, ...found] = stdout.trim().split('\n');
      expect(Number(uid), `${image} uid`).toBeGreaterThan(0);
      const venvs = found.filter((line) => line.includes('pyvenv.cfg'));
      for (const venv of venvs) expect(venv, image).toMatch(/home = \/usr\/bin$/);
      expect(
        found.filter((line) => !line.includes('pyvenv.cfg')),
        image,
      ).toEqual([]);
    }

    // Production's start-up checks hold in the image: a development convenience is refused.
    const refused = await docker(
      'run',
      '--rm',
      '-e',
      'DATABASE_URL=postgres://studioshot@postgres/studioshot',
      '-e',
      'REDIS_URL=redis://redis:6379',
      '-e',
      `JWT_SECRET=${randomBytes(36).toString('base64url')}`,
      '-e',
      'MAIL_TRANSPORT=outbox',
      'studioshot-api',
    ).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(refused).toContain('Refusing to start with NODE_ENV=production');
    expect(refused).toContain('MAIL_TRANSPORT=outbox');
  });

  let user: Session;
  const headshots: { url: string; sha256: string }[] = [];

  it('signs up, buys a plan, uploads 12 photos, trains on the worker container and downloads 4 headshots, all through nginx', async () => {
    await startStack();
    const health = await call<{ status: string; version: string; warnings?: string[] }>(
      null,
      '/health',
      undefined,
      'GET',
    );
    expect(health.status).toBe(200);
    // The commit the images were built from, not the API's 'unknown'.
    expect(health.body.version).toBe(commit);
    // Production with the staging switch: the test provider is on, and said so.
    expect(JSON.stringify(health.body)).toContain('ALLOW_TEST_PAYMENTS_IN_PRODUCTION');

    const registered = await call<Session>(null, '/api/v1/auth/register', {
      email: `ada-${Date.now()}@example.com`,
      password: PASSWORD,
      name: 'Ada Operator',
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    user = registered.body;
    await pay(
      user,
      '/api/v1/payments/create-training-payment',
      { plan_name: 'professional' },
      '/api/v1/payments/confirm-plan-subscription',
    );
    const patched = await call(
      user,
      '/api/v1/users/profile',
      { gender: 'female', age: 36 },
      'PATCH',
    );
    expect(patched.status).toBe(200);

    const sessionId = await uploadPhotos(user);
    const training = await startTraining(user, sessionId, 'Containers');
    expect(await finishedTraining(user, training.id)).toMatchObject({ status: 'completed' });

    const request = { model_id: training.model_id, prompt: 'professional headshot', num_images: 4 };
    const key = { 'Idempotency-Key': randomUUID() };
    // Answered with the images, or 202 when the wait ran out: the same key answers it later.
    const generated = await until(async () => {
      const res = await call<{ status: string; images: { url: string }[] }>(
        user,
        '/api/v1/generation/generate-trained',
        request,
        'POST',
        key,
      );
      if (res.status !== 200 && res.status !== 202)
        throw new Error(`Generate answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.status === 'completed' ? res.body : undefined;
    }, 'the headshots');
    expect(generated.images).toHaveLength(4);
    for (const image of generated.images) {
      const data = await download(image.url);
      expect(await sharp(data).metadata()).toMatchObject({ format: 'jpeg', width: 1024 });
      headshots.push({ url: image.url, sha256: sha256(data) });
    }
  });

  it('keeps the metrics private: /metrics is 404 through nginx and on the API port, and no compose file publishes a metrics port', async () => {
    // Only the API's and nginx's 8080 are published, in the shipped file and with the override.
    for (const files of ['shipped', 'overridden'] as const) {
      const { services } = (await project.config(files)) as {
        services: Record<string, { ports?: { target: number }[] }>;
      };
      const published = Object.fromEntries(
        Object.entries(services)
          .filter(([, service]) => service.ports?.length)
          .map(([name, service]) => [name, service.ports!.map((port) => port.target)]),
      );
      expect(published, files).toEqual({ api: [8080], web: [8080] });
    }
    expect((await fetch(`${web}/metrics`)).status).toBe(404);
    const api = await project.published('api', 8080);
    expect((await fetch(`${api}/metrics`)).status).toBe(404);
    // The metrics are there, on the port inside each container that Prometheus scrapes.
    const scrape = (port: number) =>
      `fetch('http://127.0.0.1:${port}/metrics').then(async (r) => console.log(r.status, await r.text()), (e) => { console.error(e); process.exit(1); })`;
    const fromApi = await project.compose(
      'exec',
      '-T',
      'api',
      'node',
      '-e',
      scrape(METRICS_PORTS.api),
    );
    expect(fromApi.stdout).toMatch(/^200 /);
    expect(fromApi.stdout).toContain('studioshot_queue_load');
    const fromWorker = await project.compose(
      'exec',
      '-T',
      'worker',
      'node',
      '-e',
      scrape(METRICS_PORTS.worker),
    );
    expect(fromWorker.stdout).toMatch(/^200 /);
    expect(fromWorker.stdout).toContain('studioshot_job_duration_seconds');
  });

  let backup: string;

  it('backs up Postgres and the stored objects together', async () => {
    backup = path.join(work, 'backup');
    await run('bash', ['scripts/backup.sh', 'backup', backup], { COMPOSE: project.commandLine() });
    for (const file of ['postgres.dump', 'storage.tar'])
      expect((await stat(path.join(backup, file))).size, file).toBeGreaterThan(0);
  });

  it('a worker container killed mid-training: the job runs again after its lock lapses, one model, one slot charged', async () => {
    const [before] = await project.row(
      `SELECT models_trained FROM users WHERE id = '${user.user.id}'`,
    );
    const sessionId = await uploadPhotos(user);
    const training = await startTraining(user, sessionId, 'Killed once');
    // The engine's first progress event: the training is under way on the worker.
    await until(async () => {
      const [progress] = await project.row(
        `SELECT progress FROM tasks WHERE id = '${training.id}'`,
      );
      return Number(progress) > 0 ? true : undefined;
    }, 'the first progress event');
    await project.compose('kill', '--signal', 'SIGKILL', 'worker');
    await project.compose('start', 'worker');

    expect(await finishedTraining(user, training.id)).toMatchObject({ status: 'completed' });
    const [status, attempts, progress] = await project.row(
      `SELECT status, attempts, progress FROM tasks WHERE id = '${training.id}'`,
    );
    expect({ status, attempts, progress }).toEqual({
      status: 'completed',
      attempts: '2',
      progress: '100',
    });
    const [models] = await project.row(
      `SELECT count(*) FROM models WHERE user_id = '${user.user.id}' AND session_id = '${sessionId}'`,
    );
    expect(models).toBe('1');
    const [after] = await project.row(
      `SELECT models_trained FROM users WHERE id = '${user.user.id}'`,
    );
    expect(Number(after) - Number(before)).toBe(1);
  });

  it('a backup restored into an emptied stack serves the headshots it held', async () => {
    expect(headshots).toHaveLength(4);
    await project.down();
    await startStack();
    // Nothing of the account is left before the restore.
    expect((await call(user, '/api/v1/users/profile', undefined, 'GET')).status).toBe(401);
    await run('bash', ['scripts/backup.sh', 'restore', backup], { COMPOSE: project.commandLine() });
    // Restarted, nginx may have another published port.
    web = await project.published('web', 8080);
    await until(healthy, 'the API after the restore');
    expect((await call(user, '/api/v1/users/profile', undefined, 'GET')).status).toBe(200);
    for (const shot of headshots) expect(sha256(await download(shot.url))).toBe(shot.sha256);
  });
});
