/**
 * Queue throughput with the engine bypassed: no-op jobs through one worker process, our consumer
 * (startQueueWorkers: contract check, zod payload validation, handler dispatch) against bare
 * BullMQ on the same Redis in the same run. Target: 500 jobs/s through one worker.
 */
import { BULL_PRIORITY, JOB_NAMES, taskQueueName } from '@studioshot/contracts';

const TRAINING_QUEUE = taskQueueName('training', 'studio');
import { Queue, Worker, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { poolQueues, startQueueWorkers } from '../apps/worker/src/jobs/queue-workers.js';
import type { JobHandlers } from '../apps/worker/src/jobs/registry.js';
import { machine, median, requireEnv, writeResult } from './common.js';

const JOBS = 5000;
const REPEATS = 3;
const CONCURRENCIES = [1, 8];
const redisUrl = requireEnv('REDIS_URL');
// What the API sets on a training job, so the workers do the same bookkeeping.
const JOB_OPTIONS: JobsOptions = {
  priority: BULL_PRIORITY.normal,
  attempts: 3,
  backoff: { type: 'exponential', delay: 10_000 },
  removeOnComplete: { age: 3600 },
  removeOnFail: { age: 3600 },
};

const noop = { run: async () => undefined };
const handlers: JobHandlers = {
  [JOB_NAMES.checkPhoto]: noop,
  [JOB_NAMES.rejudgePhotoSet]: noop,
  [JOB_NAMES.trainModel]: noop,
  [JOB_NAMES.generate]: noop,
};

/** Fills the training queue, then times one worker draining it. */
async function drain(kind: 'ours' | 'bare', concurrency: number): Promise<number> {
  const prefix = `bench:queue:${randomUUID()}`;
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(TRAINING_QUEUE, { connection, prefix });
  for (let i = 0; i < JOBS; i += 1000) {
    await queue.addBulk(
      Array.from({ length: Math.min(1000, JOBS - i) }, () => {
        const taskId = randomUUID();
        return {
          name: JOB_NAMES.trainModel,
          data: { task_id: taskId },
          opts: { ...JOB_OPTIONS, jobId: taskId },
        };
      }),
    );
  }
  let done = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  const onCompleted = () => {
    done += 1;
    if (done === JOBS) finished();
  };
  const startedAt = performance.now();
  let workers: Worker[];
  if (kind === 'ours') {
    workers = startQueueWorkers(handlers, {
      connection,
      prefix,
      engineKind: 'studio',
      queues: poolQueues('studio', 'studio'),
      concurrency: { [TRAINING_QUEUE]: concurrency },
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      maxStalledCount: 1,
      shutdown: new AbortController().signal,
      logger: pino({ level: 'silent' }),
    });
  } else {
    workers = [
      new Worker(TRAINING_QUEUE, async () => undefined, { connection, prefix, concurrency }),
    ];
  }
  for (const worker of workers) worker.on('completed', onCompleted);
  await allDone;
  const seconds = (performance.now() - startedAt) / 1000;
  await Promise.all(workers.map((w) => w.close()));
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  return JOBS / seconds;
}

const rows: { concurrency: number; ours: number; bare: number; ratio: number }[] = [];
for (const concurrency of CONCURRENCIES) {
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    // Interleaved, so a noisy moment hurts both alike.
    bare.push(await drain('bare', concurrency));
    ours.push(await drain('ours', concurrency));
  }
  const row = {
    concurrency,
    ours: Math.round(median(ours)),
    bare: Math.round(median(bare)),
    ratio: Number((median(ours) / median(bare)).toFixed(3)),
  };
  rows.push(row);
  console.log(row);
}
const result = { machine: machine(), jobs_per_run: JOBS, repeats: REPEATS, rows };
writeResult(
  'queue-throughput',
  result,
  `# Queue throughput, engine bypassed (no-op jobs, one worker process)

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.memory_gib} GiB, Node ${result.machine.node}; ${result.machine.date}.
${JOBS} training-queue jobs per run, queued first, then drained by one worker; median of ${REPEATS} runs.
"ours" is the worker's consumer (startQueueWorkers: contract check, zod payload, handler dispatch);
"bare" is a BullMQ Worker with an empty processor. Target: 500 jobs/s.

| concurrency | ours (jobs/s) | bare BullMQ (jobs/s) | ours / bare |
| --- | --- | --- | --- |
${rows.map((r) => `| ${r.concurrency} | ${r.ours} | ${r.bare} | ${r.ratio} |`).join('\n')}
`,
);
