import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Role } from '../../src/cli/serve.js';
import { freePort } from './private-postgres.js';
import type { TestApp } from './test-app.js';
import { until } from './until.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One `redline serve [--role …]` child process (the compiled build/), as an operator runs it. */
export interface RoleProcess {
  role: Role;
  pid: number;
  /** `http://127.0.0.1:<port>` of a process that serves the API. */
  baseUrl: string;
  /** Everything it wrote (logs are JSON lines), for waiting on a log message and for failure reports. */
  output(): string;
  /** Still the same process: it neither exited nor was replaced. */
  alive(): boolean;
  /** Sends `signal` and resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `redline serve [--role <role>]` with `env` (DATABASE_URL or DATA_DIR, secrets, …) on top
 * of a bare PATH and HOME, so nothing of the test runner's environment leaks in. A process that
 * serves the API listens on `port` (default: a free one) and is returned once /readyz answers 200.
 */
export async function serveRole(
  role: Role,
  env: Record<string, string>,
  options: { port?: number } = {},
): Promise<RoleProcess> {
  const serves = role !== 'worker';
  const port = serves ? (options.port ?? (await freePort())) : 0;
  const child: ChildProcess = spawn(
    process.execPath,
    ['bin/redline.js', 'serve', ...(role === 'all' ? [] : ['--role', role])],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: os.tmpdir(),
        LOG_LEVEL: 'warn',
        ...env,
        ...(serves ? { PORT: String(port), HOST: '127.0.0.1' } : {}),
      },
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    // The tail is enough to explain a failure; a long outage logs a lot.
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const handle: RoleProcess = {
    role,
    pid: child.pid ?? 0,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    alive: running,
    async stop(signal = 'SIGTERM') {
      if (running()) child.kill(signal);
      await exited;
    },
  };
  if (serves) {
    try {
      // An exit ends the wait at once (until() would take a throw for "not yet").
      await until(
        `the ${role} process to be ready`,
        async () => !running() || (await fetch(`${handle.baseUrl}/readyz`)).status === 200,
      );
      if (!running()) throw new Error(`the ${role} process exited`);
    } catch (error) {
      await handle.stop('SIGKILL');
      throw new Error(`${(error as Error).message}\n${output}`);
    }
  }
  return handle;
}

/** What a process needs to serve the database and secrets of an in-process test app. */
export function testAppEnv(t: TestApp): Record<string, string> {
  return {
    DATABASE_URL: t.database.url as string,
    JWT_SECRET: t.secrets.jwtSecret,
    ENCRYPTION_KEY: t.secrets.encryptionKey.toString('hex'),
    PUBLIC_URL: t.config.publicUrl,
  };
}
