import { EngineProcess, type EngineProcessOptions, type EngineReady } from './engine-process.js';

/**
 * Keeps one engine process started and handshaken ahead of time, so a job's engine is ready in
 * milliseconds instead of a Python start-up. Each task takes its own process (it is stopped when
 * the task ends, freeing its memory) and the next spare starts at once.
 */
export class WarmEngines {
  private spare: EngineProcess | undefined;
  private closed = false;

  constructor(private readonly options: EngineProcessOptions) {}

  /** Starts the first spare and waits for its `ready`: an engine that cannot start is found now. */
  async start(): Promise<EngineReady> {
    this.spare ??= new EngineProcess(this.options);
    return this.spare.ready;
  }

  /** A ready engine for one task; rejects with an `unavailable` EngineFailure if none starts. */
  async take(): Promise<EngineProcess> {
    if (this.closed) throw new Error('The engine pool is closed.');
    const spare = this.spare;
    const engine = spare && !spare.hasExited ? spare : new EngineProcess(this.options);
    this.spare = undefined;
    // Spawning takes milliseconds of this thread: the task's `start` goes out first.
    setImmediate(() => {
      if (!this.closed) this.spare ??= new EngineProcess(this.options);
    });
    await engine.ready;
    return engine;
  }

  /** Stops the spare; engines already taken belong to their tasks. */
  async close(): Promise<void> {
    this.closed = true;
    const spare = this.spare;
    this.spare = undefined;
    await spare?.stop();
  }
}
