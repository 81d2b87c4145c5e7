import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import { longFirst } from '../../scripts/vitest-long-first.mjs';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // Upper bounds for a test on a loaded 2-core machine, not speed targets: tests wait on
    // states and events (with their own, longer limits where the work is long).
    testTimeout: 240_000,
    hookTimeout: 300_000,
    // The flux engine's suite is the longest: started first, not after the rest.
    sequence: { sequencer: longFirst(BaseSequencer, ['test/flux-engine.test.ts']) },
    pool: 'forks',
    // Two cores, and the engine suites time processes: two suites at once at most.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
