import { describe, expect, it } from 'vitest';
import { RESULTS_START_DELAY_MS, startCountdown, type Scheduler } from './countdown';

/** A clock moved by hand: `advance(ms)` runs whatever falls due, in order. */
function manualScheduler() {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let nextId = 1;
  const scheduler: Scheduler = {
    setTimeout(run, ms) {
      const id = nextId++;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout(handle) {
      timers = timers.filter((timer) => timer.id !== handle);
    },
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const due = timers[0];
      if (!due || due.at > until) break;
      timers.shift();
      now = due.at;
      due.run();
    }
    now = until;
  };
  return { scheduler, advance, pending: () => timers.length };
}

describe('startCountdown', () => {
  it("the results page's 2-second wait: 2, 1, then it begins", () => {
    const { scheduler, advance } = manualScheduler();
    const events: string[] = [];
    startCountdown({
      totalMs: RESULTS_START_DELAY_MS,
      onTick: (s) => events.push(`tick ${s}`),
      onDone: () => events.push('done'),
      scheduler,
    });
    expect(events).toEqual(['tick 2']);
    advance(999);
    expect(events).toEqual(['tick 2']);
    advance(1);
    expect(events).toEqual(['tick 2', 'tick 1']);
    advance(999);
    expect(events).not.toContain('done');
    advance(1);
    expect(events).toEqual(['tick 2', 'tick 1', 'done']);
  });

  it('a part second counts as a whole one', () => {
    const { scheduler, advance } = manualScheduler();
    const events: string[] = [];
    startCountdown({
      totalMs: 1500,
      onTick: (s) => events.push(`tick ${s}`),
      onDone: () => events.push('done'),
      scheduler,
    });
    advance(500);
    advance(1000);
    expect(events).toEqual(['tick 2', 'tick 1', 'done']);
  });

  it('cancelled (the page was left): nothing more runs', () => {
    const { scheduler, advance, pending } = manualScheduler();
    const events: string[] = [];
    const cancel = startCountdown({
      totalMs: RESULTS_START_DELAY_MS,
      onTick: (s) => events.push(`tick ${s}`),
      onDone: () => events.push('done'),
      scheduler,
    });
    advance(1000);
    cancel();
    advance(5000);
    expect(events).toEqual(['tick 2', 'tick 1']);
    expect(pending()).toBe(0);
  });

  it('no wait at all: begins at once', () => {
    const { scheduler } = manualScheduler();
    const events: string[] = [];
    startCountdown({
      totalMs: 0,
      onTick: (s) => events.push(`tick ${s}`),
      onDone: () => events.push('done'),
      scheduler,
    });
    expect(events).toEqual(['done']);
  });
});
