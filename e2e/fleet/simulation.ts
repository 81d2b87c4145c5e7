import { taskQueueName, QUEUES } from '@studioshot/contracts';
import { CREDITS_PER_GENERATION } from '@studioshot/pricing';
import { TEMPLATES } from '@studioshot/templates';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  facePhotos,
  Fleet,
  plainPhoto,
  scaledObjectTriggers,
  seededRandom,
  waitFor,
  type Account,
  type ScaledObjectTrigger,
} from './fleet.js';

/**
 * The fleet simulation: 2 API processes and 3 worker processes (each with its real studio
 * engine) against one database and one Redis. First every task type does real studio work; then
 * a rollout moves the workers onto ENGINE_ANSWER_AFTER_MS (the engine answers after a fixed
 * sleep) and a few hundred tasks of every type run while workers are SIGKILLed and restarted at
 * seeded random moments and one is drained with SIGTERM. Meanwhile the queue load each
 * ScaledObject reads is compared with BullMQ's own counts.
 */

export interface SimulationOptions {
  seed: number;
  /** Tasks of each kind that do real studio work (trainings, generations, batches). */
  real: number;
  /** Tasks of each type on the fixed-sleep engine, and photo checks. */
  bulk: number;
  /** SIGKILLs during the bulk part (one more during the real part). */
  kills: number;
  answerAfterMs: number;
  log?: (line: string) => void;
}

/** Short locks and stalled checks, so a killed worker's job is taken up again within seconds. */
const FAST_STALLS = {
  WORKER_LOCK_MS: '3000',
  WORKER_STALLED_INTERVAL_MS: '1000',
  // Every worker death a job lives through here is the simulation's, not the job's fault.
  WORKER_MAX_STALLED_COUNT: '50',
  WORKER_SHUTDOWN_GRACE_MS: '20000',
};
const WORKERS = 3;
const APIS = 2;
const TASK_QUEUES = (['training', 'generation', 'batch_generation'] as const).map((type) =>
  taskQueueName(type, 'studio'),
);

export interface LoadReading {
  trigger: string;
  endpoint: number;
  truth: number;
  phase: 'filling' | 'draining';
}

export interface SimulationReport {
  seed: number;
  durationMs: number;
  fleet: Fleet;
  accounts: Account[];
  /** Credits each account was granted and what its generations asked (items x images). */
  granted: Map<string, number>;
  asked: Map<string, number>;
  trainings: { taskId: string; userId: string; real: boolean }[];
  generations: { taskId: string; userId: string; images: number; real: boolean }[];
  uploads: number;
  /** The SIGKILLs and the mid-run drain, each with the work it found left. */
  chaos: ChaosEvent[];
  drained: { slot: number; exit: { code: number | null; signal: string | null } }[];
  readings: LoadReading[];
  triggers: ScaledObjectTrigger[];
}

type Counts = Record<string, number>;

/**
 * One kill or drain. `threshold` is the completed-task count it waited for, `completed` the count
 * read just after the signal was sent, `total` the tasks of its part (submitted or still to be),
 * so `total - completed` is the work it found left at least; `inFlight` of those were submitted.
 */
export interface ChaosEvent {
  signal: NodeJS.Signals;
  slot: number;
  threshold: number;
  completed: number;
  total: number;
  inFlight: number;
}

/** Each kill and the drain fire by this share of their part's tasks at the latest. */
export const CHAOS_LATEST_SHARE = 0.8;
/** Tasks past this share of the part wait for every kill and the drain to have fired. */
const SUBMISSION_HOLD_SHARE = 0.9;

/**
 * The load KEDA would read, compared exactly: BullMQ's counts of the trigger's queues (each read
 * in one MULTI), then the endpoint, then the counts again. Any job moving between the two count
 * readings changes some count, so equal readings mean the endpoint answered while nothing moved
 * and must equal them; otherwise the reading is taken again.
 */
async function readLoadExactly(
  fleet: Fleet,
  trigger: ScaledObjectTrigger,
  apiIndex: number,
  phase: LoadReading['phase'],
): Promise<LoadReading | undefined> {
  const counts = () =>
    Promise.all(
      trigger.queues.map((name) =>
        fleet
          .queue(name)
          .getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed'),
      ),
    );
  const before = await counts();
  const api = fleet.apis[apiIndex % fleet.apis.length]!;
  const answer = (await (
    await fetch(`${api.metricsBase}${trigger.pathAndQuery}`)
  ).json()) as Record<string, unknown>;
  const after = await counts();
  if (JSON.stringify(before) !== JSON.stringify(after)) return undefined;
  const value = trigger.valueLocation
    .split('.')
    .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], answer);
  const load = (c: Counts) => (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.active ?? 0);
  return {
    trigger: trigger.name,
    endpoint: Number(value),
    truth: before.reduce((sum, c) => sum + load(c), 0),
    phase,
  };
}

export async function runSimulation(options: SimulationOptions): Promise<SimulationReport> {
  const log = options.log ?? (() => undefined);
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const started = Date.now();
  const fleet = await Fleet.create({ workerEnv: FAST_STALLS });
  const photoDir = await mkdtemp(path.join(tmpdir(), 'fleet-photos-'));
  const triggers = scaledObjectTriggers();
  const report: SimulationReport = {
    seed: options.seed,
    durationMs: 0,
    fleet,
    accounts: [],
    granted: new Map(),
    asked: new Map(),
    trainings: [],
    generations: [],
    uploads: 0,
    chaos: [],
    drained: [],
    readings: [],
    triggers,
  };
  let watching = false;
  let calls = 0;
  const nextApi = () => calls++;
  try {
    for (let i = 0; i < APIS; i += 1) await fleet.startApi();
    await Promise.all([...Array(WORKERS).keys()].map((slot) => fleet.startWorker(slot)));
    log(`fleet up: ${APIS} APIs, ${WORKERS} workers (${Date.now() - started} ms)`);

    const faces = await facePhotos(photoDir);
    const plain = await Promise.all(
      [...Array(10).keys()].map(async (i) => {
        const file = path.join(photoDir, `plain-${i}.jpg`);
        await writeFile(file, await plainPhoto(i));
        return file;
      }),
    );
    const generationsPerAccount = Math.ceil((3 * (options.real + options.bulk)) / 5);
    for (let i = 0; i < 5; i += 1) {
      const credits = 3 * generationsPerAccount;
      const account = await fleet.account(nextApi(), credits, options.real + options.bulk);
      report.accounts.push(account);
      report.granted.set(account.userId, credits);
      report.asked.set(account.userId, 0);
    }
    const accounts = report.accounts;

    // What is done: tasks completed in the database, photos checked.
    const completed = async () => {
      const row = await fleet.db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', '=', 'completed')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const checked = async () => {
      const row = await fleet.db
        .selectFrom('photos')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('check_status', '=', 'done')
        .where('original_filename', '=', 'photo.jpg')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const notCompleted = async () => {
      const row = await fleet.db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', '!=', 'completed')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    let chaosFailure: Error | undefined;
    const untilDone = (tasks: number, photos: number, what: string) =>
      waitFor(
        async () => {
          if (chaosFailure) throw chaosFailure;
          const failed = await fleet.db
            .selectFrom('tasks')
            .select(['id', 'task_type', 'status', 'error_message'])
            .where('status', 'in', ['failed', 'cancelled'])
            .execute();
          if (failed.length > 0) throw new Error(`tasks ended badly: ${JSON.stringify(failed)}`);
          return (await completed()) >= tasks && (await checked()) >= photos ? true : undefined;
        },
        what,
        540_000,
      );

    // Chaos: a worker is SIGKILLed (or drained) once `completed` passes each threshold, and
    // restarted at once. Restarts run beside the next waits, so one slow engine start cannot push
    // the later kills past the end of the work; a slot being restarted is not picked again.
    const restarting = new Set<number>();
    let chaos: Promise<void> = Promise.resolve();
    let chaosFired: Promise<void> = Promise.resolve();
    const chaosAt = (total: number, thresholds: { at: number; signal: NodeJS.Signals }[]) => {
      let fired!: () => void;
      chaosFired = new Promise((resolve) => (fired = resolve));
      chaos = (async () => {
        const restarts: Promise<void>[] = [];
        for (const { at, signal } of thresholds.sort((a, b) => a.at - b.at)) {
          await waitFor(
            async () => ((await completed()) >= at ? true : undefined),
            `${at} tasks`,
            540_000,
          );
          const draw = random();
          const slot = await waitFor(
            async () => {
              const up = [...Array(WORKERS).keys()].filter((s) => !restarting.has(s));
              return up.length > 0 ? up[Math.floor(draw * up.length)] : undefined;
            },
            'a worker that is up',
            120_000,
          );
          restarting.add(slot);
          const worker = fleet.workers[slot]!;
          worker.kill(signal);
          // Read after the signal: work left then was left at the signal too.
          const [done, pending] = await Promise.all([completed(), notCompleted()]);
          const event = { signal, slot, threshold: at, completed: done, total, inFlight: pending };
          report.chaos.push(event);
          log(
            `${signal} ${worker.name} at ${done} of ${total} tasks completed (threshold ${at}): ` +
              `${total - done} left, ${pending} of them submitted; restarting it`,
          );
          restarts.push(
            (async () => {
              const exit = await worker.exited;
              if (signal === 'SIGTERM') report.drained.push({ slot, exit });
              await fleet.startWorker(slot);
              restarting.delete(slot);
            })(),
          );
        }
        fired();
        await Promise.all(restarts);
      })();
      chaos.catch((error: Error) => (chaosFailure = error));
    };

    // The queue load, read as KEDA reads it, all along.
    watching = true;
    let phase: LoadReading['phase'] = 'filling';
    const watcher = (async () => {
      let round = 0;
      while (watching) {
        for (const trigger of triggers) {
          const reading = await readLoadExactly(fleet, trigger, round, phase);
          if (reading) report.readings.push(reading);
        }
        round += 1;
        // A reading every few tens of milliseconds is plenty, and leaves the cores to the fleet.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    // Part one: real studio work for every type.
    const templates = [TEMPLATES[0]!.id, TEMPLATES[1]!.id];
    const realModels: { modelId: string; account: Account }[] = [];
    chaosAt(options.real, [{ at: Math.ceil(options.real / 2), signal: 'SIGKILL' }]);
    await Promise.all(
      [...Array(options.real).keys()].map(async (i) => {
        const account = accounts[i % accounts.length]!;
        const sessionId = await fleet.checkedSession(account.userId, faces);
        const task = await fleet.call<{ id: string }>(
          nextApi(),
          'POST',
          '/api/v1/training/start',
          account.token,
          { model_name: `Real ${i}`, session_id: sessionId },
        );
        report.trainings.push({ taskId: task.id, userId: account.userId, real: true });
        realModels.push({ modelId: task.id, account });
      }),
    );
    const submitGeneration = async (
      model: { modelId: string; account: Account },
      batch: boolean,
      real: boolean,
    ) => {
      const items = batch ? 2 : 1;
      const task = await fleet.call<{ task_id: string }>(
        nextApi(),
        'POST',
        '/api/v1/queue/submit',
        model.account.token,
        {
          task_type: batch ? 'batch_generation' : 'generation',
          params: {
            model_id: model.modelId,
            ...(batch ? { template_ids: templates } : { template_id: templates[0] }),
            num_images: 1,
          },
        },
      );
      const userId = model.account.userId;
      report.asked.set(userId, report.asked.get(userId)! + items * CREDITS_PER_GENERATION);
      report.generations.push({ taskId: task.task_id, userId, images: items, real });
    };
    const uploadSessions: { account: Account; sessionId: string; left: number }[] = [];
    const uploadPhoto = async (bytes: Buffer) => {
      let session = uploadSessions.find((s) => s.left > 0);
      if (!session) {
        const account = pick(accounts);
        const created = await fleet.call<{ session_id: string }>(
          nextApi(),
          'POST',
          '/api/v1/upload/create-session',
          account.token,
          { expected_files: 20 },
        );
        session = { account, sessionId: created.session_id, left: 20 };
        uploadSessions.push(session);
      }
      session.left -= 1;
      await fleet.upload(nextApi(), session.account.token, session.sessionId, bytes);
      report.uploads += 1;
    };
    await untilDone(options.real, 0, 'the real trainings');
    await chaos;
    const faceBytes = await Promise.all(faces.map((f) => readFile(f)));
    await Promise.all([
      ...realModels.map((model) => submitGeneration(model, false, true)),
      ...realModels.map((model) => submitGeneration(model, true, true)),
      ...faceBytes.slice(0, 10).map((bytes) => uploadPhoto(bytes)),
    ]);
    await untilDone(3 * options.real, 10, 'the real generations and face checks');
    log(`real part done (${Date.now() - started} ms)`);

    // The rollout: workers on the fixed-sleep engine start beside the old ones, which are then
    // drained (SIGTERM), as a rolling update with surge does.
    fleet.setWorkerEnv({ ...FAST_STALLS, ENGINE_ANSWER_AFTER_MS: String(options.answerAfterMs) });
    const old = [...fleet.workers];
    await Promise.all([...Array(WORKERS).keys()].map((slot) => fleet.startWorker(slot)));
    for (const [slot, worker] of old.entries()) {
      worker!.kill('SIGTERM');
      report.drained.push({ slot, exit: await worker!.exited });
    }
    log(`rolled out (${Date.now() - started} ms)`);

    // Part two: a few hundred tasks of every type, with kills and a drain mid-run.
    const sessions = await Promise.all(
      [...Array(options.bulk).keys()].map(async (i) => {
        const account = accounts[i % accounts.length]!;
        return { account, sessionId: await fleet.checkedSession(account.userId, plain) };
      }),
    );
    const base = 3 * options.real;
    const total = base + 3 * options.bulk;
    // The kills and the drain, one in each equal stretch from 5% into the bulk part to 80% of
    // all tasks, at a seeded random point of it; the drain takes a seeded random stretch.
    const events = options.kills + 1;
    const earliest = base + Math.ceil(0.05 * (total - base));
    const latest = Math.floor(CHAOS_LATEST_SHARE * total);
    const stretch = (latest - earliest) / events;
    const drainAt = Math.floor(random() * events);
    chaosAt(
      total,
      [...Array(events).keys()].map((i) => ({
        at: earliest + Math.floor(stretch * (i + random())),
        signal: i === drainAt ? ('SIGTERM' as const) : ('SIGKILL' as const),
      })),
    );
    // The last tenth of the tasks is held back until every kill and the drain has fired, so none
    // can find the work all done, however quickly the workers got through it.
    const hold = Math.floor(SUBMISSION_HOLD_SHARE * total);
    let tasksSubmitted = base;
    const inTurn = async () => {
      if (tasksSubmitted++ >= hold) await chaosFired;
    };
    const submissions: (() => Promise<void>)[] = [
      ...sessions.map(({ account, sessionId }, i) => async () => {
        await inTurn();
        const task = await fleet.call<{ id: string }>(
          nextApi(),
          'POST',
          '/api/v1/training/start',
          account.token,
          { model_name: `Fleet ${i}`, session_id: sessionId },
        );
        report.trainings.push({ taskId: task.id, userId: account.userId, real: false });
      }),
      ...[...Array(options.bulk).keys()].map(() => async () => {
        await inTurn();
        await submitGeneration(pick(realModels), false, false);
      }),
      ...[...Array(options.bulk).keys()].map(() => async () => {
        await inTurn();
        await submitGeneration(pick(realModels), true, false);
      }),
      ...[...Array(options.bulk).keys()].map((i) => async () => uploadPhoto(await plainPhoto(i))),
    ];
    // Shuffled (seeded), sent four at a time, as many users at once would.
    for (let i = submissions.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [submissions[i], submissions[j]] = [submissions[j]!, submissions[i]!];
    }
    let next = 0;
    await Promise.all(
      [...Array(4).keys()].map(async () => {
        while (next < submissions.length) await submissions[next++]!();
      }),
    );
    phase = 'draining';
    log(`all submitted (${Date.now() - started} ms)`);
    await untilDone(total, 10 + options.bulk, 'every task and photo check');
    await chaos;
    watching = false;
    await watcher;
    // Drained: one last reading of each, which must say 0.
    for (const trigger of triggers) {
      const reading = await waitFor(
        () => readLoadExactly(fleet, trigger, 0, 'draining'),
        `a steady reading of ${trigger.name}`,
        30_000,
      );
      report.readings.push(reading);
    }
    report.durationMs = Date.now() - started;
    log(`simulation done (${report.durationMs} ms)`);
    return report;
  } catch (error) {
    watching = false;
    const logs = fleet.logs();
    await fleet.close();
    throw new Error(`${(error as Error).message}\n${logs}`, { cause: error });
  } finally {
    await rm(photoDir, { recursive: true, force: true });
  }
}

export const QUEUE_NAMES = [QUEUES.photoChecks, ...TASK_QUEUES];
