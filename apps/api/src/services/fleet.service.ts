import type { Fleet } from '@studioshot/contracts';
import {
  engineKindOfQueue,
  type ConsoleQueuesRepository,
} from '../repositories/console-queues.repository.js';
import type { TasksRepository } from '../repositories/tasks.repository.js';
import type { QueueService } from './queue.service.js';

/**
 * The fleet page's figures: the workers online and what each runs, GPU seconds since midnight
 * (UTC), and the monitoring figures of docs/spec/calls.md#77-queue (cost projection, waits, queues)
 * as they are.
 */
export class FleetService {
  constructor(
    private readonly deps: {
      queues: Pick<ConsoleQueuesRepository, 'workers' | 'heldJobs'>;
      tasks: Pick<TasksRepository, 'gpuSecondsFrom'>;
      queue: Pick<QueueService, 'costProjection' | 'publicEstimate' | 'overview'>;
    },
  ) {}

  async fleet(now = new Date()): Promise<Fleet> {
    const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const [workers, held, gpuSecondsToday, cost, wait, overview] = await Promise.all([
      this.deps.queues.workers(),
      this.deps.queues.heldJobs(),
      this.deps.tasks.gpuSecondsFrom(midnight),
      this.deps.queue.costProjection(),
      this.deps.queue.publicEstimate(now.getTime()),
      this.deps.queue.overview(),
    ]);
    return {
      workers: workers
        .map((worker) => ({
          name: worker.name,
          engine_kind: worker.queues.map(engineKindOfQueue).find((kind) => kind !== null) ?? null,
          queues: worker.queues,
          current_jobs: held
            .filter((job) => job.processedBy === worker.name)
            .map((job) => ({
              queue: job.queue,
              job_id: job.jobId,
              job_name: job.jobName,
              started_at: job.startedAt?.toISOString() ?? null,
            })),
        }))
        .sort(
          (a, b) =>
            (a.engine_kind ?? '').localeCompare(b.engine_kind ?? '') ||
            a.name.localeCompare(b.name),
        ),
      gpu_seconds_today: Math.round(gpuSecondsToday * 10) / 10,
      cost_projection: cost,
      wait_estimate: wait,
      queues: overview.queues,
      checked_at: now.toISOString(),
    };
  }
}
