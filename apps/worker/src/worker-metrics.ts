import type { EngineKind } from '@studioshot/contracts';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { EngineLifecycle } from './bridge/engine-process.js';
import type { JobHandler, JobHandlers } from './jobs/registry.js';
import { TaskStopped } from './tasks/task-cancellations.js';

/** Seconds: from a photo check to a long training. */
const JOB_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600];

/** How a job attempt ended: its handler returned, threw, or was stopped (cancel or shutdown). */
export type JobOutcome = 'completed' | 'failed' | 'stopped';

/**
 * What a worker tells Prometheus on its private port: job attempts by type, engine kind and
 * outcome, and its engine processes' starts and crashes. The queues' state is the API's to export.
 */
export class WorkerMetrics {
  readonly registry = new Registry();
  private readonly jobDuration: Histogram<'type' | 'engine_kind' | 'outcome'>;
  private readonly engineStarts: Counter<'engine_kind'>;
  private readonly engineCrashes: Counter<'engine_kind'>;

  constructor(private readonly kind: EngineKind) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.jobDuration = new Histogram({
      name: 'studioshot_job_duration_seconds',
      help: 'Job attempts by job type, engine kind and outcome (completed, failed, stopped)',
      labelNames: ['type', 'engine_kind', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.engineStarts = new Counter({
      name: 'studioshot_engine_starts_total',
      help: 'Engine processes started',
      labelNames: ['engine_kind'],
      registers,
    });
    this.engineCrashes = new Counter({
      name: 'studioshot_engine_crashes_total',
      help: 'Engine processes that ended without being asked to',
      labelNames: ['engine_kind'],
      registers,
    });
    // Every series exists from the start, so a rate over them reads 0 rather than nothing.
    this.engineStarts.inc({ engine_kind: kind }, 0);
    this.engineCrashes.inc({ engine_kind: kind }, 0);
  }

  /** The engine pool's hook: counts its processes' starts and crashes. */
  readonly engineLifecycle: EngineLifecycle = {
    started: () => this.engineStarts.inc({ engine_kind: this.kind }),
    crashed: () => this.engineCrashes.inc({ engine_kind: this.kind }),
  };

  /** The same handlers, each attempt timed under its job type and how it ended. */
  timed(handlers: JobHandlers): JobHandlers {
    const timedOne = <H extends JobHandler<never>>(type: string, handler: H): H => ({
      ...handler,
      run: async (payload: never, context: never) => {
        const end = this.jobDuration.startTimer({ type, engine_kind: this.kind });
        try {
          await handler.run(payload, context);
          end({ outcome: 'completed' });
        } catch (error) {
          end({ outcome: error instanceof TaskStopped ? 'stopped' : 'failed' });
          throw error;
        }
      },
    });
    return Object.fromEntries(
      Object.entries(handlers).map(([type, handler]) => [
        type,
        timedOne(type, handler as JobHandler<never>),
      ]),
    ) as JobHandlers;
  }
}
