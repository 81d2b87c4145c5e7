/**
 * Users arriving together, each walking the whole way to a trained model through the built API
 * with the built worker and its studio engine (real Postgres, Redis, BullMQ, face checks and
 * training): sign up, buy a training, open an upload session, upload 12 photos one after another,
 * wait for every check result, complete the session, start training, wait for the model.
 *
 * For 1, 4 and 12 users starting at once (JOURNEY_USERS to choose others):
 *  - the median and maximum journey (sign-up sent -> training completed seen by the user);
 *  - the median time from a user's last upload to their last check result;
 *  - CPU-seconds per journey, read from /proc for the API, the worker and the engine processes
 *    (the worker's children: each training's engine and the warm spare), and the floor those
 *    seconds set on this machine: all users' CPU-seconds / the cores.
 * The machine may be shared: the load average is recorded with every figure, and the conclusions
 * lean on CPU-seconds, which other programs' load does not change much.
 *
 * JOURNEY_LABEL names the run ("before", "after"); results go to results/journeys-<label>.{json,md}.
 */
import { createMigratedDatabase, dropDatabase } from '@studioshot/db/testing';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { makePhotos } from './seed.js';
import {
  apiCall,
  freePort,
  machine,
  median,
  processCpu,
  requireEnv,
  startNode,
  stop,
  trainingUser,
  uploadPhoto,
  waitForHttp,
  writeResult,
} from './common.js';

const USER_COUNTS = (process.env.JOURNEY_USERS ?? '1,4,12').split(',').map(Number);
const LABEL = process.env.JOURNEY_LABEL ?? 'run';
/** How often a user's page asks for the session's check results and the training's status. */
const POLL_MS = 250;
interface Journey {
  totalS: number;
  lastUploadToChecksS: number;
  uploadsS: number;
  checksDoneToTrainedS: number;
}

interface CpuSnapshot {
  api: number;
  worker: number;
  engine: number;
}

function cpuSnapshot(apiPid: number, workerPid: number): CpuSnapshot {
  const api = processCpu(apiPid);
  const worker = processCpu(workerPid);
  // The API starts no children; the worker's children are its engine processes.
  return { api: api.self + api.descendants, worker: worker.self, engine: worker.descendants };
}

async function journey(base: string, email: string, photos: Buffer[]): Promise<Journey> {
  const started = performance.now();
  const token = await trainingUser(base, email);
  const { session_id: sessionId } = await apiCall<{ session_id: string }>(
    base,
    'POST',
    '/api/v1/upload/create-session',
    token,
    { expected_files: photos.length, session_type: 'training' },
  );
  const uploadsStarted = performance.now();
  for (const [i, photo] of photos.entries())
    await uploadPhoto(base, token, sessionId, photo, `photo-${i}.jpg`);
  const lastUpload = performance.now();
  for (;;) {
    const status = await apiCall<{ checks_pending: number; usable_files: number }>(
      base,
      'GET',
      `/api/v1/upload/session/${sessionId}/status`,
      token,
    );
    if (status.checks_pending === 0) {
      if (status.usable_files < 10) throw new Error(`only ${status.usable_files} usable photos`);
      break;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const checksDone = performance.now();
  await apiCall(base, 'POST', `/api/v1/upload/complete/${sessionId}`, token);
  const { id: jobId } = await apiCall<{ id: string }>(
    base,
    'POST',
    '/api/v1/training/start',
    token,
    {
      model_name: 'Journey',
      session_id: sessionId,
    },
  );
  for (;;) {
    const { jobs } = await apiCall<{ jobs: { id: string; status: string }[] }>(
      base,
      'GET',
      '/api/v1/training/jobs',
      token,
    );
    const status = jobs.find((j) => j.id === jobId)?.status;
    if (status === 'completed') break;
    if (status === 'failed') throw new Error(`training ${jobId} failed`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const done = performance.now();
  return {
    totalS: (done - started) / 1000,
    lastUploadToChecksS: (checksDone - lastUpload) / 1000,
    uploadsS: (lastUpload - uploadsStarted) / 1000,
    checksDoneToTrainedS: (done - checksDone) / 1000,
  };
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const load = () => loadavg().map((v) => round(v));

const adminUrl = requireEnv('STUDIOSHOT_PG_ADMIN_URL');
const database = await createMigratedDatabase(adminUrl);
const work = await mkdtemp(path.join(tmpdir(), 'bench-journeys-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = {
  NODE_ENV: 'test',
  PORT: String(port),
  DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${database}`),
  REDIS_URL: requireEnv('REDIS_URL'),
  REDIS_PREFIX: `bench:${database}:`,
  STORAGE_DIR: path.join(work, 'storage'),
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42',
  LOG_LEVEL: 'warn',
  // Every user of every round signs up from this one address.
  REGISTER_MAX_PER_IP: '1000',
  // The worker pool of a one-machine install (read by workers that have pools).
  WORKER_POOL: 'all',
};
const api = startNode('apps/api/dist/main.js', env);
const worker = startNode('apps/worker/dist/main.js', env);

try {
  // A shared machine can be slow to start two apps: a generous limit, not a target.
  await waitForHttp(`${base}/health`, api, 180_000);
  const files = await makePhotos(work);
  const photos = await Promise.all(files.map((file) => readFile(file)));
  // The worker is ready when its engine and face models are loaded: one user walks first, unmeasured.
  await journey(base, `warm-up@example.com`, photos);

  const rounds: Round[] = [];
  const cores = machine().cores;
  for (const users of USER_COUNTS) {
    // The spare engine the previous round's last training left is ready again.
    await new Promise((r) => setTimeout(r, 3000));
    const loadBefore = load();
    const cpuBefore = cpuSnapshot(api.pid!, worker.pid!);
    const roundStarted = performance.now();
    const journeys = await Promise.all(
      Array.from({ length: users }, (_, i) =>
        journey(base, `u${users}-${i}-${Date.now()}@example.com`, photos),
      ),
    );
    const wallS = (performance.now() - roundStarted) / 1000;
    const cpuAfter = cpuSnapshot(api.pid!, worker.pid!);
    const cpu = {
      api: cpuAfter.api - cpuBefore.api,
      worker: cpuAfter.worker - cpuBefore.worker,
      engine: cpuAfter.engine - cpuBefore.engine,
    };
    const cpuTotal = cpu.api + cpu.worker + cpu.engine;
    const totals = journeys.map((j) => j.totalS);
    const round_ = {
      users,
      journey_s: {
        median: round(median(totals)),
        max: round(Math.max(...totals)),
        all: totals.map((v) => round(v)),
      },
      last_upload_to_last_check_s: {
        median: round(median(journeys.map((j) => j.lastUploadToChecksS))),
        max: round(Math.max(...journeys.map((j) => j.lastUploadToChecksS))),
      },
      uploads_s: { median: round(median(journeys.map((j) => j.uploadsS))) },
      checks_done_to_trained_s: {
        median: round(median(journeys.map((j) => j.checksDoneToTrainedS))),
      },
      round_wall_s: round(wallS),
      cpu_s: {
        api: round(cpu.api),
        worker: round(cpu.worker),
        engine: round(cpu.engine),
        total: round(cpuTotal),
        per_journey: round(cpuTotal / users),
      },
      /** The shortest the round could take on this machine's cores if nothing else ran. */
      cpu_floor_s: round(cpuTotal / cores),
      cpu_busy_share: round(cpuTotal / (wallS * cores)),
      load_average: { before: loadBefore, after: load() },
    };
    console.log(JSON.stringify(round_));
    rounds.push(round_);
    // Written after each round: a long run that is stopped keeps the rounds it finished.
    report(rounds, photos.length, cores);
  }
} finally {
  await Promise.all([stop(api), stop(worker)]);
  await dropDatabase(adminUrl, database).catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}

interface Round {
  users: number;
  journey_s: { median: number; max: number; all: number[] };
  last_upload_to_last_check_s: { median: number; max: number };
  cpu_s: { api: number; worker: number; engine: number; total: number; per_journey: number };
  cpu_floor_s: number;
  round_wall_s: number;
  load_average: { before: number[]; after: number[] };
}

function report(rounds: Round[], photosPerUser: number, cores: number): void {
  const result = { label: LABEL, machine: machine(), photos_per_user: photosPerUser, rounds };
  const rows = rounds
    .map(
      (r) =>
        `| ${r.users} | **${r.journey_s.median} s** | ${r.journey_s.max} s | ${r.last_upload_to_last_check_s.median} s | ${r.cpu_s.per_journey} (api ${round(r.cpu_s.api / r.users)}, worker ${round(r.cpu_s.worker / r.users)}, engine ${round(r.cpu_s.engine / r.users)}) | ${r.cpu_floor_s} s | ${r.round_wall_s} s | ${r.load_average.before.join(' ')} -> ${r.load_average.after.join(' ')} |`,
    )
    .join('\n');
  writeResult(
    `journeys-${LABEL}`,
    result,
    `# Journeys: users arriving together, sign-up to trained model (${LABEL})

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.memory_gib} GiB, Node ${result.machine.node}; ${result.machine.date}.
Built API + worker + studio engine on one machine (real Postgres, Redis, face checks, training).
Each user: sign up, buy a training (test card), open a session, upload ${photosPerUser} photos one
after another, poll the checks every ${POLL_MS} ms until none is pending, complete the session,
start training, poll until the model is trained. CPU-seconds are the API's, the worker's and its
engine processes' (from /proc), for the whole round; the floor is those seconds / ${cores} cores,
the shortest the round could take here. Load average (1, 5, 15 min) before -> after the round:
the machine is shared, so compare CPU-seconds first.

| users at once | median journey | max journey | median last upload -> last check | CPU-s per journey | CPU floor of the round | round wall | load average |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows}

Target: median under 30 s for 12 users, or within 25% of the CPU floor. Regenerate with
\`JOURNEY_LABEL=${LABEL} bash bench/run.sh journeys\`.
`,
  );
}
