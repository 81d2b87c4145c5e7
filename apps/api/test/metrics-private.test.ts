import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MetricsServer } from '@studioshot/observability';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, startApiMetricsServer } from '../src/server.js';
import { createTestApp, type TestApp } from './helpers.js';

// Metrics are for the cluster's scrapers only: the private port answers them, while the public
// port and the shipped nginx edge (infra/nginx.conf, run here for real with its upstream pointed
// at this test's API) answer 404, and docker-compose.yml publishes no metrics port.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PRIVATE_PATHS = ['/metrics', '/queue-load', '/queue-load?queues=training.studio'];
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

let t: TestApp;
let webDist: string;
let publicServer: Server;
let publicUrl: string;
let metrics: MetricsServer;
let nginx: ChildProcess | undefined;
let nginxUrl: string;
let nginxDir: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  // With the web app's files served by the API too (`npm start`), as the widest public surface.
  webDist = await mkdtemp(path.join(tmpdir(), 'studioshot-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Studioshot</title>');
  // nginx started as root serves files as an unprivileged user, whatever the umask.
  await chmod(webDist, 0o755);
  await chmod(path.join(webDist, 'index.html'), 0o644);
  t = await createTestApp({ WEB_DIST: webDist });
  publicServer = createHttpServer(t.c).server;
  await new Promise<void>((resolve) => publicServer.listen(0, '127.0.0.1', resolve));
  publicUrl = `http://127.0.0.1:${(publicServer.address() as AddressInfo).port}`;
  metrics = await startApiMetricsServer(t.c, 0);

  // The shipped nginx.conf, with only its addresses and writable paths moved into a temp folder.
  nginxDir = await mkdtemp(path.join(tmpdir(), 'studioshot-nginx-'));
  const port = await freePort();
  const conf = (await readFile(path.join(ROOT, 'infra/nginx.conf'), 'utf8'))
    .replaceAll('/tmp/', `${nginxDir}/`)
    .replaceAll('http://api:8080', publicUrl)
    .replace(/listen 8080;/, `listen 127.0.0.1:${port};`)
    .replace(/root \/usr\/share\/nginx\/html;/, `root ${webDist};`)
    .replace('access_log /dev/stdout;', 'access_log off;');
  expect(conf).toContain(publicUrl);
  await writeFile(path.join(nginxDir, 'nginx.conf'), conf);
  nginx = spawn(
    NGINX,
    [
      '-p',
      nginxDir,
      '-c',
      `${nginxDir}/nginx.conf`,
      '-e',
      `${nginxDir}/error.log`,
      '-g',
      'daemon off;',
    ],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  nginxUrl = `http://127.0.0.1:${port}`;
  // Until it answers (its port is open once it has read the configuration), or it has exited.
  for (;;) {
    if (nginx.exitCode !== null)
      throw new Error(`nginx exited: ${await readFile(`${nginxDir}/error.log`, 'utf8')}`);
    const status = await fetch(`${nginxUrl}/health`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGQUIT');
    await exited;
  }
  await metrics?.close();
  await new Promise((resolve) => publicServer?.close(resolve));
  await t?.close();
  await Promise.all(
    [webDist, nginxDir].map((dir) => dir && rm(dir, { recursive: true, force: true })),
  );
});

describe('metrics are private', () => {
  it('nginx can run the shipped configuration', () => {
    const version = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
    expect(version.stderr).toMatch(/nginx\/1\.22\./); // docker-compose.yml's nginx:1.22
  });

  it('the private port serves them', async () => {
    const res = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('studioshot_queue_load{queue="training.studio"}');
  });

  it.each(PRIVATE_PATHS)('%s answers 404 on the public port', async (p) => {
    const res = await fetch(`${publicUrl}${p}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('studioshot_');
  });

  it.each(PRIVATE_PATHS)('%s answers 404 through nginx', async (p) => {
    // The same edge passes an API path on and serves the web app's page elsewhere.
    expect((await fetch(`${nginxUrl}/health`)).status).toBe(200);
    expect((await fetch(`${nginxUrl}/some/page`)).status).toBe(200);
    const res = await fetch(`${nginxUrl}${p}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('studioshot_');
  });

  it('docker-compose.yml publishes no metrics port', async () => {
    const compose = await readFile(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const published = [...compose.matchAll(/^\s+ports:\s*\[([^\]]*)\]/gm)].map((m) => m[1]);
    expect(published).toEqual(["'127.0.0.1:8080:8080'", "'${WEB_PORT:-80}:8080'"]);
    expect(compose).not.toMatch(/^\s+ports:\s*$/m); // no block-style list to read past
    expect(compose).not.toMatch(/\b946[45]\b/);
  });
});
