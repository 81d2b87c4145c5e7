import type { EngineKind, TaskPriority, TaskStatus, TaskType } from '@studioshot/contracts';
import type { JobQueueRepository } from '../repositories/job-queue.repository.js';
import type { RunDurations, TasksRepository } from '../repositories/tasks.repository.js';

/** What a new task would meet in its queue now. */
export interface WaitFigures {
  /** Waiting tasks that run before it. */
  jobsAhead: number;
  workers: number;
  /** The measured median run (whole seconds) of its type on its engine kind. */
  run: RunDurations;
  /** Until it starts; null while no worker is connected or the wait cannot be told. */
  waitSeconds: number | null;
}

/** The fields of a task its completion is estimated from. */
export interface EstimatedTask {
  id: string;
  status: TaskStatus;
  task_type: TaskType;
  engine_kind: EngineKind;
  progress: number;
  started_at: Date | null;
}

/**
 * Every duration the API answers (wait-time estimates, queue overviews, tasks' estimated
 * completion) comes from here: the queue's state in Redis and the run times the fleet measured,
 * per task type and engine kind. Nothing is invented: with no measured run, there is no figure.
 */
export class DurationEstimates {
  constructor(
    private readonly deps: {
      tasks: TasksRepository;
      jobs: JobQueueRepository;
      /**
       * The engine kinds whose workers scale to zero when idle, with the seconds a first worker
       * takes to start (ENGINE_COLD_START_SECONDS): with none connected, work waits that long.
       */
      coldStartSeconds?: Partial<Record<EngineKind, number>>;
    },
  ) {}

  /** A first worker's start, for a kind that scales to zero; null for one that never does. */
  coldStart(kind: EngineKind): number | null {
    return this.deps.coldStartSeconds?.[kind] ?? null;
  }

  /** The measured median run, in whole seconds, and the runs it is taken over. */
  async run(type: TaskType, kind: EngineKind): Promise<RunDurations> {
    const run = await this.deps.tasks.runDurations(type, kind);
    return {
      medianSeconds: run.medianSeconds === null ? null : Math.round(run.medianSeconds),
      sampleSize: run.sampleSize,
    };
  }

  /** A task of `type` submitted now at `priority` on `kind`: the tasks ahead, workers, wait. */
  async forNewTask(type: TaskType, kind: EngineKind, priority: TaskPriority): Promise<WaitFigures> {
    const [jobsAhead, counts, run] = await Promise.all([
      this.deps.jobs.jobsAheadOf(type, kind, priority),
      this.deps.jobs.counts(type, kind),
      this.run(type, kind),
    ]);
    return {
      jobsAhead,
      workers: counts.workers,
      run,
      waitSeconds: waitSeconds(jobsAhead, run.medianSeconds, counts.workers, this.coldStart(kind)),
    };
  }

  /**
   * When a task should be done (ISO time), or null when that cannot be told. Waiting: the tasks
   * ahead of it in line shared among the workers, then its own run, both at the measured median
   * (`position` when the caller has read it already). Running: extrapolated from its progress so
   * far, or its start plus the median before any progress. Ended: null.
   */
  async completion(
    task: EstimatedTask,
    now: number,
    position?: number | null,
  ): Promise<string | null> {
    if (task.status === 'queued' || task.status === 'pending') {
      const [place, counts, run] = await Promise.all([
        position !== undefined
          ? position
          : this.deps.jobs.waitingPosition(task.task_type, task.engine_kind, task.id),
        this.deps.jobs.counts(task.task_type, task.engine_kind),
        this.run(task.task_type, task.engine_kind),
      ]);
      // Not in line (backing off before a retry): when it is taken again is not known.
      if (place === null || run.medianSeconds === null) return null;
      const wait = waitSeconds(
        place,
        run.medianSeconds,
        counts.workers,
        this.coldStart(task.engine_kind),
      );
      return wait === null ? null : new Date(now + (wait + run.medianSeconds) * 1000).toISOString();
    }
    if (task.status !== 'running' || !task.started_at) return null;
    const started = task.started_at.getTime();
    if (task.progress > 0)
      return new Date(started + ((now - started) * 100) / task.progress).toISOString();
    const run = await this.run(task.task_type, task.engine_kind);
    return run.medianSeconds === null
      ? null
      : new Date(started + run.medianSeconds * 1000).toISOString();
  }
}

/**
 * Until a task with `jobsAhead` before it starts: those tasks at the median run, shared among the
 * workers. None ahead: at once. With no worker connected: for a kind that scales to zero
 * (`coldStartSeconds`), a first worker's start, then the tasks ahead at the median on that one
 * worker; for any other kind null (nothing would run it). null too when tasks are ahead and no run
 * has been measured.
 */
export function waitSeconds(
  jobsAhead: number,
  medianSeconds: number | null,
  workers: number,
  coldStartSeconds: number | null = null,
): number | null {
  if (workers === 0) {
    if (coldStartSeconds === null) return null;
    if (jobsAhead === 0) return coldStartSeconds;
    return medianSeconds === null ? null : coldStartSeconds + Math.round(jobsAhead * medianSeconds);
  }
  if (jobsAhead === 0) return 0;
  return medianSeconds === null ? null : Math.round((jobsAhead * medianSeconds) / workers);
}
