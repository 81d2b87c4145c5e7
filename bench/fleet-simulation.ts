/**
 * The fleet on one machine: tasks per second for 1, 2 and 4 worker processes of the built worker
 * (one built API, the real engine process answering after ENGINE_ANSWER_AFTER_MS), and how long
 * the fleet simulation of `npm test` takes (e2e/fleet/simulation.ts, same sizes as its test).
 *
 * Throughput: FLEET_TASKS tasks (default 120: trainings, generations and two-template batches in
 * equal parts, submitted through the API as fast as it takes them) from the first submission to
 * the last completion, with every worker started and ready before. Each worker runs one training
 * and one generation at a time, so the figure is the fleet's orchestration cost (claims, progress,
 * storage, completions, Postgres and Redis) around a 50 ms engine answer. The machine may be
 * shared: its load average is recorded with every figure.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { TEMPLATES } from '@studioshot/templates';
import { Fleet, plainPhoto, waitFor } from '../e2e/fleet/fleet.js';
import { runSimulation } from '../e2e/fleet/simulation.js';
import { machine, writeResult } from './common.js';

const WORKER_COUNTS = [1, 2, 4];
const TASKS = Number(process.env.FLEET_TASKS ?? 120);
const ANSWER_AFTER_MS = 50;

async function throughput(workers: number) {
  const fleet = await Fleet.create({
    workerEnv: { ENGINE_ANSWER_AFTER_MS: String(ANSWER_AFTER_MS) },
  });
  try {
    await fleet.startApi();
    for (let slot = 0; slot < workers; slot += 1) await fleet.startWorker(slot);
    const account = await fleet.account(0, 10 * TASKS, TASKS + 1);
    const photos = await Promise.all(
      [...Array(10).keys()].map(async (i) => {
        const file = path.join(tmpdir(), `fleet-bench-${randomUUID()}.jpg`);
        await writeFile(file, await plainPhoto(i));
        return file;
      }),
    );
    const completed = async () =>
      Number(
        (
          await fleet.db
            .selectFrom('tasks')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('status', '=', 'completed')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const train = async () => {
      const sessionId = await fleet.checkedSession(account.userId, photos);
      return fleet.call<{ id: string }>(0, 'POST', '/api/v1/training/start', account.token, {
        model_name: 'Bench',
        session_id: sessionId,
      });
    };
    // The generations' model (a stand-in: the engine answers after its sleep whatever it reads).
    const model = await train();
    await waitFor(async () => ((await completed()) >= 1 ? true : undefined), 'the model', 120_000);
    const third = Math.floor(TASKS / 3);
    const sessions = await Promise.all(
      [...Array(third).keys()].map(() => fleet.checkedSession(account.userId, photos)),
    );
    const generate = (batch: boolean) =>
      fleet.call(0, 'POST', '/api/v1/queue/submit', account.token, {
        task_type: batch ? 'batch_generation' : 'generation',
        params: {
          model_id: model.id,
          ...(batch
            ? { template_ids: [TEMPLATES[0]!.id, TEMPLATES[1]!.id] }
            : { template_id: TEMPLATES[0]!.id }),
          num_images: 1,
        },
      });
    const load = loadavg()[0]!;
    const started = Date.now();
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
      async () => ((await completed()) >= 1 + 3 * third ? true : undefined),
      'every task',
      600_000,
    );
    const seconds = (Date.now() - started) / 1000;
    return {
      workers,
      tasks: 3 * third,
      seconds,
      tasks_per_second: (3 * third) / seconds,
      load_average_1m: load,
    };
  } finally {
    await fleet.close();
  }
}

const runs = [];
for (const workers of WORKER_COUNTS) {
  const run = await throughput(workers);
  console.log(JSON.stringify(run));
  runs.push(run);
}
const simulationLoad = loadavg()[0]!;
const seed = 1;
// The test's sizes unless told otherwise (FLEET_REAL, FLEET_BULK, as the test reads them).
const real = Number(process.env.FLEET_REAL ?? 10);
const bulk = Number(process.env.FLEET_BULK ?? 200);
const report = await runSimulation({ seed, real, bulk, kills: 4, answerAfterMs: 50 });
await report.fleet.close();
const simulation = {
  seed,
  real,
  bulk,
  seconds: report.durationMs / 1000,
  tasks: report.trainings.length + report.generations.length,
  photo_checks: report.uploads,
  load_average_1m_at_start: simulationLoad,
  load_average_1m_at_end: loadavg()[0]!,
};
console.log(JSON.stringify(simulation));
const host = machine();
writeResult(
  'fleet-simulation',
  { machine: host, answer_after_ms: ANSWER_AFTER_MS, throughput: runs, simulation },
  `# The fleet on one machine (built API and workers, real engine answering after ${ANSWER_AFTER_MS} ms)

Machine: ${host.cpu}, ${host.cores} cores, ${host.memory_gib} GiB, Node ${host.node}; ${host.date}.
Shared with other work: the 1-minute load average at each run's start is in the table.

| workers | tasks | seconds | tasks / s | load average |
| --- | --- | --- | --- | --- |
${runs.map((r) => `| ${r.workers} | ${r.tasks} | ${r.seconds.toFixed(1)} | **${r.tasks_per_second.toFixed(2)}** | ${r.load_average_1m.toFixed(1)} |`).join('\n')}

The fleet simulation (2 APIs, 3 workers, ${real} real and ${bulk} fixed-sleep tasks of each type, ${simulation.tasks} tasks and ${simulation.photo_checks} photo checks, 5 SIGKILLs, 4 drains, seed ${seed}): **${simulation.seconds.toFixed(0)} s** (load average ${simulationLoad.toFixed(1)} at its start, ${simulation.load_average_1m_at_end.toFixed(1)} at its end).

Regenerate with \`bash bench/run.sh fleet-simulation\`.
`,
);
