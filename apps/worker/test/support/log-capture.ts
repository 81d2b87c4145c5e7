import { createLogger } from '@studioshot/observability';
import type { Level, Logger } from 'pino';
import { Writable } from 'node:stream';

export interface LogRecord {
  level: number;
  time: number;
  msg: string;
  [key: string]: unknown;
}

/**
 * The worker's own logger (its redaction included), writing records the test can read: how a test
 * learns what only the logs say (an engine's pid, when `start` was sent) without reaching into the
 * code under test.
 */
export class LogCapture {
  readonly records: LogRecord[] = [];
  readonly logger: Logger;
  private readonly waiters = new Set<() => void>();

  constructor(level: Level = 'debug') {
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line.trim()) this.add(JSON.parse(line) as LogRecord);
        }
        done();
      },
    });
    this.logger = createLogger({ service: 'worker', level, destination: sink });
  }

  /** Feeds records from elsewhere (a worker child process's stdout). */
  add(record: LogRecord): void {
    this.records.push(record);
    for (const wake of this.waiters) wake();
  }

  find(predicate: (record: LogRecord) => boolean): LogRecord | undefined {
    return this.records.find(predicate);
  }

  filter(predicate: (record: LogRecord) => boolean): LogRecord[] {
    return this.records.filter(predicate);
  }

  /** The first record (past or future) matching `predicate`. */
  async next(
    predicate: (record: LogRecord) => boolean,
    what: string,
    timeoutMs = 30_000,
  ): Promise<LogRecord> {
    const seen = this.find(predicate);
    if (seen) return seen;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for a log record: ${what}`));
      }, timeoutMs);
      const check = () => {
        const found = this.find(predicate);
        if (!found) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      this.waiters.add(check);
    });
  }
}

/** The `engine start sent` record of a task: its `enginePid` and `time`. */
export const engineStartFor =
  (taskId: string) =>
  (record: LogRecord): boolean =>
    record.msg === 'engine start sent' && record.taskId === taskId;
