import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flag PGlite's WebAssembly runs under: compiled by Liftoff, V8's baseline compiler, and
 * never recompiled by TurboFan. PostgreSQL's functions are large; TurboFan's tier-up of the hot
 * ones allocated up to ~70 MB of compiler memory on background threads, which malloc kept after
 * it was freed: an idle embedded server held 50-80 MiB more (bench/startup-memory). A GET costs
 * the same, a test-mode review 10-20% more CPU, and initdb runs faster (bench/README.md).
 */
export const WASM_FLAG = '--liftoff-only';

/**
 * Loads PGlite and its node-postgres shim with WASM_FLAG set in this process. V8 reads the flag
 * when a module is compiled, which PGlite does when a database is opened: a module compiled
 * before keeps tiering up (test/db/load-pglite.test.ts). Node 20 takes the flag set this way;
 * later runtimes freeze it once started, and `redline serve` puts it on its command line there
 * (src/cli/restart-with-wasm-flag.ts).
 */
export async function loadPGlite() {
  setFlagsFromString(WASM_FLAG);
  const [{ PGlite }, { createPgConfig }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/node-postgres'),
  ]);
  return { PGlite, createPgConfig };
}
