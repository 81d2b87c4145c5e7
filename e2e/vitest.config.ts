import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // One browser and one server at a time: two cores.
    fileParallelism: false,
  },
});
