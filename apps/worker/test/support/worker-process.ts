import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Suite } from './harness.js';
import { WORKER_ROOT } from './harness.js';
import type { LogCapture, LogRecord } from './log-capture.js';

/**
 * The worker as production runs it, `src/main.ts` in its own Node process (through tsx), so a
 * test can SIGKILL or SIGTERM it. Its JSON log lines feed `logs`.
 */
export class WorkerProcess {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private stderr = '';

  private constructor(
    readonly child: ChildProcess,
    readonly logs: LogCapture,
  ) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        logs.add(JSON.parse(line) as LogRecord);
      } catch {
        // Not a log record (a library writing to stdout): irrelevant to the tests.
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  /** Starts a worker with the suite's environment and `overrides`; resolves once it is ready. */
  static async start(
    suite: Suite,
    logs: LogCapture,
    overrides: Record<string, string> = {},
  ): Promise<WorkerProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: WORKER_ROOT,
      env: { ...process.env, ...suite.envVars({ LOG_LEVEL: 'debug', ...overrides }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child, logs);
    const ready = logs.next((r) => r.msg === 'worker ready' && r.pid === child.pid, 'worker ready');
    const exitedEarly = worker.exited.then(({ code, signal }) => {
      throw new Error(`worker exited (${code ?? signal}) before ready:\n${worker.stderr}`);
    });
    await Promise.race([ready, exitedEarly]);
    return worker;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Pids of every engine this worker started (spares included). */
  enginePids(): number[] {
    return [
      ...new Set(
        this.logs.filter((r) => r.msg === 'engine ready').map((r) => r.enginePid as number),
      ),
    ];
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}
