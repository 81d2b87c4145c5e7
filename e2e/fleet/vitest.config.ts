import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['fleet/**/*.test.ts'],
    // Upper bounds on a loaded 2-core machine, not speed targets.
    testTimeout: 1_200_000,
    hookTimeout: 120_000,
  },
});
