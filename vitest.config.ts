import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Hang detectors, not waits: tests wait on the events they mean (test/helpers/until.ts), and
    // on a shared two-core machine under other jobs' load a test that takes 20 s alone can take
    // ten times that. One limit for every test and hook, so no test sets a shorter one.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Every test file gets its own database (see test/helpers/test-database.ts); two cores here.
    maxWorkers: 2,
  },
});
