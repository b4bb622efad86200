import { WASM_FLAG } from '../db/load-pglite.js';

interface Exec {
  execArgv: readonly string[];
  argv: readonly string[];
  execPath: string;
  env: NodeJS.ProcessEnv;
  execve?: ((file: string, args?: readonly string[], env?: NodeJS.ProcessEnv) => never) | undefined;
}

/**
 * Puts WASM_FLAG on the command line of `redline serve` by replacing this process with the same
 * command plus the flag (same pid, descriptors and environment), where the runtime can do that
 * (`process.execve`, Node 22.15 and 23.11 on). Those runtimes freeze V8's WebAssembly flags once
 * started, so loadPGlite's `setFlagsFromString` would not take; on Node 20 it does, and there is
 * no `execve`. Does nothing when the flag is already there, or when `argv` (the command being run)
 * is not this process's own command line (a test running `serve` in its process). Returns only
 * when it did not restart.
 */
export function restartWithWasmFlag(argv: readonly string[], proc: Exec = process as unknown as Exec): void {
  if (proc.execve === undefined || proc.execArgv.includes(WASM_FLAG)) return;
  const own = proc.argv.slice(2);
  if (own.length !== argv.length || own.some((arg, i) => arg !== argv[i])) return;
  proc.execve(proc.execPath, [proc.execPath, WASM_FLAG, ...proc.execArgv, ...proc.argv.slice(1)], proc.env);
}
