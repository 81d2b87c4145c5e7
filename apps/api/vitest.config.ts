import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only contend for bcrypt.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
