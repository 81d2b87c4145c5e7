import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.e2e.ts'],
    // Upper bounds on a loaded 2-core machine, not speed targets.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // One browser and one server at a time: two cores.
    fileParallelism: false,
  },
});
