// 20 face photos uploaded through the real API with the real worker running the face checks.
// Target: every photo's check result visible within 30 s of the last upload.
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  apiCall,
  freePort,
  machine,
  median,
  requireEnv,
  ROOT,
  startNode,
  stop,
  trainingUser,
  uploadPhoto,
  waitForHttp,
  writeResult,
} from './common.js';

const PHOTOS = 20;
const RUNS = 3;
const FIXTURES = path.join(ROOT, 'apps/worker/test/fixtures');

/** 20 distinct photos of one person: the astronaut fixtures, varied so no two are identical. */
async function makePhotos(dir: string): Promise<string[]> {
  const sources = (await readdir(FIXTURES)).filter(
    (f) => f.startsWith('astronaut') && f.endsWith('.jpg'),
  );
  const files: string[] = [];
  for (let i = 0; i < PHOTOS; i += 1) {
    const source = path.join(FIXTURES, sources[i % sources.length]!);
    const out = path.join(dir, `photo-${i}.jpg`);
    await sharp(source)
      .rotate()
      .resize(1024, 1024, { fit: 'inside' })
      .modulate({ brightness: 0.9 + (i % 5) * 0.05, saturation: 0.9 + (i % 3) * 0.1 })
      .jpeg({ quality: 88 - (i % 4) })
      .toFile(out);
    files.push(out);
  }
  return files;
}

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const work = await mkdtemp(path.join(tmpdir(), 'bench-photo-checks-'));
const port = await freePort();
const env = {
  NODE_ENV: 'production',
  PORT: String(port),
  DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${database}`),
  REDIS_URL: requireEnv('REDIS_URL'),
  REDIS_PREFIX: `bench:${database}:`,
  STORAGE_DIR: path.join(work, 'storage'),
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42',
  LOG_LEVEL: 'warn',
  // Production requires the worker's pool: this one machine's worker takes every queue.
  WORKER_POOL: 'all',
};
const api = startNode('apps/api/dist/main.js', env);
const worker = startNode('apps/worker/dist/main.js', env);
const base = `http://127.0.0.1:${port}`;

try {
  await waitForHttp(`${base}/health`, api);
  const files = await makePhotos(work);
  const samples: { afterLastUploadS: number; totalS: number }[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const token = await trainingUser(base, `bench-${run}@example.com`);
    const { session_id } = await apiCall<{ session_id: string }>(
      base,
      'POST',
      '/api/v1/upload/create-session',
      token,
      {
        expected_files: PHOTOS,
        session_type: 'training',
      },
    );
    const started = performance.now();
    for (const file of files)
      await uploadPhoto(base, token, session_id, await sharp(file).toBuffer(), path.basename(file));
    const lastUpload = performance.now();
    for (;;) {
      const status = await apiCall<{ checks_pending: number; usable_files: number }>(
        base,
        'GET',
        `/api/v1/upload/session/${session_id}/status`,
        token,
      );
      if (status.checks_pending === 0) break;
      if (performance.now() - lastUpload > 120_000)
        throw new Error('checks did not finish in 2 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const done = performance.now();
    samples.push({ afterLastUploadS: (done - lastUpload) / 1000, totalS: (done - started) / 1000 });
  }
  const after = median(samples.map((s) => s.afterLastUploadS));
  const result = {
    machine: machine(),
    photos: PHOTOS,
    runs: RUNS,
    seconds_after_last_upload: {
      median: Number(after.toFixed(2)),
      runs: samples.map((s) => Number(s.afterLastUploadS.toFixed(2))),
    },
    seconds_first_upload_to_all_checked: {
      median: Number(median(samples.map((s) => s.totalS)).toFixed(2)),
    },
    target_seconds: 30,
    pass: after < 30,
  };
  const md = `# Photo checks for a set of 20

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, Node ${result.machine.node}; ${result.machine.date}.
${PHOTOS} face photos (1024 px) uploaded one after another through the built API; the built worker
runs the face checks (face-api, tfjs WASM backend, one per photo-check thread) as each photo arrives; the
session status is polled every 100 ms. ${RUNS} runs, medians quoted.

| measure | median | runs | target |
| --- | --- | --- | --- |
| all results visible after the last upload | **${result.seconds_after_last_upload.median} s** | ${result.seconds_after_last_upload.runs.join(', ')} | < 30 s |
| first upload to all results | ${result.seconds_first_upload_to_all_checked.median} s | | |

Result: ${result.pass ? 'PASS' : 'FAIL'}. Regenerate with \`bash bench/run.sh photo-checks\`.
`;
  writeResult('photo-checks', result, md);
  console.log(md);
} finally {
  await Promise.all([stop(api), stop(worker)]);
  await dropDatabase(adminUrl, database);
  await rm(work, { recursive: true, force: true });
}
