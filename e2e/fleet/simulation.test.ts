import { taskQueueName, QUEUES } from '@studioshot/contracts';
import { afterAll, expect, it } from 'vitest';
import { CHAOS_LATEST_SHARE, runSimulation, type SimulationReport } from './simulation.js';

/**
 * The fleet simulation (simulation.ts): 2 APIs and 3 workers of the built apps, a few hundred
 * tasks of every type, workers killed and drained at seeded random moments. FLEET_SEED replays a
 * run's kills; the seed is printed.
 */

const TASK_TYPES = ['training', 'generation', 'batch_generation'] as const;
// npm test runs 10 real and 60 bulk of each type: 280 tasks and photo checks in all, about 4
// minutes on 2 cores (200 bulk took 7). Other sizes replay a run's logic while working on it.
const REAL = Number(process.env.FLEET_REAL ?? 10);
const BULK = Number(process.env.FLEET_BULK ?? 60);
const seed = Number(process.env.FLEET_SEED ?? Math.floor(Math.random() * 2 ** 31));
let report: SimulationReport | undefined;

afterAll(async () => {
  await report?.fleet.close();
});

it('every task completes exactly once, credits add up, and KEDA reads the true queue load', async () => {
  console.log(
    `fleet simulation seed: ${seed} (FLEET_SEED=${seed} replays it), ${REAL} real, ${BULK} bulk`,
  );
  report = await runSimulation({
    seed,
    real: REAL,
    bulk: BULK,
    kills: 4,
    answerAfterMs: 50,
    log: (line) => console.log(`fleet: ${line}`),
  });
  const { fleet, trainings, generations } = report;
  console.log(
    `fleet simulation: ${report.durationMs} ms, kills and drain ${JSON.stringify(report.chaos)}, drained ${JSON.stringify(report.drained)}`,
  );

  // Every task completed, each once: one row each, completed, and the work it left exactly once.
  const tasks = await fleet.db.selectFrom('tasks').select(['id', 'task_type', 'status']).execute();
  expect(tasks).toHaveLength(trainings.length + generations.length);
  expect(tasks.filter((t) => t.status !== 'completed')).toEqual([]);
  for (const type of TASK_TYPES) {
    const ofType = tasks.filter((t) => t.task_type === type);
    expect(ofType.length, type).toBeGreaterThanOrEqual(BULK + REAL);
    const queue = fleet.queue(taskQueueName(type, 'studio'));
    expect(
      await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed'),
    ).toMatchObject({ completed: ofType.length, failed: 0, waiting: 0, active: 0, delayed: 0 });
  }
  expect(trainings.filter((t) => t.real)).toHaveLength(REAL);
  expect(generations.filter((g) => g.real && g.images === 1)).toHaveLength(REAL);
  expect(generations.filter((g) => g.real && g.images === 2)).toHaveLength(REAL);

  const models = await fleet.db.selectFrom('models').select(['id', 'status']).execute();
  expect(models.filter((m) => m.status !== 'completed')).toEqual([]);
  expect(models).toHaveLength(trainings.length);
  const images = await fleet.db
    .selectFrom('generated_images')
    .select(['generation_id', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('generation_id')
    .execute();
  const imagesOf = new Map(images.map((row) => [row.generation_id, Number(row.n)]));
  for (const generation of generations) {
    expect(imagesOf.get(generation.taskId), generation.taskId).toBe(generation.images);
  }
  const photos = await fleet.db
    .selectFrom('photos')
    .select(['check_status'])
    .where('original_filename', '=', 'photo.jpg')
    .execute();
  expect(photos).toHaveLength(report.uploads);
  expect(photos.filter((p) => p.check_status !== 'done')).toEqual([]);
  const photoChecks = await fleet
    .queue(QUEUES.photoChecks)
    .getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
  expect(photoChecks).toMatchObject({ failed: 0, waiting: 0, active: 0, delayed: 0 });

  // No credit lost or doubled: each account holds what it was granted less what it asked for,
  // its ledger adds up to its balance, and every generation reserved once and was refunded never.
  for (const { userId } of report.accounts) {
    const user = await fleet.db
      .selectFrom('users')
      .select(['credits_balance', 'models_trained'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(user.credits_balance).toBe(report.granted.get(userId)! - report.asked.get(userId)!);
    expect(user.models_trained).toBe(trainings.filter((t) => t.userId === userId).length);
    const ledger = await fleet.db
      .selectFrom('credit_ledger')
      .select(['delta', 'reason'])
      .where('user_id', '=', userId)
      .execute();
    expect(ledger.reduce((sum, entry) => sum + entry.delta, 0)).toBe(user.credits_balance);
    expect(ledger.filter((entry) => entry.delta > 0)).toEqual([
      { delta: report.granted.get(userId), reason: 'fleet_grant' },
    ]);
    expect(ledger.filter((entry) => entry.delta < 0)).toHaveLength(
      generations.filter((g) => g.userId === userId).length,
    );
  }

  // The workers were killed and drained as planned, each while work was left (by 80% of its
  // part's tasks at the latest), and each drain ended cleanly.
  expect(report.chaos.filter((event) => event.signal === 'SIGKILL')).toHaveLength(5);
  expect(report.chaos.filter((event) => event.signal === 'SIGTERM')).toHaveLength(1);
  for (const event of report.chaos) {
    expect(event.threshold, JSON.stringify(event)).toBeLessThanOrEqual(
      CHAOS_LATEST_SHARE * event.total,
    );
    expect(event.total - event.completed, JSON.stringify(event)).toBeGreaterThan(0);
  }
  expect(report.drained).toHaveLength(4);
  for (const drained of report.drained) expect(drained.exit).toEqual({ code: 0, signal: null });

  // What each ScaledObject reads equalled the true load whenever it was read steadily, while the
  // queues filled and drained, and it reads 0 once all is done.
  const mismatches = report.readings.filter((r) => r.endpoint !== r.truth);
  expect(mismatches).toEqual([]);
  const filled = new Set([
    QUEUES.photoChecks,
    ...TASK_TYPES.map((t) => taskQueueName(t, 'studio')),
  ]);
  for (const trigger of report.triggers) {
    const readings = report.readings.filter((r) => r.trigger === trigger.name);
    expect(readings.at(-1)?.endpoint, trigger.name).toBe(0);
    // The flux pool's queues get no work here (no GPU): its readings are all 0, and checked.
    if (!trigger.queues.some((queue) => filled.has(queue))) continue;
    const busy = readings.filter((r) => r.truth > 0);
    expect(busy.filter((r) => r.phase === 'filling').length, trigger.name).toBeGreaterThan(0);
    expect(busy.filter((r) => r.phase === 'draining').length, trigger.name).toBeGreaterThan(0);
  }
});
