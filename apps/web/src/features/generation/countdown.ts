/** The post-payment page begins its generation after a 2-second wait (docs/spec/constants.md). */
export const RESULTS_START_DELAY_MS = 2000;

/** setTimeout and clearTimeout, injectable so tests can drive time by hand. */
export interface Scheduler {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const browserScheduler: Scheduler = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Counts down `totalMs` in whole seconds: `onTick(secondsLeft)` at once and after each second,
 * then `onDone()`. Returns the cancel (nothing more runs after it).
 */
export function startCountdown({
  totalMs,
  onTick,
  onDone,
  scheduler = browserScheduler,
}: {
  totalMs: number;
  onTick: (secondsLeft: number) => void;
  onDone: () => void;
  scheduler?: Scheduler;
}): () => void {
  let remaining = Math.max(0, totalMs);
  let handle: unknown = null;
  let cancelled = false;

  const step = () => {
    if (cancelled) return;
    if (remaining <= 0) {
      onDone();
      return;
    }
    onTick(Math.ceil(remaining / 1000));
    const wait = remaining % 1000 || 1000;
    remaining -= wait;
    handle = scheduler.setTimeout(step, wait);
  };
  step();

  return () => {
    cancelled = true;
    if (handle !== null) scheduler.clearTimeout(handle);
  };
}
