import {
  BULL_PRIORITY,
  ENGINE_KINDS,
  JOB_NAMES,
  QUEUES,
  TASK_PRIORITIES,
  TASK_TYPES,
  taskQueueName,
  ZCheckPhotoJobSchema,
  ZGenerateJobSchema,
  ZRejudgePhotoSetJobSchema,
  ZTrainModelJobSchema,
  type CheckPhotoJob,
  type EngineKind,
  type TaskPriority,
  type TaskType,
} from '@studioshot/contracts';
import { currentRequestId } from '@studioshot/observability';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';

/** What a task queue holds right now, from BullMQ's own counters. */
export interface QueueCounts {
  /** Waiting to run, every priority (BullMQ's wait list and prioritized set together). */
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
  /** Workers connected to this queue (BullMQ names their Redis connections). */
  workers: number;
}

export type WaitingJobRemoval = 'removed' | 'locked' | 'missing';

/** A job's payload with the id of the request queueing it, when a request is. */
function fromThisRequest<P extends object>(payload: P): P & { request_id?: string } {
  const requestId = currentRequestId();
  return requestId === undefined ? payload : { ...payload, request_id: requestId };
}

/** The producer side of the background jobs: payloads are validated before they leave. */
export class JobQueueRepository {
  private readonly photoChecks: Queue;
  /** The photo checks' completions, opened on the first wait for one. */
  private photoCheckEvents: Promise<QueueEvents> | undefined;
  /** Task queues by name, opened on first use. */
  private readonly taskQueues = new Map<string, Queue>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly options: { trainingAttempts: number; generationAttempts: number },
  ) {
    this.photoChecks = new Queue(QUEUES.photoChecks, {
      connection,
      prefix,
      defaultJobOptions: {
        attempts: 3,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 3600, count: 1000 },
        removeOnFail: { age: 24 * 3600 },
      },
    });
  }

  /** The queue of a task type on an engine kind. */
  private taskQueue(type: TaskType, kind: EngineKind): Queue {
    return this.taskQueueNamed(taskQueueName(type, kind));
  }

  private taskQueueNamed(name: string): Queue {
    let queue = this.taskQueues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: this.connection,
        prefix: this.prefix,
        // Kept long enough for the monitor's counts and for a look at what failed.
        defaultJobOptions: {
          removeOnComplete: { age: 24 * 3600 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      });
      this.taskQueues.set(name, queue);
    }
    return queue;
  }

  /** One job per photo; the photo id as job id makes a repeated enqueue a no-op. */
  async enqueuePhotoCheck(job: CheckPhotoJob): Promise<void> {
    const payload = ZCheckPhotoJobSchema.parse(fromThisRequest(job));
    await this.photoChecks.add(JOB_NAMES.checkPhoto, payload, {
      jobId: `photo-${payload.photo_id}`,
    });
  }

  /** Re-judges a set after a photo left it; a burst of removals needs only one run. */
  async enqueueSetRejudge(sessionId: string): Promise<void> {
    const payload = ZRejudgePhotoSetJobSchema.parse({ session_id: sessionId });
    await this.photoChecks.add(JOB_NAMES.rejudgePhotoSet, payload, {
      jobId: `rejudge-${sessionId}-${Math.floor(Date.now() / 1000)}`,
    });
  }

  /** The queued check of a photo, if any (for status pages and tests). */
  async photoCheckJob(photoId: string): Promise<{ data: unknown; state: string } | undefined> {
    const job = await this.photoChecks.getJob(`photo-${photoId}`);
    return job ? { data: job.data as unknown, state: await job.getState() } : undefined;
  }

  /**
   * Waits up to `ms` for the checks of these photos to finish (each photo's job completing or
   * failing for good, or one of its attempts failing); the photos' rows then say the outcome.
   */
  async photoChecksSettled(photoIds: readonly string[], ms: number): Promise<void> {
    if (photoIds.length === 0 || ms <= 0) return;
    const events = await this.checkEvents();
    const jobs = await Promise.all(photoIds.map((id) => this.photoChecks.getJob(`photo-${id}`)));
    await Promise.all(
      jobs.map((job) =>
        // A rejection is a timeout or a failed attempt: the caller reads the rows either way.
        job?.waitUntilFinished(events, ms).catch(() => undefined),
      ),
    );
  }

  private checkEvents(): Promise<QueueEvents> {
    this.photoCheckEvents ??= (async () => {
      const events = new QueueEvents(QUEUES.photoChecks, {
        connection: { ...this.connection.options, maxRetriesPerRequest: null },
        prefix: this.prefix,
      });
      // A lost connection reconnects by itself; a wait meanwhile runs out and says so.
      events.on('error', () => undefined);
      await events.waitUntilReady();
      return events;
    })();
    return this.photoCheckEvents;
  }

  /**
   * Queues a training run. The task id is the job id, so enqueueing a task twice (a retried
   * request, the re-enqueue at start) adds one job.
   */
  async enqueueTraining(taskId: string, priority: TaskPriority, kind: EngineKind): Promise<void> {
    const payload = ZTrainModelJobSchema.parse(fromThisRequest({ task_id: taskId }));
    await this.taskQueue('training', kind).add(JOB_NAMES.trainModel, payload, {
      jobId: taskId,
      priority: BULL_PRIORITY[priority],
      attempts: this.options.trainingAttempts,
      backoff: { type: 'exponential', delay: 10_000 },
    });
  }

  /** Queues a generation (or a batch of them); like a training, the task id is the job id. */
  async enqueueGeneration(
    taskId: string,
    type: 'generation' | 'batch_generation',
    priority: TaskPriority,
    kind: EngineKind,
  ): Promise<void> {
    const payload = ZGenerateJobSchema.parse(fromThisRequest({ task_id: taskId }));
    await this.taskQueue(type, kind).add(JOB_NAMES.generate, payload, {
      jobId: taskId,
      priority: BULL_PRIORITY[priority],
      attempts: this.options.generationAttempts,
      backoff: { type: 'exponential', delay: 2_000 },
    });
  }

  /** Takes a task's job out of its queue unless a worker holds it. */
  async removeWaitingJob(
    type: TaskType,
    kind: EngineKind,
    taskId: string,
  ): Promise<WaitingJobRemoval> {
    const queue = this.taskQueue(type, kind);
    if (!(await queue.getJob(taskId))) return 'missing';
    // BullMQ refuses (0) while a worker holds the job's lock: it is running.
    return (await queue.remove(taskId)) === 1 ? 'removed' : 'locked';
  }

  /**
   * The tasks whose jobs a worker holds right now, over every task queue: active, with the lock
   * their worker renews still alive. A job whose worker died keeps no lock (it lapses), and
   * whoever picks it up again finds its task final. Active lists are as long as there are
   * running tasks, so this reads little however much a person made.
   */
  async tasksHeldByWorkers(): Promise<Set<string>> {
    const held = new Set<string>();
    for (const type of TASK_TYPES) {
      for (const kind of ENGINE_KINDS) {
        const queue = this.taskQueue(type, kind);
        const active = await queue.getRanges(['active'], 0, -1);
        if (active.length === 0) continue;
        const pipeline = this.connection.pipeline();
        for (const id of active) pipeline.exists(`${queue.toKey(id)}:lock`);
        const locks = (await pipeline.exec()) ?? [];
        active.forEach((id, i) => {
          const [error, exists] = locks[i] ?? [null, 0];
          if (error) throw error;
          if (exists === 1) held.add(id);
        });
      }
    }
    return held;
  }

  /**
   * Jobs a waiting task's job will run after, or null when it is not waiting in line (running,
   * backing off before a retry, finished, gone). Workers take BullMQ's plain wait list first,
   * then the prioritized set in score order (priority, then arrival), so a rank there plus the
   * wait list's length is the exact position, in one round trip. ZRANK is O(log n); the wait list
   * stays empty (every task is added with a priority), so reading it costs nothing.
   */
  async waitingPosition(type: TaskType, kind: EngineKind, taskId: string): Promise<number | null> {
    const queue = this.taskQueue(type, kind);
    const replies = await this.connection
      .multi()
      .zrank(queue.toKey('prioritized'), taskId)
      .llen(queue.toKey('wait'))
      .lpos(queue.toKey('wait'), taskId)
      .exec();
    const [rank, waitLength, waitIndex] = (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return value as number | null;
    });
    if (typeof rank === 'number') return (waitLength ?? 0) + rank;
    // The wait list is consumed from its tail: everything nearer the tail runs first.
    if (typeof waitIndex === 'number') return (waitLength ?? 0) - 1 - waitIndex;
    return null;
  }

  /** Every queue a worker consumes: the photo checks and each task type's queue per engine kind. */
  workerQueueNames(): string[] {
    return [
      QUEUES.photoChecks,
      ...TASK_TYPES.flatMap((type) => ENGINE_KINDS.map((kind) => taskQueueName(type, kind))),
    ];
  }

  private workerQueue(name: string): Queue {
    if (name === QUEUES.photoChecks) return this.photoChecks;
    if (!this.workerQueueNames().includes(name)) throw new Error(`no worker queue named ${name}`);
    return this.taskQueueNamed(name);
  }

  /**
   * The work a queue holds for workers: jobs waiting (BullMQ's wait list and its prioritized set,
   * which a list length alone misses) plus jobs running. Delayed retries are not counted until
   * they are due.
   */
  async queueLoad(name: string): Promise<number> {
    const counts = await this.workerQueue(name).getJobCounts('wait', 'prioritized', 'active');
    return (counts.wait ?? 0) + (counts.prioritized ?? 0) + (counts.active ?? 0);
  }

  /** Workers connected to a queue (BullMQ names their Redis connections). */
  workersOn(name: string): Promise<number> {
    return this.workerQueue(name).getWorkersCount();
  }

  async counts(type: TaskType, kind: EngineKind): Promise<QueueCounts> {
    const queue = this.taskQueue(type, kind);
    const [counts, workers] = await Promise.all([
      queue.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'completed', 'failed'),
      queue.getWorkersCount(),
    ]);
    const count = (state: string) => counts[state] ?? 0;
    return {
      waiting: count('wait') + count('prioritized'),
      active: count('active'),
      delayed: count('delayed'),
      completed: count('completed'),
      failed: count('failed'),
      workers,
    };
  }

  /** Waiting jobs a new job of this priority would run after: equal or better priority. */
  async jobsAheadOf(type: TaskType, kind: EngineKind, priority: TaskPriority): Promise<number> {
    // Priority 0 is BullMQ's plain wait list, which workers take before any prioritized job.
    const levels = [0, ...TASK_PRIORITIES.map((p) => BULL_PRIORITY[p])].filter(
      (level) => level <= BULL_PRIORITY[priority],
    );
    const perLevel = await this.taskQueue(type, kind).getCountsPerPriority(levels);
    return Object.values(perLevel).reduce((sum, n) => sum + n, 0);
  }

  /**
   * Seconds the longest-waiting job of a queue has waited since it was added, or null when none
   * waits. Within one priority jobs wait in arrival order, so the oldest is the first of some
   * priority level (or the tail of the plain wait list): at most four jobs are looked at.
   */
  oldestWaitingSeconds(type: TaskType, kind: EngineKind): Promise<number | null> {
    return this.oldestWaitingIn(this.taskQueue(type, kind));
  }

  /** The same for any worker queue by name (the photo checks' jobs have no priority). */
  oldestWaitingSecondsOn(name: string): Promise<number | null> {
    return this.oldestWaitingIn(this.workerQueue(name));
  }

  private async oldestWaitingIn(queue: Queue): Promise<number | null> {
    const pipeline = this.connection.pipeline().lindex(queue.toKey('wait'), -1);
    for (const level of TASK_PRIORITIES.map((p) => BULL_PRIORITY[p])) {
      // BullMQ scores a prioritized job priority * 2^32 + its arrival counter.
      pipeline.zrangebyscore(
        queue.toKey('prioritized'),
        level * 0x100000000,
        (level + 1) * 0x100000000 - 1,
        'LIMIT',
        0,
        1,
      );
    }
    const ids = ((await pipeline.exec()) ?? []).flatMap(([error, value]) => {
      if (error) throw error;
      if (Array.isArray(value)) return value as string[];
      return typeof value === 'string' ? [value] : [];
    });
    const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
    const added = jobs.flatMap((job) => (job ? [job.timestamp] : []));
    if (added.length === 0) return null;
    return Math.max(0, Math.round((Date.now() - Math.min(...added)) / 1000));
  }

  /**
   * Running jobs whose lock has lapsed: their worker died or hangs, and BullMQ's stalled-job
   * check has not yet put them back in line. A worker renews the lock while it runs a job.
   */
  async stalledJobs(type: TaskType, kind: EngineKind): Promise<number> {
    const queue = this.taskQueue(type, kind);
    const active = await queue.getRanges(['active'], 0, 999);
    if (active.length === 0) return 0;
    const pipeline = this.connection.pipeline();
    for (const id of active) pipeline.exists(`${queue.toKey(id)}:lock`);
    const replies = (await pipeline.exec()) ?? [];
    return replies.filter(([error, exists]) => !error && exists === 0).length;
  }

  /** Round trip to Redis, in milliseconds. */
  async pingMs(): Promise<number> {
    const started = performance.now();
    await this.connection.ping();
    return Math.round((performance.now() - started) * 10) / 10;
  }

  async close(): Promise<void> {
    const events = await this.photoCheckEvents?.catch(() => undefined);
    await Promise.all(
      [this.photoChecks, events, ...this.taskQueues.values()].map((q) => q?.close()),
    );
  }
}
