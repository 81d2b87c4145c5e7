import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { NotYet } from '../scheduling/scheduled-jobs.js';

/** What one scrub removed. */
export interface ScrubReport {
  /** Keys named after one of the needles (rate-limit counters, caches), deleted. */
  keys: number;
  /** BullMQ jobs whose id, data, progress or result mention a needle, removed from their queue. */
  jobs: number;
  /** Entries of BullMQ event streams (job progress, task events) that mention a needle, deleted. */
  events: number;
}

/** A job that mentions a needle is running in some worker: the scrub must run again later. */
export class TracesStillInUse extends NotYet {
  override name = 'TracesStillInUse';
  constructor(
    readonly queue: string,
    readonly jobId: string,
  ) {
    super(`job ${jobId} of queue ${queue} is running: it cannot be removed yet`);
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Whether a text mentions one of the needles. Ids (UUIDs, possibly thousands of them: every row
 * of a person) are looked up by the UUIDs the text holds, so the cost follows the text, not the
 * number of needles; anything else (an e-mail, a hash) is searched for as it is.
 */
function matcher(needles: readonly string[]): ((text: string) => boolean) | undefined {
  const ids = new Set<string>();
  const others: string[] = [];
  for (const needle of needles) {
    if (needle.length === 0) continue;
    const whole = needle.match(UUID);
    if (whole?.[0] === needle) ids.add(needle.toLowerCase());
    else others.push(needle);
  }
  if (ids.size === 0 && others.length === 0) return undefined;
  return (text) => {
    if (others.some((needle) => text.includes(needle))) return true;
    if (ids.size === 0) return false;
    for (const [found] of text.matchAll(UUID)) if (ids.has(found.toLowerCase())) return true;
    return false;
  };
}

/** Job states whose jobs a scrub reads; an active job is held by a worker and read as in use. */
const SETTLED_STATES = [
  'completed',
  'failed',
  'delayed',
  'wait',
  'prioritized',
  'paused',
  'waiting-children',
] as const;
const PAGE = 500;
/** The fields of a BullMQ job hash that carry what the job was about. */
const JOB_TEXT_FIELDS = ['data', 'progress', 'returnvalue', 'failedReason', 'stacktrace'] as const;

/**
 * Finds and removes what Redis holds about something being deleted (a person: their id, e-mail
 * and e-mail hash; a model or a photo set: its ids). Everything of this deployment lives under
 * REDIS_PREFIX, and a person's traces are in three shapes, each found without a list of who
 * writes what, so a later feature's keys and jobs are covered too:
 * - keys whose name holds a needle (rate-limit counters keyed by the e-mail's hash, a job keyed
 *   by a task id): deleted, a BullMQ job through its queue so its lists forget it too;
 * - BullMQ jobs whose data, progress or result mention a needle (a task's progress names its
 *   owner): removed; one still running is `TracesStillInUse`;
 * - entries of BullMQ event streams mentioning a needle (progress events, the task events
 *   stream): deleted.
 * The work is proportional to what the deployment keeps (keys, retained jobs, capped streams), for
 * an operation that runs once per deletion.
 */
export class RedisTracesRepository {
  constructor(
    private readonly redis: Redis,
    /** The deployment's REDIS_PREFIX: nothing outside it is touched. */
    private readonly prefix: string,
    /** BullMQ's key prefix (REDIS_PREFIX + 'bull'). */
    private readonly bullPrefix: string,
  ) {}

  async scrub(needles: readonly string[]): Promise<ScrubReport> {
    const mentions = matcher(needles);
    if (!mentions) return { keys: 0, jobs: 0, events: 0 };
    const queues = await this.queueNames();
    const report: ScrubReport = { keys: 0, jobs: 0, events: 0 };

    // Jobs first: removing one deletes its keys, which the key pass would otherwise meet.
    for (const name of queues) {
      const queue = new Queue(name, { connection: this.redis, prefix: this.bullPrefix });
      try {
        report.jobs += await this.removeMentioningJobs(queue, mentions);
      } finally {
        await queue.close();
      }
    }
    for await (const batch of this.scan(`${this.prefix}*`)) {
      for (const key of batch) {
        if (!mentions(key)) continue;
        const job = this.jobOf(key, queues);
        if (job) report.jobs += await this.removeJob(job.queue, job.id);
        else report.keys += await this.redis.del(key);
      }
    }
    for (const stream of await this.keys(`${this.bullPrefix}:*:events`)) {
      report.events += await this.deleteMentioningEntries(stream, mentions);
    }
    return report;
  }

  /** Every BullMQ queue of the deployment, by its meta key. */
  private async queueNames(): Promise<Set<string>> {
    const names = new Set<string>();
    const start = `${this.bullPrefix}:`.length;
    for (const key of await this.keys(`${this.bullPrefix}:*:meta`)) {
      names.add(key.slice(start, -':meta'.length));
    }
    return names;
  }

  /** `{bullPrefix}:{queue}:{jobId}[:suffix]` for a known queue; queue names and ids hold no ':'. */
  private jobOf(key: string, queues: Set<string>): { queue: string; id: string } | undefined {
    if (!key.startsWith(`${this.bullPrefix}:`)) return undefined;
    const [queue, id] = key.slice(this.bullPrefix.length + 1).split(':');
    if (!queue || !id || !queues.has(queue)) return undefined;
    return { queue, id };
  }

  private async removeMentioningJobs(
    queue: Queue,
    mentions: (text: string) => boolean,
  ): Promise<number> {
    let removed = 0;
    for (const state of SETTLED_STATES) {
      let start = 0;
      for (;;) {
        const ids = await queue.getRanges([state], start, start + PAGE - 1, true);
        if (ids.length === 0) break;
        const pipeline = this.redis.pipeline();
        for (const id of ids) pipeline.hmget(queue.toKey(id), ...JOB_TEXT_FIELDS);
        const replies = (await pipeline.exec()) ?? [];
        const mentioning = ids.filter((id, i) => {
          const [error, fields] = replies[i] ?? [null, []];
          if (error) throw error;
          return (
            mentions(id) || (fields as (string | null)[]).some((f) => f !== null && mentions(f))
          );
        });
        for (const id of mentioning) removed += await this.removeJob(queue.name, id);
        if (ids.length < PAGE) break;
        // Removed jobs left the range: the next page starts that much earlier.
        start += ids.length - mentioning.length;
      }
    }
    return removed;
  }

  private async removeJob(queueName: string, id: string): Promise<number> {
    const queue = new Queue(queueName, { connection: this.redis, prefix: this.bullPrefix });
    try {
      if (!(await queue.getJob(id))) {
        // Only keys of a job already gone (a lock, logs): nothing lists them any more.
        const leftovers = await this.keys(`${queue.toKey(id)}:*`);
        if (leftovers.length > 0) await this.redis.del(...leftovers);
        return 0;
      }
      if ((await queue.remove(id)) === 1) return 1;
      // Refused: a worker holds it, unless it went meanwhile (another scrub, its own removal).
      if (await queue.getJob(id)) throw new TracesStillInUse(queueName, id);
      return 0;
    } finally {
      await queue.close();
    }
  }

  private async deleteMentioningEntries(
    stream: string,
    mentions: (text: string) => boolean,
  ): Promise<number> {
    if ((await this.redis.type(stream)) !== 'stream') return 0;
    let deleted = 0;
    let from = '-';
    for (;;) {
      const entries = await this.redis.xrange(stream, from, '+', 'COUNT', PAGE);
      if (entries.length === 0) break;
      const doomed = entries
        .filter(([, fields]) => fields.some((value) => mentions(value)))
        .map(([id]) => id);
      if (doomed.length > 0) deleted += await this.redis.xdel(stream, ...doomed);
      if (entries.length < PAGE) break;
      // Exclusive start after the last entry read.
      from = `(${entries[entries.length - 1]![0]}`;
    }
    return deleted;
  }

  /** The keys matching `pattern`, a SCAN batch at a time (a key may come twice: SCAN's rule). */
  private async *scan(pattern: string): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const [next, batch] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (batch.length > 0) yield batch;
    } while (cursor !== '0');
  }

  private async keys(pattern: string): Promise<string[]> {
    const found = new Set<string>();
    for await (const batch of this.scan(pattern)) for (const key of batch) found.add(key);
    return [...found];
  }
}
