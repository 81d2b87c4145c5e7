/**
 * Generated image serving in local storage mode: GET /images/generated/{id}?token= on the built
 * API (token check, the image looked up, its file sent) against a bare Node static file server
 * (`static-images.mjs`, its own process) on the same files, in the same run. Three rounds of
 * autocannon, each server in turn; per round its images/s, each server's CPU time per answered
 * image (user + system, from /proc: steadier than images/s on a shared machine), the load
 * generator's CPU and the load average. Target: the API at >= 0.95 of the bare server.
 */
import {
  applyLedgerEntry,
  completeTask,
  createDb,
  type GeneratedImageRecord,
} from '@studioshot/db';
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { generationImageKey, LocalStorage, modelArtifactKey } from '@studioshot/storage';
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  apiCall,
  freePort,
  machine,
  median,
  requireEnv,
  startNode,
  stop,
  waitForHttp,
  writeResult,
} from './common.js';
import { makePhotos } from './seed.js';

const ROUNDS = 3;
const SECONDS = 10;
const CONNECTIONS = 16;
const GENERATIONS = 8;
const PER_GENERATION = 4;

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const databaseUrl = adminUrl.replace(/\/[^/]*$/, `/${database}`);
const storageDir = await mkdtemp(path.join(tmpdir(), 'bench-images-storage-'));
const photoDir = await mkdtemp(path.join(tmpdir(), 'bench-images-photos-'));
const apiPort = await freePort();
const staticPort = await freePort();
const api = startNode(
  'apps/api/dist/main.js',
  {
    NODE_ENV: 'test',
    PORT: String(apiPort),
    DATABASE_URL: databaseUrl,
    REDIS_URL: requireEnv('REDIS_URL'),
    REDIS_PREFIX: `bench:${database}:`,
    STORAGE_DIR: storageDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'warn',
    // Waiting for a worker is not measured here: the generations are delivered below.
    GENERATION_WAIT_MS: '0',
  },
  // PROFILE_CPU_DIR=dir: a V8 CPU profile of the API process is written there when it stops.
  process.env.PROFILE_CPU_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_CPU_DIR}`]
    : [],
);
let bare: ChildProcess | undefined;
const db = createDb(databaseUrl, { max: 2 });
const storage = new LocalStorage(storageDir);

/** A process's CPU time so far (user + system), in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const spread = (values: number[]) => `${Math.min(...values)}–${Math.max(...values)}`;

try {
  const base = `http://127.0.0.1:${apiPort}`;
  await waitForHttp(`${base}/health`, api);
  const { access_token: token, user } = await apiCall<{
    access_token: string;
    user: { id: string };
  }>(base, 'POST', '/api/v1/auth/register', undefined, {
    email: `bench-${Date.now()}@example.com`,
    password: 'bench-password',
    name: 'Bench',
  });
  await applyLedgerEntry(db, {
    userId: user.id,
    delta: GENERATIONS,
    reason: 'bench_grant',
    idempotencyKey: `bench:${user.id}`,
  });
  // A trained model's row (its file is never read: the generations are delivered here).
  const modelId = randomUUID();
  await db
    .insertInto('models')
    .values({
      id: modelId,
      user_id: user.id,
      name: 'Bench model',
      status: 'completed',
      model_type: 'studio',
      trigger_word: 'sks',
      artifact_key: modelArtifactKey(user.id, modelId, 'model.npz'),
      artifact_format: 2,
    })
    .execute();

  // 1024x1024 JPEGs as the engine stores them, delivered as the worker delivers a generation.
  const photos = await makePhotos(photoDir);
  for (let g = 0; g < GENERATIONS; g += 1) {
    const res = await fetch(`${base}/api/v1/generation/generate-trained`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${token}`,
        'Idempotency-Key': randomUUID(),
      },
      body: JSON.stringify({ model_id: modelId, style: 'professional', num_images: 4 }),
    });
    if (res.status !== 202) throw new Error(`generation ${g}: ${res.status} ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    const images: GeneratedImageRecord[] = [];
    for (let i = 0; i < PER_GENERATION; i += 1) {
      const photo = photos[(g * PER_GENERATION + i) % photos.length]!;
      const imageKey = generationImageKey(user.id, id, `0-${i}.jpg`);
      const thumbnailKey = generationImageKey(user.id, id, `0-${i}-thumb.jpg`);
      const { size } = await storage.putFile(imageKey, photo);
      await storage.putFile(thumbnailKey, photo);
      images.push({
        position: i,
        templateId: 'prof_1',
        variant: 0,
        imageKey,
        thumbnailKey,
        width: 1024,
        height: 1024,
        sizeBytes: size,
        identityScore: 0.9,
        identityDistance: 0.2,
      });
    }
    const done = await completeTask(db, id, {
      message: 'Your headshots are ready',
      result: { images: PER_GENERATION },
      output: { type: 'generation', images, shortItems: 0 },
      gpuSeconds: 1,
    });
    if (!done) throw new Error(`generation ${id} was already final`);
  }
  const { images } = await apiCall<{ images: { id: string; url: string }[] }>(
    base,
    'GET',
    '/models/generated-images?limit=100',
    token,
  );
  const rows = await db
    .selectFrom('generated_images')
    .select(['id', 'image_key'])
    .where('user_id', '=', user.id)
    .execute();
  const filesFile = path.join(photoDir, 'files.json');
  writeFileSync(
    filesFile,
    JSON.stringify(Object.fromEntries(rows.map((r) => [r.id, path.join(storageDir, r.image_key)]))),
  );
  bare = startNode('bench/static-images.mjs', { PORT: String(staticPort), IMAGE_FILES: filesFile });
  const bareBase = `http://127.0.0.1:${staticPort}`;
  await waitForHttp(`${bareBase}/${rows[0]!.id}`, bare);

  const servers = {
    api: { child: api, url: base, paths: images.map((image) => image.url) },
    bare: { child: bare, url: bareBase, paths: rows.map((row) => `/${row.id}`) },
  };
  type Name = keyof typeof servers;
  const perSecond: Record<Name, number[]> = { api: [], bare: [] };
  const cpuUsPerImage: Record<Name, number[]> = { api: [], bare: [] };
  const generatorCpu: Record<Name, number[]> = { api: [], bare: [] };
  const ratios: number[] = [];
  const loads: number[][] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    loads.push(loadavg().map((l) => Number(l.toFixed(2))));
    // Each round alternates which server goes first.
    const order: Name[] = round % 2 === 0 ? ['api', 'bare'] : ['bare', 'api'];
    for (const name of order) {
      const server = servers[name];
      const cpuBefore = cpuMs(server.child);
      const ownBefore = process.cpuUsage();
      const started = process.hrtime.bigint();
      const result = await autocannon({
        url: server.url,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: server.paths.map((p) => ({ method: 'GET', path: p })),
      });
      const wallUs = Number(process.hrtime.bigint() - started) / 1000;
      const own = process.cpuUsage(ownBefore);
      if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} answers were not 2xx`);
      const answered = result.requests.total;
      perSecond[name].push(Math.round(result.requests.average));
      cpuUsPerImage[name].push(Math.round(((cpuMs(server.child) - cpuBefore) * 1000) / answered));
      generatorCpu[name].push(Math.round(((own.user + own.system) / wallUs) * 100));
    }
    ratios.push(Math.round((perSecond.api.at(-1)! / perSecond.bare.at(-1)!) * 100) / 100);
  }
  const sizes = await Promise.all(rows.map((row) => stat(path.join(storageDir, row.image_key))));
  const meanKib = Math.round(sizes.reduce((sum, s) => sum + s.size, 0) / rows.length / 1024);
  const cpuRatio = median(cpuUsPerImage.bare) / median(cpuUsPerImage.api);

  const result = {
    machine: machine(),
    load_average_per_round: loads,
    images: rows.length,
    mean_image_kib: meanKib,
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    images_per_second: {
      api: { median: median(perSecond.api), all: perSecond.api },
      bare_static: { median: median(perSecond.bare), all: perSecond.bare },
    },
    ratio_per_round: ratios,
    ratio_median: median(ratios),
    server_cpu_us_per_image: {
      api: { median: median(cpuUsPerImage.api), all: cpuUsPerImage.api },
      bare_static: { median: median(cpuUsPerImage.bare), all: cpuUsPerImage.bare },
    },
    cpu_ratio_bare_over_api: Math.round(cpuRatio * 100) / 100,
    load_generator_cpu_percent_of_a_core: {
      api: { median: median(generatorCpu.api), all: generatorCpu.api },
      bare_static: { median: median(generatorCpu.bare), all: generatorCpu.bare },
    },
  };
  console.log(JSON.stringify(result, null, 2));
  const row = (label: string, values: number[]) =>
    `| ${label} | ${median(values)} | ${spread(values)} | ${values.join(', ')} |`;
  writeResult(
    'image-serving',
    result,
    `# Generated image serving, local storage

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.memory_gib} GiB, Node ${result.machine.node}; ${result.machine.date}.
Load average (1, 5, 15 min) at the start of each round: ${loads.map((l) => l.join(' / ')).join('; ')}.

${rows.length} generated 1024x1024 JPEGs (mean ${meanKib} KiB); autocannon (in the bench process), ${CONNECTIONS} connections, ${SECONDS} s per server per round, ${ROUNDS} rounds, the servers taking turns to go first. The API: the built \`apps/api/dist/main.js\` (LOG_LEVEL=warn, security headers, rate limits as configured), \`GET /images/generated/{id}?token=\`. The bare server: \`bench/static-images.mjs\`, a Node \`http\` server piping each file (its own process).

| measure | median | spread | rounds |
| --- | --- | --- | --- |
${row('API, images/s', perSecond.api)}
${row('bare static server, images/s', perSecond.bare)}
${row('ratio API / bare (within each round)', ratios)}
${row('API CPU per image, µs', cpuUsPerImage.api)}
${row('bare server CPU per image, µs', cpuUsPerImage.bare)}
${row('load generator CPU during the API runs, % of a core', generatorCpu.api)}
${row('load generator CPU during the bare runs, % of a core', generatorCpu.bare)}

Target: ratio >= 0.95. By CPU per image (steadier on a shared machine), the API costs ${Math.round((1 / cpuRatio) * 100) / 100}x the bare server's.
`,
  );
} finally {
  await Promise.allSettled([stop(api), bare ? stop(bare) : Promise.resolve()]);
  await db.destroy();
  await dropDatabase(adminUrl, database).catch(() => undefined);
  await rm(storageDir, { recursive: true, force: true });
  await rm(photoDir, { recursive: true, force: true });
}
