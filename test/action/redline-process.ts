import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { HANG_MS } from '../helpers/until.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A real Redline: `node bin/redline.js serve` (the build/ the global setup compiles) on an
 * embedded database in a temp DATA_DIR and a free port, with one test-mode key made by
 * `redline token create` before it starts (the embedded database is one process's at a time).
 */
export class RedlineProcess {
  private constructor(
    readonly baseUrl: string,
    readonly key: string,
    private readonly child: ChildProcess,
    private readonly dataDir: string,
    private readonly output: () => string,
  ) {}

  static async start(): Promise<RedlineProcess> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'redline-action-'));
    const env = { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), DATA_DIR: dataDir, LOG_LEVEL: 'warn' as const };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bin/redline.js', 'token', 'create', '--user', 'ci-bot', '--scopes', 'review:read,review:write', '--test'],
      { cwd: ROOT, env },
    );
    const key = stdout.trim();
    const port = await freePort();
    const child = spawn(process.execPath, ['bin/redline.js', 'serve'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const server = new RedlineProcess(`http://127.0.0.1:${port}`, key, child, dataDir, () => output);
    await server.waitUntilReady();
    return server;
  }

  private async waitUntilReady(timeoutMs = HANG_MS) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`redline serve exited:\n${this.output()}`);
      const ready = await fetch(`${this.baseUrl}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`redline serve did not become ready:\n${this.output()}`);
  }

  /** A GET of the API with the test key, for checking what the action reported. */
  async get<T>(pathAndQuery: string, key = this.key): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.baseUrl}${pathAndQuery}`, { headers: { 'x-api-key': key } });
    return { status: response.status, body: (await response.json()) as T };
  }

  async stop() {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
