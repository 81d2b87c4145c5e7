import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Upper bounds for a test on a loaded 2-core machine, not speed targets: tests wait on
    // states and events (with their own, longer limits where the work is long).
    testTimeout: 240_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two cores: more workers only contend for bcrypt.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
