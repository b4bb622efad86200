import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface SpawnedServer {
  pid: number;
  /** From spawn to the first 200 of the ready URL. */
  startupMs: number;
  /** SIGTERM, then the exit code (a drained, clean stop is 0). */
  stop(): Promise<number | null>;
}

export interface SpawnOptions {
  args: string[];
  env: Record<string, string | undefined>;
  readyUrl: string;
  /** stdout and stderr go here: a file, as a production log collector would take them. */
  logFile: string;
  timeoutMs?: number;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/** Starts `node <args>` and waits until `readyUrl` answers 200 (polled every 10 ms). */
export async function spawnServer(options: SpawnOptions): Promise<SpawnedServer> {
  const log = openSync(options.logFile, 'a');
  const started = performance.now();
  const child = spawn(process.execPath, options.args, { env: options.env, stdio: ['ignore', log, log] });
  closeSync(log);
  const exit = exited(child);
  let gone = false;
  void exit.then(() => {
    gone = true;
  });
  const deadline = started + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (gone) throw new Error(`server exited with ${child.exitCode} before it was ready; see ${options.logFile}`);
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready after ${options.timeoutMs ?? 60_000} ms; see ${options.logFile}`);
    }
    const ok = await fetch(options.readyUrl, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const startupMs = Math.round(performance.now() - started);
  if (child.pid === undefined) throw new Error('server has no pid');
  return {
    pid: child.pid,
    startupMs,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
}
