import { defineConfig } from 'vitest/config';

/** The engine is pure (no database, no build, no process state): its test files share their workers' modules. */
const ENGINE_TESTS = 'test/engine/**/*.test.ts';

export default defineConfig({
  test: {
    // Hang detectors, not waits: tests wait on the events they mean (test/helpers/until.ts), and
    // on a shared two-core machine under other jobs' load a test that takes 20 s alone can take
    // ten times that. One limit for every test and hook, so no test sets a shorter one.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Every test file gets its own database (see test/helpers/test-database.ts); two cores here.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'service',
          include: ['test/**/*.test.ts'],
          exclude: [ENGINE_TESTS],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      {
        // Without isolation a worker loads the rule packs and builds each rule library once, not
        // once per file (about a quarter of the engine tests' time). Engine test files keep no
        // state between them: the one module setting they change (the library store) they reset.
        extends: true,
        test: { name: 'engine', include: [ENGINE_TESTS], isolate: false },
      },
    ],
  },
});
