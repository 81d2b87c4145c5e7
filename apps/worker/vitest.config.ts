import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores, and the engine suites time processes: two suites at once at most.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
