import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { WASM_FLAG } from '../../src/db/load-pglite.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MODULE = pathToFileURL(path.join(ROOT, 'build/db/load-pglite.js')).href;

// PGlite loaded through loadPGlite ('loaded') or imported directly ('plain'), a database opened,
// then one of its WebAssembly functions (malloc) run hot until V8 has tiered it up to TurboFan,
// or 300 rounds passed (a busy machine compiles in the background later). Prints which
// compiler's code it runs (V8's test intrinsics, hence --allow-natives-syntax).
const RUN = `
const loaded = process.argv[1] === 'loaded';
const { PGlite } = loaded
  ? await (await import(${JSON.stringify(MODULE)})).loadPGlite()
  : await import('@electric-sql/pglite');
const lite = new PGlite();
await lite.waitReady;
const { _malloc, _free } = lite.mod;
for (let round = 0; round < 300 && !%IsTurboFanFunction(_malloc); round++) {
  for (let i = 0; i < 10000; i++) _free(_malloc(64 + (i & 255)));
  await new Promise((resolve) => setTimeout(resolve, 10));
}
console.log(JSON.stringify({ liftoff: %IsLiftoffFunction(_malloc), turbofan: %IsTurboFanFunction(_malloc) }));
await lite.close();`;

// Where the runtime can replace a process (`process.execve`), it also freezes V8's WebAssembly
// flags once started: `redline serve` then starts again with the flag on its command line
// (restartWithWasmFlag, test/cli/restart-with-wasm-flag.test.ts), and so is the child here.
const RESTARTS = 'execve' in process;

async function compiledBy(variant: 'loaded' | 'plain'): Promise<{ liftoff: boolean; turbofan: boolean }> {
  const flags = variant === 'loaded' && RESTARTS ? [WASM_FLAG] : [];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...flags, '--allow-natives-syntax', '--input-type=module', '-e', RUN, variant],
    { cwd: ROOT },
  );
  return JSON.parse(stdout.trim());
}

describe('loadPGlite', () => {
  it('has PGlite run on Liftoff code that is never tiered up, where plain PGlite is', async () => {
    const [plain, loaded] = await Promise.all([compiledBy('plain'), compiledBy('loaded')]);
    expect(plain).toEqual({ liftoff: false, turbofan: true });
    expect(loaded).toEqual({ liftoff: true, turbofan: false });
  }, 60_000);
});
