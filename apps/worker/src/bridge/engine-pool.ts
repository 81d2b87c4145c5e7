import { EngineProcess, type EngineProcessOptions, type EngineReady } from './engine-process.js';

export type EnginePoolOptions = Omit<EngineProcessOptions, 'reusable'> & {
  /**
   * A GPU engine: never two processes with weights loaded at once. No spare is kept while one
   * runs, and a training first stops the idle generation session (and the other way round).
   */
  exclusive: boolean;
  /** A generation session with no task for this long is stopped, freeing its memory. */
  sessionIdleMs: number;
  /** A session is replaced after this many tasks (bounds whatever a long-lived process leaks). */
  sessionMaxTasks: number;
};

/** An engine handed to one task; `release` when the task is over, whatever happened. */
export interface EngineLease {
  engine: EngineProcess;
  release(): Promise<void>;
}

/** One holder at a time, in arrival order. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let unlock!: () => void;
    const held = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => held);
    await previous;
    return unlock;
  }
}

/**
 * The engine processes of one worker, by the policy of its engine kind:
 * - training: a fresh process per task (stopped when the task ends, so its memory, GPU included,
 *   is freed); a CPU engine also keeps one spare started and handshaken ahead, so a training's
 *   engine is ready in milliseconds instead of a Python start-up;
 * - generation: one warm session serving tasks one after another with its models loaded, stopped
 *   when idle and replaced after `sessionMaxTasks`.
 */
export class EnginePool {
  private spare: EngineProcess | undefined;
  private session: EngineProcess | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Generation tasks take the session one at a time. */
  private readonly sessionLock = new Mutex();
  /** Exclusive engines: every task holds this while its process lives. */
  private readonly deviceLock = new Mutex();
  private closed = false;

  constructor(private readonly options: EnginePoolOptions) {}

  /**
   * Starts the processes kept ahead (the spare, or the session for an exclusive engine) and waits
   * for `ready`: an engine that cannot start, or is of another kind, is found now.
   */
  async start(): Promise<EngineReady> {
    if (this.options.exclusive) {
      this.session ??= this.spawn(true);
      return this.session.ready;
    }
    this.spare ??= this.spawn(false);
    this.session ??= this.spawn(true);
    const [ready] = await Promise.all([this.spare.ready, this.session.ready]);
    this.armIdleTimer();
    return ready;
  }

  /** A process of its own for one training. */
  async leaseTraining(): Promise<EngineLease> {
    this.assertOpen();
    const unlockDevice = this.options.exclusive ? await this.deviceLock.acquire() : undefined;
    try {
      if (this.options.exclusive) await this.stopSession();
      const spare = this.spare;
      const engine = spare && !spare.hasExited ? spare : this.spawn(false);
      this.spare = undefined;
      if (!this.options.exclusive) {
        // Spawning takes milliseconds of this thread: the task's `start` goes out first.
        setImmediate(() => {
          if (!this.closed) this.spare ??= this.spawn(false);
        });
      }
      await engine.ready;
      return {
        engine,
        release: async () => {
          await engine.stop();
          unlockDevice?.();
        },
      };
    } catch (error) {
      unlockDevice?.();
      throw error;
    }
  }

  /** The warm generation session, for one task at a time. */
  async leaseGeneration(): Promise<EngineLease> {
    this.assertOpen();
    const unlockSession = await this.sessionLock.acquire();
    const unlockDevice = this.options.exclusive ? await this.deviceLock.acquire() : undefined;
    const unlock = () => {
      unlockDevice?.();
      unlockSession();
    };
    try {
      clearTimeout(this.idleTimer);
      let session = this.session;
      if (session && (!session.idle || session.tasksStarted >= this.options.sessionMaxTasks)) {
        void session.stop();
        session = undefined;
      }
      session ??= this.spawn(true);
      this.session = session;
      await session.ready;
      return {
        engine: session,
        release: async () => {
          if (this.session === session && !session.idle) {
            // Cancelled or broken: it is stopping; the next task starts a new one.
            this.session = undefined;
            await session.stop();
          }
          this.armIdleTimer();
          unlock();
        },
      };
    } catch (error) {
      if (this.session?.hasExited) this.session = undefined;
      unlock();
      throw error;
    }
  }

  /** Stops every process the pool keeps; engines leased to running tasks belong to them. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const kept = [this.spare, this.session];
    this.spare = undefined;
    this.session = undefined;
    await Promise.all(kept.map((engine) => engine?.stop()));
  }

  private spawn(reusable: boolean): EngineProcess {
    return new EngineProcess({ ...this.options, reusable });
  }

  private async stopSession(): Promise<void> {
    clearTimeout(this.idleTimer);
    const session = this.session;
    this.session = undefined;
    await session?.stop();
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    if (this.closed || !this.session) return;
    this.idleTimer = setTimeout(() => {
      const session = this.session;
      if (!session?.idle) return;
      this.session = undefined;
      void session.stop();
    }, this.options.sessionIdleMs);
    this.idleTimer.unref();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The engine pool is closed.');
  }
}
