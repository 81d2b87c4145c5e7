import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import { longFirst } from '../../scripts/vitest-long-first.mjs';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Upper bounds for a test on a loaded 2-core machine, not speed targets: tests wait on
    // states and events (with their own, longer limits where the work is long).
    testTimeout: 240_000,
    hookTimeout: 300_000,
    // The schemathesis run is one long test in a short file: started first, not last.
    sequence: { sequencer: longFirst(BaseSequencer, ['test/fuzz.test.ts']) },
    pool: 'forks',
    // Two cores: more workers only contend for bcrypt.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
