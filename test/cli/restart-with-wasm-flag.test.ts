import { describe, expect, it } from 'vitest';
import { restartWithWasmFlag } from '../../src/cli/restart-with-wasm-flag.js';
import { WASM_FLAG } from '../../src/db/load-pglite.js';

/** A process as restartWithWasmFlag reads it, recording the execve it would make. */
function fakeProcess(execArgv: string[], argv: string[], withExecve = true) {
  const calls: { file: string; args: readonly string[] | undefined; env: NodeJS.ProcessEnv | undefined }[] = [];
  const env = { DATA_DIR: '/srv/redline' };
  const proc = {
    execArgv,
    argv,
    execPath: '/usr/bin/node',
    env,
    execve: withExecve
      ? (file: string, args?: readonly string[], givenEnv?: NodeJS.ProcessEnv): never => {
          calls.push({ file, args, env: givenEnv });
          return undefined as never;
        }
      : undefined,
  };
  return { proc, calls, env };
}

describe('restartWithWasmFlag', () => {
  it('runs the same command again with the flag first, keeping the other flags and the environment', () => {
    const { proc, calls, env } = fakeProcess(
      ['--enable-source-maps'],
      ['/usr/bin/node', '/app/bin/redline.js', 'serve', '--role', 'api'],
    );
    restartWithWasmFlag(['serve', '--role', 'api'], proc);
    expect(calls).toEqual([
      {
        file: '/usr/bin/node',
        args: ['/usr/bin/node', WASM_FLAG, '--enable-source-maps', '/app/bin/redline.js', 'serve', '--role', 'api'],
        env,
      },
    ]);
  });

  it('does nothing when the flag is on the command line already, or the runtime cannot replace itself', () => {
    const flagged = fakeProcess([WASM_FLAG], ['/usr/bin/node', '/app/bin/redline.js', 'serve']);
    restartWithWasmFlag(['serve'], flagged.proc);
    const old = fakeProcess([], ['/usr/bin/node', '/app/bin/redline.js', 'serve'], false);
    restartWithWasmFlag(['serve'], old.proc);
    expect([flagged.calls, old.calls]).toEqual([[], []]);
  });

  it("does nothing for a command that is not the process's own (a test running serve in its process)", () => {
    const { proc, calls } = fakeProcess([], ['/usr/bin/node', '/app/node_modules/vitest/vitest.mjs', 'run']);
    restartWithWasmFlag(['serve'], proc);
    expect(calls).toEqual([]);
  });
});
