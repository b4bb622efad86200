import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WASM_FLAG } from './load-pglite.js';

// The child's program: PGlite creates the cluster (initdb) in the directory, then closes it. A
// failure is said in one line on stderr (its message, not a stack of PGlite's bundled code).
const CREATE_CLUSTER = `
const [moduleUrl, dir, startParams] = process.argv.slice(1);
try {
  const { PGlite } = await import(moduleUrl);
  const lite = new PGlite(dir, { startParams: JSON.parse(startParams) });
  await lite.waitReady;
  await lite.close();
} catch (error) {
  process.stderr.write(String(error instanceof Error ? error.message : error) + '\\n');
  process.exit(1);
}
`;

const CREATE_TIMEOUT_MS = 120_000;

/**
 * Creates PGlite's cluster in `dir` (PGlite's initdb) in a child process, when the directory has
 * none yet (making the directory as needed). Run in the server's own process, initdb grew the
 * WebAssembly heap to ~800 MB, which never shrinks: a server's first start then idled at ~365 MiB
 * instead of the ~255 MiB of every later start (bench/startup-memory). The child's memory goes
 * back to the system when it exits.
 * A directory that already holds a cluster is left alone, without starting anything.
 */
export async function initializeEmbeddedCluster(dir: string, startParams: readonly string[]): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  await mkdir(dir, { recursive: true });
  // Resolved here: the child runs from wherever the server was started, not from this package.
  const moduleUrl = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      // Under the server's WebAssembly flag, initdb also runs faster: TurboFan's tier-up cost more
      // than it saved in so short a run.
      [WASM_FLAG, '--input-type=module', '--eval', CREATE_CLUSTER, moduleUrl, dir, JSON.stringify(startParams)],
      // initdb takes seconds; a child that hangs must not hold the server's start (and the data
      // directory's lock) for ever.
      { maxBuffer: 4 * 1024 * 1024, timeout: CREATE_TIMEOUT_MS, killSignal: 'SIGKILL' },
      (error, _stdout, stderr) => {
        if (error === null) return resolve();
        const said = stderr.trim().split('\n').at(-1) || error.message;
        const why = error.killed ? `no answer within ${CREATE_TIMEOUT_MS / 1000} s` : said;
        reject(new Error(`the embedded database could not be created or started in ${dir}: ${why}`, { cause: error }));
      },
    );
  });
}
