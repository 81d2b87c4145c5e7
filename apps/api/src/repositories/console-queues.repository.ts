import {
  ENGINE_KINDS,
  QUEUES,
  TASK_TYPES,
  taskQueueName,
  type EngineKind,
} from '@studioshot/contracts';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** A worker process as BullMQ's connections name it, with the queues it is connected to. */
export interface ConnectedWorker {
  name: string;
  queues: string[];
}

/** A job a worker holds now. */
export interface HeldJob {
  queue: string;
  jobId: string;
  jobName: string;
  /** The worker's name, when it gave one. */
  processedBy: string | undefined;
  startedAt: Date | null;
}

/** The engine kind a task queue belongs to (`generation.flux` → flux); none for the others. */
export function engineKindOfQueue(queue: string): EngineKind | null {
  const suffix = queue.slice(queue.lastIndexOf('.') + 1);
  return (ENGINE_KINDS as readonly string[]).includes(suffix) ? (suffix as EngineKind) : null;
}

/**
 * Every queue of the deployment, for the ops console: the photo checks, the API's scheduled jobs
 * and each task queue of each engine kind. Kept apart from the producers' queues so the console's
 * reads and changes go through BullMQ's own calls.
 */
export class ConsoleQueuesRepository {
  readonly queues: Queue[];

  constructor(connection: Redis, prefix: string) {
    const names = [
      QUEUES.photoChecks,
      QUEUES.scheduled,
      ...TASK_TYPES.flatMap((type) => ENGINE_KINDS.map((kind) => taskQueueName(type, kind))),
    ];
    this.queues = names.map((name) => new Queue(name, { connection, prefix }));
  }

  /**
   * The worker processes connected now. A worker opens one connection per queue it takes and
   * names it after the queue and its own name (BullMQ's `name` option); one that gives no name is
   * listed by its connection's address. The API's own job worker (on the scheduled queue) is no
   * worker of the fleet.
   */
  async workers(): Promise<ConnectedWorker[]> {
    const byName = new Map<string, Set<string>>();
    for (const queue of this.queues.filter((q) => q.name !== QUEUES.scheduled)) {
      for (const client of await queue.getWorkers()) {
        const raw = client.rawname ?? '';
        const marker = raw.indexOf(':w:');
        const name = marker >= 0 ? raw.slice(marker + 3) : (client.addr ?? 'unnamed');
        const queues = byName.get(name) ?? new Set<string>();
        queues.add(queue.name);
        byName.set(name, queues);
      }
    }
    return [...byName].map(([name, queues]) => ({ name, queues: [...queues].sort() }));
  }

  /** The jobs workers hold now, over every queue. */
  async heldJobs(): Promise<HeldJob[]> {
    const held = await Promise.all(
      this.queues.map(async (queue) =>
        (await queue.getActive(0, 199)).map((job) => ({
          queue: queue.name,
          jobId: job.id ?? '',
          jobName: job.name,
          processedBy: job.processedBy,
          startedAt: job.processedOn ? new Date(job.processedOn) : null,
        })),
      ),
    );
    return held.flat();
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
  }
}
