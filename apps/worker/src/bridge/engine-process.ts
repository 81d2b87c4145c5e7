import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Duplex, Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ENGINE_PROTOCOL_VERSION,
  ZEngineCommandSchema,
  ZEngineEventSchema,
  type EngineCommand,
  type EngineEvent,
  type EngineTaskName,
  type ZEngineArtifactSchema,
  type ZEngineErrorSchema,
  type ZEngineProgressSchema,
  type ZEngineReadySchema,
  type ZEngineStartSchema,
} from '@studioshot/contracts';
import type { Logger } from 'pino';
import type { z } from 'zod';

/**
 * The worker's side of the engine protocol (`packages/contracts/src/engine.ts`, described in
 * apps/worker/engine/README.md): one Python process, NDJSON on fd 3, stdout and stderr forwarded
 * to the log. A single-run process runs one task and exits, so whatever memory (GPU included) the
 * task used is freed; a session (`reusable`) runs tasks one after another with its models loaded.
 */

export type EngineReady = z.infer<typeof ZEngineReadySchema>;
export type EngineProgress = Pick<
  z.infer<typeof ZEngineProgressSchema>,
  'step' | 'total' | 'message' | 'metrics' | 'eta_seconds'
>;
export type EngineArtifact = Pick<z.infer<typeof ZEngineArtifactSchema>, 'path' | 'kind' | 'meta'>;
export type EngineErrorCode = z.infer<typeof ZEngineErrorSchema>['code'];
type StartMessage = z.infer<typeof ZEngineStartSchema>;
/** What `start` carries besides the envelope (per task, so `params` follows `task`). */
export type EngineStartRequest = StartMessage extends infer M
  ? M extends StartMessage
    ? Omit<M, 'v' | 'type'>
    : never
  : never;
export type EngineTask = EngineTaskName;

export interface EngineRunResult {
  summary: Record<string, unknown>;
  /** Every artifact the engine announced, in order; each lies inside the run's output_dir. */
  artifacts: EngineArtifact[];
}

export interface EngineRunOptions {
  /** Log bindings of the job (job id, task id): the engine's output is logged with them. */
  logger?: Logger;
  onProgress?(progress: EngineProgress): void;
  onArtifact?(artifact: EngineArtifact): void;
}

export interface EngineExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface EngineCommandLine {
  file: string;
  args: string[];
}

export interface EngineProcessOptions {
  command: EngineCommandLine;
  /** The engine kind this worker runs: a process whose `ready` names another is refused. */
  kind: string;
  /** Runs tasks one after another (a warm session) instead of exiting after its first. */
  reusable?: boolean;
  logger: Logger;
  readyTimeoutMs: number;
  /** After `cancel` (or the end of the pipe), how long before SIGTERM. */
  cancelGraceMs: number;
  /** After SIGTERM, how long before SIGKILL. */
  termGraceMs: number;
  /** Told of each process started, and of each that ended without being asked to (metrics). */
  lifecycle?: EngineLifecycle;
}

export interface EngineLifecycle {
  started(): void;
  crashed(exit: EngineExit): void;
}

/** `python -m studioshot_engine --engine <kind>`. */
export function engineCommandLine(python: string, kind: string): EngineCommandLine {
  return { file: python, args: ['-m', 'studioshot_engine', '--engine', kind] };
}

export type EngineFailureKind =
  /** The process could not be started or never said `ready`. Retryable. */
  | 'unavailable'
  /** It exited with no `result` and no `error`. Retryable. */
  | 'crashed'
  /** It reported `error`; `retryable` is the engine's word. */
  | 'failed'
  /** It broke the protocol; a bug, so not retryable. */
  | 'protocol'
  /** The worker cancelled it; `cancelReason` says why. */
  | 'cancelled';

export class EngineFailure extends Error {
  override name = 'EngineFailure';
  constructor(
    readonly kind: EngineFailureKind,
    message: string,
    readonly retryable: boolean,
    readonly details: { code?: EngineErrorCode; cancelReason?: unknown } = {},
  ) {
    super(message);
  }
}

const TASK_LABEL: Record<EngineTask, string> = {
  train: 'training engine',
  generate: 'generation engine',
};

/** The one encoding of a worker -> engine line: compact JSON in schema key order, then `\n`. */
export function encodeEngineCommand(command: EngineCommand): string {
  return `${JSON.stringify(ZEngineCommandSchema.parse(command))}\n`;
}

/** Parses and validates one engine -> worker line; throws a readable message when it is not one. */
export function decodeEngineEvent(line: string): EngineEvent {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new Error(`not JSON: ${line.slice(0, 200)}`);
  }
  const version = (raw as { v?: unknown } | null)?.v;
  if (version !== ENGINE_PROTOCOL_VERSION) {
    throw new Error(
      `protocol version ${JSON.stringify(version)}, expected ${ENGINE_PROTOCOL_VERSION}`,
    );
  }
  const parsed = ZEngineEventSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${parsed.error.message} in ${line.slice(0, 200)}`);
  return parsed.data;
}

const describeExit = ({ code, signal }: EngineExit) =>
  signal ? `signal ${signal}` : `exit code ${code}`;

// The engine gets no secrets (database, Redis, storage credentials): only what Python, the GPU
// stack and the engine's own settings need.
const ENGINE_ENV_NAMES = new Set(['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TZ']);
const ENGINE_ENV_PREFIXES = [
  'PYTHON',
  'CUDA_',
  'NVIDIA_',
  'HF_',
  'TORCH',
  'OMP_',
  'MKL_',
  'ENGINE_',
];

function engineEnvironment(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(source).filter(
      ([name]) =>
        ENGINE_ENV_NAMES.has(name) || ENGINE_ENV_PREFIXES.some((prefix) => name.startsWith(prefix)),
    ),
  );
  return { ...env, PYTHONUNBUFFERED: '1' };
}

interface ActiveRun {
  request: EngineStartRequest;
  options: EngineRunOptions;
  artifacts: EngineArtifact[];
  settled: boolean;
  cancelReason?: unknown;
  resolve(result: EngineRunResult): void;
  reject(error: EngineFailure): void;
}

export class EngineProcess {
  /** Resolves with the engine's `ready`; rejects with an `unavailable` EngineFailure. */
  readonly ready: Promise<EngineReady>;
  /** Resolves when the process has exited and its pipes are drained. */
  readonly exited: Promise<EngineExit>;
  readonly pid: number | undefined;
  private readonly child: ChildProcess;
  private readonly channel: Duplex;
  private readonly options: EngineProcessOptions;
  private logger: Logger;
  private exit: EngineExit | undefined;
  private readySettled = false;
  private settleReady!: { resolve(ready: EngineReady): void; reject(error: EngineFailure): void };
  private activeRun: ActiveRun | undefined;
  private stopping: Promise<EngineExit> | undefined;
  /** Tasks this process has been given (a session recycles itself after a number of them). */
  private started = 0;

  constructor(options: EngineProcessOptions) {
    this.options = options;
    this.child = spawn(options.command.file, options.command.args, {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: engineEnvironment(process.env),
      // Its own process group: a Ctrl-C in the terminal reaches the worker, which stops the
      // engine in order, and a signal to the group reaches anything the engine started.
      detached: true,
    });
    this.pid = this.child.pid;
    options.lifecycle?.started();
    this.logger = options.logger.child({ enginePid: this.pid });
    this.channel = this.child.stdio[3] as Duplex;
    this.readLines(this.channel, (line) => this.onLine(line));
    this.readLines(this.child.stdout!, (line) =>
      this.logger.info({ engineOutput: 'stdout' }, line),
    );
    this.readLines(this.child.stderr!, (line) =>
      this.logger.info({ engineOutput: 'stderr' }, line),
    );

    this.ready = new Promise<EngineReady>((resolve, reject) => {
      this.settleReady = { resolve, reject };
    });
    // Callers may never await `ready` (a spare killed at shutdown): no unhandled rejection.
    this.ready.catch(() => undefined);
    const readyTimer = setTimeout(() => {
      this.failReady(`it did not say ready within ${options.readyTimeoutMs} ms`);
      void this.stop();
    }, options.readyTimeoutMs);
    void this.ready.then(
      () => clearTimeout(readyTimer),
      () => clearTimeout(readyTimer),
    );

    this.exited = new Promise<EngineExit>((resolve) => {
      // 'close', not 'exit': every line the engine wrote has been read by then.
      this.child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
        this.onClose({ code, signal });
        resolve({ code, signal });
      });
    });
    this.child.once('error', (error) => {
      this.logger.error({ err: error }, 'engine process error');
      this.failReady(error.message);
    });
  }

  /**
   * Sends `start` once the engine is ready and settles with its `result`; rejects with an
   * EngineFailure for an `error`, a crash, a protocol violation or a cancel. A single-run process
   * is stopped after its task; a session waits for the next, one task at a time.
   */
  async run(request: EngineStartRequest, options: EngineRunOptions = {}): Promise<EngineRunResult> {
    if (this.activeRun && !this.activeRun.settled) {
      throw new Error('An engine process runs one task at a time.');
    }
    if (this.activeRun && !this.options.reusable) {
      throw new Error('This engine process runs one task; take a fresh one.');
    }
    if (this.stopping) throw new Error('This engine process is stopping; take another.');
    this.started += 1;
    const result = new Promise<EngineRunResult>((resolve, reject) => {
      this.activeRun = { request, options, artifacts: [], settled: false, resolve, reject };
    });
    if (options.logger) this.logger = options.logger.child({ enginePid: this.pid });
    try {
      await this.ready;
    } catch (error) {
      this.settleRun((run) => run.reject(error as EngineFailure));
      return result;
    }
    const exit = this.exit;
    if (exit) {
      // A spare that died after its handshake.
      this.settleRun((run) => run.reject(this.exitFailure(run, exit)));
      return result;
    }
    this.send({ v: ENGINE_PROTOCOL_VERSION, type: 'start', ...request });
    this.logger.info({ task: request.task }, 'engine start sent');
    return result;
  }

  /**
   * Asks the running task to stop (`cancel`), then stops the process: SIGTERM after the cancel
   * grace, SIGKILL after the term grace. The run rejects with a `cancelled` EngineFailure
   * carrying `reason`, unless it had already settled. Resolves once the process has exited.
   */
  cancel(reason: unknown): Promise<EngineExit> {
    const run = this.activeRun;
    if (run && !run.settled && run.cancelReason === undefined) {
      run.cancelReason = reason;
      this.send({ v: ENGINE_PROTOCOL_VERSION, type: 'cancel', job_id: run.request.job_id });
      this.logger.info({ reason: String(reason) }, 'engine cancel sent');
    }
    return this.stop();
  }

  /**
   * Stops the process: its pipe is closed (the engine exits at its end) once no task is running
   * on it, and SIGTERM and SIGKILL follow after their graces. Safe to call any number of times;
   * resolves once the process has exited.
   */
  stop(): Promise<EngineExit> {
    this.stopping ??= this.escalate();
    return this.stopping;
  }

  get hasExited(): boolean {
    return this.exit !== undefined;
  }

  /** Can take a task now: alive, not stopping, and not running one. */
  get idle(): boolean {
    return !this.exit && !this.stopping && (!this.activeRun || this.activeRun.settled);
  }

  /** Tasks given to this process so far. */
  get tasksStarted(): number {
    return this.started;
  }

  private async escalate(): Promise<EngineExit> {
    if (this.exit) return this.exit;
    // A cancelled task gets its grace to answer `cancel`; settling it closes the pipe then.
    if (!this.activeRun || this.activeRun.settled) this.channel.end();
    if (await this.exitsWithin(this.options.cancelGraceMs)) return this.exited;
    this.logger.warn('engine did not stop in its grace period: SIGTERM');
    this.signal('SIGTERM');
    if (await this.exitsWithin(this.options.termGraceMs)) return this.exited;
    this.logger.warn('engine did not stop after SIGTERM: SIGKILL');
    this.signal('SIGKILL');
    return this.exited;
  }

  private async exitsWithin(ms: number): Promise<boolean> {
    const timer = new AbortController();
    const exited = await Promise.race([
      this.exited.then(() => true),
      sleep(ms, false, { signal: timer.signal, ref: false }).catch(() => false),
    ]);
    timer.abort();
    return exited;
  }

  private signal(signal: NodeJS.Signals): void {
    if (this.pid === undefined || this.exit) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      // The group is gone already (or never formed): signal the process itself.
      this.child.kill(signal);
    }
  }

  private send(command: EngineCommand): void {
    if (this.exit || !this.channel.writable) return;
    this.channel.write(encodeEngineCommand(command));
  }

  /**
   * Calls `onLine` for each line of one of the engine's pipes (stdout and stderr are only logs: a
   * failure also comes as an `error` message). A pipe breaking as the engine dies (EPIPE,
   * ECONNRESET) is logged; the exit itself is handled on 'close'.
   */
  private readLines(stream: Readable, onLine: (line: string) => void): void {
    const onError = (error: Error) => this.logger.debug({ err: error }, 'engine pipe error');
    stream.on('error', onError);
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine).on('error', onError);
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    let event: EngineEvent;
    try {
      event = decodeEngineEvent(line);
    } catch (error) {
      return this.violate((error as Error).message);
    }
    switch (event.type) {
      case 'ready':
        if (this.readySettled) return this.violate('a second ready');
        if (event.engine !== this.options.kind) {
          this.failReady(`it is a ${event.engine} engine; this worker runs ${this.options.kind}`);
          void this.stop();
          return;
        }
        this.readySettled = true;
        this.logger.debug({ engine: event.engine, version: event.version }, 'engine ready');
        return this.settleReady.resolve(event);
      case 'log':
        return this.logger[event.level](
          {
            engineLog: true,
            ...(event.job_id === undefined ? {} : { engineJobId: event.job_id }),
            ...(event.request_id === undefined ? {} : { engineRequestId: event.request_id }),
          },
          event.message,
        );
      case 'progress':
      case 'artifact':
      case 'result':
      case 'error':
        return this.onRunEvent(event);
    }
  }

  private onRunEvent(
    event: Extract<EngineEvent, { type: 'progress' | 'artifact' | 'result' | 'error' }>,
  ): void {
    const run = this.activeRun;
    if (event.type === 'error' && event.job_id === null && !run) {
      this.logger.warn({ code: event.code }, event.message);
      return this.failReady(`it reported ${event.code}: ${event.message}`);
    }
    // An error with no job id while a task runs (the engine could not even read `start`) is
    // that task's error.
    const ours = event.job_id === run?.request.job_id || (event.type === 'error' && !event.job_id);
    if (!run || !ours) {
      return this.violate(`${event.type} for job ${event.job_id}, which is not running here`);
    }
    if (run.settled) return; // late lines after a cancel or a violation change nothing
    switch (event.type) {
      case 'progress':
        return run.options.onProgress?.({
          step: event.step,
          total: event.total,
          message: event.message,
          metrics: event.metrics,
          eta_seconds: event.eta_seconds,
        });
      case 'artifact': {
        const outputDir = path.resolve(run.request.params.output_dir);
        if (!path.resolve(event.path).startsWith(outputDir + path.sep)) {
          return this.violate(`artifact ${event.path} is outside ${outputDir}`);
        }
        const artifact = { path: event.path, kind: event.kind, meta: event.meta };
        run.artifacts.push(artifact);
        return run.options.onArtifact?.(artifact);
      }
      case 'result':
        this.logger.info('engine result received');
        return this.settleRun(
          (r) => r.resolve({ summary: event.summary, artifacts: r.artifacts }),
          true,
        );
      case 'error':
        this.logger.warn({ code: event.code, retryable: event.retryable }, event.message);
        return this.settleRun(
          (r) =>
            r.reject(
              r.cancelReason !== undefined && event.code === 'cancelled'
                ? this.cancelled(r)
                : new EngineFailure('failed', event.message, event.retryable, { code: event.code }),
            ),
          // An engine that answered with an error is still serving; a crash is not.
          event.code !== 'internal',
        );
    }
  }

  private onClose(exit: EngineExit): void {
    this.exit = exit;
    this.logger.info(exit, 'engine exited');
    // Not stopped by us, and not the clean exit of a single-run process after its answer.
    const running = this.activeRun !== undefined && !this.activeRun.settled;
    if (!this.stopping && (running || exit.code !== 0)) this.options.lifecycle?.crashed(exit);
    this.failReady(`it exited (${describeExit(exit)}) before it was ready`);
    this.settleRun((run) => run.reject(this.exitFailure(run, exit)));
  }

  /** A run whose process exited before `result` or `error`: cancelled, or else crashed. */
  private exitFailure(run: ActiveRun, exit: EngineExit): EngineFailure {
    if (run.cancelReason !== undefined) return this.cancelled(run);
    return new EngineFailure(
      'crashed',
      `The ${TASK_LABEL[run.request.task]} stopped unexpectedly (${describeExit(exit)})`,
      true,
    );
  }

  private cancelled(run: ActiveRun): EngineFailure {
    return new EngineFailure(
      'cancelled',
      `The ${TASK_LABEL[run.request.task]} was stopped: ${String(run.cancelReason)}`,
      true,
      { cancelReason: run.cancelReason },
    );
  }

  /** A protocol violation is a bug on one side: fail what is pending and stop the process. */
  private violate(detail: string): void {
    this.logger.error({ detail }, 'engine protocol violation');
    this.failReady(`it broke the protocol: ${detail}`);
    this.settleRun((run) =>
      run.reject(
        new EngineFailure(
          'protocol',
          `The ${TASK_LABEL[run.request.task]} sent a message the worker could not understand`,
          false,
        ),
      ),
    );
    void this.stop();
  }

  private failReady(reason: string): void {
    if (this.readySettled) return;
    this.readySettled = true;
    this.settleReady.reject(
      new EngineFailure('unavailable', `The engine could not be started: ${reason}`, true),
    );
  }

  /**
   * Settles the run once. A single-run process is stopped then, its task being over; so is a
   * session whose task was cancelled (it may still be busy with it) or that failed for a reason
   * other than the engine's own `error` answer.
   */
  private settleRun(settle: (run: ActiveRun) => void, keepSession = false): void {
    const run = this.activeRun;
    if (!run || run.settled) return;
    run.settled = true;
    settle(run);
    if (this.options.reusable && keepSession && run.cancelReason === undefined) return;
    this.channel.end();
    void this.stop();
  }
}
