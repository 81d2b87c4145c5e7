import { defineConfig } from 'vitest/config';

// The container test (scripts/test.sh runs it last): builds the images and runs the stack.
export default defineConfig({
  test: {
    include: ['containers/**/*.test.ts'],
    // Upper bounds on a loaded 2-core machine, not speed targets: a cold build downloads every
    // package and Python wheel.
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
