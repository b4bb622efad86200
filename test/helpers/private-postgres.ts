import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { until } from './until.js';

const BIN = '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL server of one test file's own, to stop and start under load: the shared server on
 * 127.0.0.1:5432 serves every other test at the same time and must never go down. Runs as the
 * `postgres` account (PostgreSQL refuses to run as root), in a temporary directory.
 */
export interface PrivatePostgres {
  /** The `postgres` database as superuser, over TCP (what the service under test is given). */
  url: string;
  port: number;
  /** Fast shutdown (SIGINT): sessions are cut with 57P01, the port closes. Resolves once it exited. */
  stop(): Promise<void>;
  /** Starts again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it (SIGKILL if need be) and removes its files. Safe to call twice, or after a failed start. */
  destroy(): Promise<void>;
}

/** A TCP port nobody listens on right now (the kernel's choice). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function postgresAccount(): Promise<{ uid: number; gid: number }> {
  const run = promisify(execFile);
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** initdb (a second or two) and a first start. Settings favour speed: nothing here must survive a crash of the machine. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const account = await postgresAccount();
  const root = await mkdtemp(path.join(os.tmpdir(), 'redline-pg-'));
  const dataDir = path.join(root, 'data');
  const socketDir = path.join(root, 'socket');
  await mkdir(socketDir);
  await chown(root, account.uid, account.gid);
  await chown(socketDir, account.uid, account.gid);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | undefined;
  let log = '';
  // A vitest worker that dies must not leave a server behind.
  const killOnExit = () => server?.kill('SIGKILL');
  process.once('exit', killOnExit);

  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const handle: PrivatePostgres = {
    url,
    port,
    async start() {
      if (server !== undefined) throw new Error('private PostgreSQL is already running');
      const child = spawn(
        `${BIN}/postgres`,
        [
          '-D',
          dataDir,
          '-p',
          String(port),
          '-k',
          socketDir,
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          'fsync=off',
          '-c',
          'synchronous_commit=off',
          '-c',
          'full_page_writes=off',
          '-c',
          'max_connections=60',
        ],
        { cwd: root, uid: account.uid, gid: account.gid, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      server = child;
      child.stderr?.on('data', (chunk: Buffer) => {
        log = (log + chunk.toString()).slice(-4000);
      });
      child.once('exit', () => {
        if (server === child) server = undefined;
      });
      try {
        await until('the private PostgreSQL to accept connections', async () => {
          if (child.exitCode !== null) throw new Error(`postgres exited: ${log}`);
          const client = new pg.Client({ connectionString: url });
          client.on('error', () => {});
          try {
            await client.connect();
            await client.query('select 1');
            return true;
          } finally {
            await client.end().catch(() => {});
          }
        });
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${log}`);
      }
    },
    async stop() {
      const child = server;
      if (child === undefined) return;
      child.kill('SIGINT');
      await exited(child);
    },
    async destroy() {
      const child = server;
      if (child !== undefined) {
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'));
        await exited(child);
        clearTimeout(timer);
      }
      process.off('exit', killOnExit);
      await rm(root, { recursive: true, force: true });
    },
  };

  try {
    await promisify(execFile)(
      `${BIN}/initdb`,
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync', '--no-instructions'],
      { cwd: root, uid: account.uid, gid: account.gid },
    );
    await handle.start();
  } catch (error) {
    await handle.destroy();
    throw error;
  }
  return handle;
}
