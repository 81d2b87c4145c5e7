// 20 camera-sized photos (4000 x 3000 JPEG, ~8 MB) uploaded through the built API, one after
// another as the web client sends them: request time per photo, and the API process's peak RSS
// (VmHWM from /proc) over the batch. Targets: processing median < 0.4 s per photo on
// 2 cores, API peak RSS < 350 MB. Inputs are the ones `photo-processing` generates and caches.
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  waitForHttp,
  writeResult,
} from './common.js';

const INPUT_DIR = path.join(ROOT, '.local/bench/photo-processing/4000-3000-92-52');
if (!existsSync(INPUT_DIR))
  throw new Error('run `bash bench/run.sh photo-processing` first: it generates the inputs');
const photos = (await readdir(INPUT_DIR)).filter((f) => /^photo-\d+\.jpg$/.test(f)).sort();

const procStatus = (pid: number, field: string) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(field));
  return line ? Number(line.replace(/\D+/g, '')) / 1024 : NaN; // MB
};

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const work = await mkdtemp(path.join(tmpdir(), 'bench-upload-'));
const port = await freePort();
const api = startNode('apps/api/dist/main.js', {
  NODE_ENV: 'production',
  PORT: String(port),
  DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${database}`),
  REDIS_URL: requireEnv('REDIS_URL'),
  REDIS_PREFIX: `bench:${database}:`,
  STORAGE_DIR: path.join(work, 'storage'),
  UPLOAD_TMP_DIR: path.join(work, 'incoming'),
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42',
  LOG_LEVEL: 'warn',
});
const base = `http://127.0.0.1:${port}`;
try {
  await waitForHttp(`${base}/health`, api);
  const token = await trainingUser(base, 'bench-upload@example.com');
  const { session_id } = await apiCall<{ session_id: string }>(
    base,
    'POST',
    '/api/v1/upload/create-session',
    token,
    { expected_files: 20, session_type: 'training' },
  );
  const rssBefore = procStatus(api.pid!, 'VmRSS');
  const seconds: number[] = [];
  let bytes = 0;
  for (const name of photos) {
    const data = await readFile(path.join(INPUT_DIR, name));
    bytes += data.length;
    const form = new FormData();
    form.append('file', new Blob([data], { type: 'image/jpeg' }), name);
    const started = performance.now();
    const res = await fetch(`${base}/api/v1/upload/file/${session_id}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    seconds.push((performance.now() - started) / 1000);
  }
  const peak = procStatus(api.pid!, 'VmHWM');
  const result = {
    machine: machine(),
    photos: photos.length,
    median_input_mb: Number((bytes / photos.length / 2 ** 20).toFixed(1)),
    request_seconds: {
      median: Number(median(seconds).toFixed(3)),
      runs: seconds.map((s) => Number(s.toFixed(3))),
    },
    api_rss_mb: { before: Math.round(rssBefore), peak: Math.round(peak) },
    targets: { median_s_max: 0.4, peak_rss_mb_max: 350 },
    pass: median(seconds) < 0.4 && peak < 350,
  };
  const md = `# Photo upload through the API

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, Node ${result.machine.node}; ${result.machine.date}.
${photos.length} JPEGs of 4000 x 3000 (~${result.median_input_mb} MB each) sent one after another as multipart to
\`POST /api/v1/upload/file/{session}\` of the built API (multer to disk, magic bytes, header check,
decode, EXIF rotate, strip metadata, 1024 px JPEG + thumbnail, three objects stored, photo row,
check job queued). Request time includes sending 8 MB over loopback.

| measure | result | target |
| --- | --- | --- |
| median request time per photo | **${result.request_seconds.median} s** | < 0.4 s |
| API peak RSS over the batch (VmHWM) | **${result.api_rss_mb.peak} MB** (${result.api_rss_mb.before} MB before) | < 350 MB |

Per photo (s): ${result.request_seconds.runs.join(', ')}.

Result: ${result.pass ? 'PASS' : 'FAIL'}. Regenerate with \`bash bench/run.sh photo-upload\` (after photo-processing).
`;
  writeResult('photo-upload', result, md);
  console.log(md);
} finally {
  await stop(api);
  await dropDatabase(adminUrl, database);
  await rm(work, { recursive: true, force: true });
}
