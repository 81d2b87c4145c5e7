import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // Upper bounds for a test on a loaded 2-core machine, not speed targets: tests wait on
    // states and events (with their own, longer limits where the work is long).
    testTimeout: 240_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two cores, and the engine suites time processes: two suites at once at most.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
