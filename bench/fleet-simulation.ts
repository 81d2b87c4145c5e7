/**
 * The fleet on one machine: tasks per second for 1, 2 and 4 worker processes of the built worker
 * (one built API, the real engine process answering after ENGINE_ANSWER_AFTER_MS), and how long
 * the fleet simulation of `npm test` takes (e2e/fleet/simulation.ts, the test's sizes).
 *
 * Throughput: FLEET_TASKS tasks (default 60: trainings, generations and two-template batches in
 * equal parts, submitted through the API at once) from the first submission to the last
 * completion, with every worker started and ready before; FLEET_ROUNDS rounds (default 3) of
 * 1, 2 and 4 workers in turn, so a busy moment of a shared machine falls on all counts alike;
 * medians. Each worker runs one training and one generation at a time, so the figure is the
 * fleet's orchestration cost (claims, progress, storage, completions, Postgres and Redis) around
 * a 50 ms engine answer. Where the time goes: the CPU-seconds each part used per task, read from
 * /proc (API, workers, their engines, Postgres) and from Redis' INFO.
 * The machine may be shared: the load average is recorded before, with every figure, and after.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { TEMPLATES } from '@studioshot/templates';
import { Redis } from 'ioredis';
import { Fleet, plainPhoto, waitFor, type Account, type AppProcess } from '../e2e/fleet/fleet.js';
import { runSimulation } from '../e2e/fleet/simulation.js';
import { machine, median, processCpu, ROOT, writeResult } from './common.js';

const WORKER_COUNTS = [1, 2, 4];
const TASKS = Number(process.env.FLEET_TASKS ?? 60);
const ROUNDS = Number(process.env.FLEET_ROUNDS ?? 3);
const ANSWER_AFTER_MS = 50;

const loads = () => loadavg().map((value) => Number(value.toFixed(2)));

/** The first process whose command line contains `text`. */
function pidOf(text: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text))
        return Number(entry);
    } catch {
      // ended meanwhile
    }
  }
  throw new Error(`no process runs ${text}`);
}

interface Cpu {
  api: number;
  workers: number;
  engines: number;
  postgres: number;
  redis: number;
  bench: number;
}

async function cpu(fleet: Fleet, workers: AppProcess[]): Promise<Cpu> {
  const api = processCpu(fleet.apis[0]!.process.child.pid!);
  const each = workers.map((worker) => processCpu(worker.child.pid!));
  // Postgres' server and its backends, all children of the one postmaster of this checkout.
  const postgres = processCpu(pidOf(`-D ${path.join(ROOT, '.local/postgres')}`));
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)![1]);
  const own = process.cpuUsage();
  return {
    api: api.self + api.descendants,
    workers: each.reduce((sum, w) => sum + w.self, 0),
    engines: each.reduce((sum, w) => sum + w.descendants, 0),
    postgres: postgres.self + postgres.descendants,
    redis: field('used_cpu_user') + field('used_cpu_sys'),
    bench: (own.user + own.system) / 1e6,
  };
}

async function measure(
  fleet: Fleet,
  workers: number,
  account: Account,
  model: string,
  photos: string[],
) {
  const started: AppProcess[] = [];
  try {
    for (let slot = 0; slot < workers; slot += 1) started.push(await fleet.startWorker(slot));
    const third = Math.floor(TASKS / 3);
    const completedBefore = await completed(fleet);
    const sessions = await Promise.all(
      [...Array(third).keys()].map(() => fleet.checkedSession(account.userId, photos)),
    );
    const generate = (batch: boolean) =>
      fleet.call(0, 'POST', '/api/v1/queue/submit', account.token, {
        task_type: batch ? 'batch_generation' : 'generation',
        params: {
          model_id: model,
          ...(batch
            ? { template_ids: [TEMPLATES[0]!.id, TEMPLATES[1]!.id] }
            : { template_id: TEMPLATES[0]!.id }),
          num_images: 1,
        },
      });
    const loadAtStart = loads();
    const cpuBefore = await cpu(fleet, started);
    const startedAt = Date.now();
    await Promise.all([
      ...sessions.map((sessionId) =>
        fleet.call(0, 'POST', '/api/v1/training/start', account.token, {
          model_name: 'Bench',
          session_id: sessionId,
        }),
      ),
      ...[...Array(third).keys()].map(() => generate(false)),
      ...[...Array(third).keys()].map(() => generate(true)),
    ]);
    await waitFor(
      async () => ((await completed(fleet)) >= completedBefore + 3 * third ? true : undefined),
      'every task',
      600_000,
    );
    const seconds = (Date.now() - startedAt) / 1000;
    const cpuAfter = await cpu(fleet, started);
    const tasks = 3 * third;
    const cpuPerTask = Object.fromEntries(
      Object.keys(cpuAfter).map((key) => [
        key,
        Number(((cpuAfter[key as keyof Cpu] - cpuBefore[key as keyof Cpu]) / tasks).toFixed(4)),
      ]),
    ) as unknown as Cpu;
    return {
      workers,
      tasks,
      seconds,
      tasks_per_second: tasks / seconds,
      cpu_seconds_per_task: cpuPerTask,
      load_average_at_start: loadAtStart,
    };
  } finally {
    // Drained as a rollout would: the next count starts on a fleet without them.
    for (const worker of started) await worker.stop();
  }
}

async function completed(fleet: Fleet): Promise<number> {
  const row = await fleet.db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const host = machine();
// Redis' own CPU time, from its INFO.
const redis = new Redis(process.env.REDIS_URL!);
const loadBefore = loads();
console.log(`load average before: ${loadBefore.join(' ')}`);

const fleet = await Fleet.create({
  workerEnv: { ENGINE_ANSWER_AFTER_MS: String(ANSWER_AFTER_MS) },
});
const photos = await Promise.all(
  [...Array(10).keys()].map(async (i) => {
    const file = path.join(tmpdir(), `fleet-bench-${randomUUID()}.jpg`);
    await writeFile(file, await plainPhoto(i));
    return file;
  }),
);
const runs: Awaited<ReturnType<typeof measure>>[] = [];
try {
  await fleet.startApi();
  // One account for every round: the generations' model is its own (the engine answers after
  // its sleep whatever model it is given), with room for every round's trainings and images.
  const owner = await fleet.account(
    0,
    3 * ROUNDS * WORKER_COUNTS.length * TASKS,
    1 + ROUNDS * WORKER_COUNTS.length * TASKS,
  );
  const worker = await fleet.startWorker(0);
  const model = await fleet.call<{ id: string }>(0, 'POST', '/api/v1/training/start', owner.token, {
    model_name: 'Bench model',
    session_id: await fleet.checkedSession(owner.userId, photos),
  });
  await waitFor(
    async () => ((await completed(fleet)) >= 1 ? true : undefined),
    'the model',
    120_000,
  );
  await worker.stop();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const workers of WORKER_COUNTS) {
      const run = await measure(fleet, workers, owner, model.id, photos);
      console.log(JSON.stringify({ round, ...run }));
      runs.push(run);
    }
  }
} finally {
  await fleet.close();
  redis.disconnect();
  await Promise.all(photos.map((file) => rm(file, { force: true })));
}

const byCount = WORKER_COUNTS.map((workers) => {
  const of = runs.filter((r) => r.workers === workers);
  const parts = Object.keys(of[0]!.cpu_seconds_per_task) as (keyof Cpu)[];
  return {
    workers,
    tasks_per_second: median(of.map((r) => r.tasks_per_second)),
    spread: [
      Math.min(...of.map((r) => r.tasks_per_second)),
      Math.max(...of.map((r) => r.tasks_per_second)),
    ],
    cpu_seconds_per_task: Object.fromEntries(
      parts.map((part) => [part, median(of.map((r) => r.cpu_seconds_per_task[part]))]),
    ) as unknown as Cpu,
  };
});
const total = (c: Cpu) => c.api + c.workers + c.engines + c.postgres + c.redis + c.bench;
const write = (simulation?: Simulation) =>
  writeResult(
    'fleet-simulation',
    {
      machine: host,
      load_average_before: loadBefore,
      load_average_after: loads(),
      answer_after_ms: ANSWER_AFTER_MS,
      tasks_per_run: 3 * Math.floor(TASKS / 3),
      rounds: ROUNDS,
      throughput: byCount,
      runs,
      simulation,
    },
    `# The fleet on one machine (built API and workers, real engine answering after ${ANSWER_AFTER_MS} ms)

Machine: ${host.cpu}, ${host.cores} cores, ${host.memory_gib} GiB, Node ${host.node}; ${host.date}.
Load average (1, 5, 15 min) ${loadBefore.join(' / ')} before the bench, ${loads().join(' / ')} after.

Tasks per second: ${3 * Math.floor(TASKS / 3)} tasks a run (trainings, generations, two-template batches alike),
${ROUNDS} rounds of 1, 2 and 4 workers in turn, medians (min-max). CPU-seconds per task by part, medians.

| workers | tasks / s | min-max | API | workers | engines | Postgres | Redis | bench | all |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${byCount
  .map((r) => {
    const c = r.cpu_seconds_per_task;
    return `| ${r.workers} | **${r.tasks_per_second.toFixed(2)}** | ${r.spread.map((v) => v.toFixed(2)).join('-')} | ${[c.api, c.workers, c.engines, c.postgres, c.redis, c.bench, total(c)].map((v) => v.toFixed(3)).join(' | ')} |`;
  })
  .join('\n')}

Each run, with the 1-minute load average at its start:

| workers | seconds | tasks / s | load average |
| --- | --- | --- | --- |
${runs.map((r) => `| ${r.workers} | ${r.seconds.toFixed(1)} | ${r.tasks_per_second.toFixed(2)} | ${r.load_average_at_start[0]} |`).join('\n')}

${
  simulation
    ? `The fleet simulation (2 APIs, 3 workers, ${simulation.real} real and ${simulation.bulk} fixed-sleep tasks of each type: ${simulation.tasks} tasks and ${simulation.photo_checks} photo checks; seed ${simulation.seed}): **${simulation.seconds.toFixed(0)} s**, load average ${simulation.load_average_at_start[0]} at its start and ${simulation.load_average_at_end[0]} at its end. Kills and the drain, with the tasks completed and left:

| signal | threshold | completed | left | of them submitted |
| --- | --- | --- | --- | --- |
${simulation.chaos.map((e) => `| ${e.signal} | ${e.threshold} of ${e.total} | ${e.completed} | ${e.total - e.completed} | ${e.inFlight} |`).join('\n')}
`
    : 'The fleet simulation was not part of this run (FLEET_SIMULATION=0, or still to come).\n'
}
Regenerate with \`bash bench/run.sh fleet-simulation\`.
`,
  );

type Simulation = Awaited<ReturnType<typeof simulate>>;
// The simulation as npm test runs it (its sizes unless FLEET_REAL, FLEET_BULK say otherwise).
async function simulate() {
  const seed = Number(process.env.FLEET_SEED ?? 1);
  const real = Number(process.env.FLEET_REAL ?? 10);
  const bulk = Number(process.env.FLEET_BULK ?? 60);
  const loadAtStart = loads();
  const report = await runSimulation({
    seed,
    real,
    bulk,
    kills: 4,
    answerAfterMs: ANSWER_AFTER_MS,
    log: (line) => console.log(`fleet: ${line}`),
  });
  await report.fleet.close();
  return {
    seed,
    real,
    bulk,
    seconds: report.durationMs / 1000,
    tasks: report.trainings.length + report.generations.length,
    photo_checks: report.uploads,
    chaos: report.chaos,
    load_average_at_start: loadAtStart,
    load_average_at_end: loads(),
  };
}

// The throughput figures are written first, so a long simulation cannot lose them.
write();
if (process.env.FLEET_SIMULATION !== '0') {
  const simulation = await simulate();
  console.log(JSON.stringify(simulation));
  write(simulation);
}
