import { BadMetricsRequest } from '@studioshot/observability';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CreditLedgerRepository } from '../repositories/credit-ledger.repository.js';
import type { JobQueueRepository } from '../repositories/job-queue.repository.js';

/** Seconds; from a fast cached read to a Generate call that waits for its images. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * What the API tells Prometheus. The fleet's state (queue load, oldest waiting job, workers per
 * queue, unsettled credits) is read from BullMQ and Postgres when scraped, so it is exported once,
 * by the API, which runs while the workers are scaled to zero; request latency is counted as
 * requests finish.
 */
export class FleetMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;

  constructor(
    private readonly queues: Pick<
      JobQueueRepository,
      'workerQueueNames' | 'queueLoad' | 'workersOn' | 'oldestWaitingSecondsOn'
    >,
    ledger: Pick<CreditLedgerRepository, 'reservedUnsettled'>,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, declared route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    const names = () => this.queues.workerQueueNames();
    const perQueue = async (gauge: Gauge<'queue'>, read: (name: string) => Promise<number>) => {
      const values = await Promise.all(names().map(read));
      names().forEach((queue, i) => gauge.set({ queue }, values[i] ?? 0));
    };
    new Gauge({
      name: 'studioshot_queue_load',
      help: 'Jobs a queue holds for workers: waiting (every priority) plus running',
      labelNames: ['queue'],
      registers,
      async collect() {
        await perQueue(this, (name) => queues.queueLoad(name));
      },
    });
    new Gauge({
      name: 'studioshot_queue_oldest_waiting_seconds',
      help: 'How long the longest-waiting job of a queue has waited (0 when none waits)',
      labelNames: ['queue'],
      registers,
      async collect() {
        await perQueue(this, async (name) => (await queues.oldestWaitingSecondsOn(name)) ?? 0);
      },
    });
    new Gauge({
      name: 'studioshot_queue_workers',
      help: 'Workers connected to a queue',
      labelNames: ['queue'],
      registers,
      async collect() {
        await perQueue(this, (name) => queues.workersOn(name));
      },
    });
    // One query answers both gauges; each scrape asks it once.
    let reading: Promise<{ credits: number; oldestSeconds: number }> | undefined;
    const unsettled = () => {
      reading ??= ledger.reservedUnsettled().finally(() => {
        setImmediate(() => (reading = undefined));
      });
      return reading;
    };
    new Gauge({
      name: 'studioshot_credits_reserved_unsettled',
      help: 'Credits generations hold in reserve, neither spent nor refunded yet',
      registers,
      async collect() {
        this.set((await unsettled()).credits);
      },
    });
    new Gauge({
      name: 'studioshot_credits_reserved_unsettled_oldest_seconds',
      help: 'Age of the oldest reservation neither spent nor refunded (0 when none)',
      registers,
      async collect() {
        this.set((await unsettled()).oldestSeconds);
      },
    });
  }

  /**
   * KEDA's metrics-api answer for the named queues: each one's load and their total. A name that
   * is no worker queue is refused, so a typo in a manifest fails loudly instead of reading 0.
   */
  async queueLoad(
    queues: string | null,
  ): Promise<{ total: number; queues: Record<string, number> }> {
    const known = this.queues.workerQueueNames();
    const asked = (queues ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (asked.length === 0) {
      throw new BadMetricsRequest(`queues: name one or more of ${known.join(', ')}`);
    }
    const unknown = asked.filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw new BadMetricsRequest(
        `queues: unknown queue ${unknown.join(', ')}; known: ${known.join(', ')}`,
      );
    }
    const unique = [...new Set(asked)];
    const loads = await Promise.all(unique.map((name) => this.queues.queueLoad(name)));
    const byName = Object.fromEntries(unique.map((name, i) => [name, loads[i] ?? 0]));
    return { total: loads.reduce((sum, n) => sum + n, 0), queues: byName };
  }
}
