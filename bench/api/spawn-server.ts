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
  /** The working directory (`npm start` reads the package.json there). */
  cwd?: string;
  /**
   * Run it in a process group of its own and stop the whole group: `npm start` runs the server
   * under `sh -c` and does not pass SIGTERM on to it.
   */
  group?: boolean;
}

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/** Starts `node <args>` (in `cwd` when given) and waits until `readyUrl` answers 200 (polled every 10 ms). */
export async function spawnServer(options: SpawnOptions): Promise<SpawnedServer> {
  const log = openSync(options.logFile, 'a');
  const started = performance.now();
  const child = spawn(process.execPath, options.args, {
    env: options.env,
    stdio: ['ignore', log, log],
    cwd: options.cwd,
    detached: options.group === true,
  });
  const kill = (signal: NodeJS.Signals) => {
    if (options.group && child.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, signal);
    else child.kill(signal);
  };
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
      kill('SIGKILL');
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
      if (!gone || options.group) kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 30_000);
      const code = await exit;
      // The group's other members (the server under npm) end on the same signal: wait for them.
      while (options.group && child.pid !== undefined && groupAlive(child.pid)) {
        await new Promise((r) => setTimeout(r, 20));
      }
      clearTimeout(timer);
      return code;
    },
  };
}
